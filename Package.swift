// swift-tools-version:6.0
import PackageDescription

// Layers, with dependencies that run one way (docs/ARCHITECTURE.md draws them):
//   Sources/System/C*             the system libraries' module maps (pkg-config), each imported
//                                 only by its wrapper target below
//   GeoModel                      geometry, JSON/GeoJSON, TSV/CSV, errors, files, progress
//                                 (StageLog), sphere math; imports no C library
//   CalendarDay, SeededRandom     Day; SplitMix64: small values several targets share
//   PopulatedPlaces               Natural Earth's populated places (ingest, highlights, lookup)
//   GeoGEOS, GeoPROJ              the only code that imports CGEOS / CPROJ (handles owned by Swift types)
//   GeoCompression                the only code that imports CZlib
//   GeoSQLite                     the only code that imports CSQLite (the focus app's content database)
//   GeoPostgres                   the only code that imports CLibPQ (the apps' live PostgreSQL, `make nightly`)
//   GeoDigest                     the only code that imports CCrypto (SHA-256 of releases and nights)
//   Parallelism                   pure Swift (Dispatch): Parallel.map, Background, Locked, the one
//                                 home of the concurrency helpers (GeoModel, GeoLookup, stages)
//   Geodesy                       pure Swift, depends on nothing: Point, Vec3, the Earth's radii,
//                                 great-circle and ellipsoidal distance (GeoModel, H3, GeoLookup use it)
//   GeoLookup                     pure Swift (no C, no GeoModel): the offline lookup the apps embed
//   Hexagons                      geo-hexagons' work over H3 and GeoModel
//   GeoFormats                    glTF, SVG, PNG, SQL writers and readers
//   TerritoryGame                 the game's territory on the server: runs read and judged (GEOS,
//                                 PROJ, TerritoryRules), loops, claims and their fold, shards, the
//                                 rows and merge that load a night, the game's migration
//   NightDatabase                 an app's night in its live PostgreSQL: the AppNight protocol,
//                                 contract errors, migrations recorded in geodata.migrations
//   TerritoryPostgres             the territory night's database side (NightDatabase, TerritoryGame):
//                                 judged runs and cells into users, runs, territory_hex
//   DailyChallenges, CitiesSchema the quiz's schedule and SQL; the cities' migration
//   StageContract                 the stage contract and the option registry (PipelineStage,
//                                 DeclaredOptions, StageOption, OptionsError): the stages',
//                                 StageCommand's and the fronts'; no library below them imports it
//   TerritoryOptions              the runs options geo-territory and geo-nightly share, declared
//                                 over TerritoryGame's RunsOptions (TerritoryGame does not list it)
//   Stages/<Name> → <Name>Stage   one target per pipeline stage: Options, validate(), run → Report;
//                                 a stage imports libraries and StageContract, never another stage
//   geo-<name>                    one thin command-line front per stage (StageCommand derives its
//                                 arguments from the stage's declared options)
//   EmbedFiles (Plugins/) ─ embed-files   compiles a target's .sql and .html files into it
//                                 (`EmbeddedFiles`; its Migrations/ folder, in name order, is its migrations)
// A stage lists only the layers it uses, so the compiler enforces the layering: the preview
// stage, which needs no GEOS, does not link it.

struct StageTarget {
    let name: String          // folder under Sources/Stages/ and the stage's type: <name>Stage
    let front: String         // executable under Sources/<front>/
    let uses: [Target.Dependency]
    /// Libraries the front itself names (its --help quotes them), beyond its stage.
    var frontUses: [Target.Dependency] = []
    /// Holds .sql or .html files (SQL/, Inspect/), compiled in by the EmbedFiles plugin.
    var embedsFiles = false
}

let stages: [StageTarget] = [
    .init(name: "Ingest", front: "geo-ingest", uses: ["Parallelism", "GeoModel", "GeoGEOS", "Geodesy", "PopulatedPlaces"]),                              // Natural Earth → build/ingest/countries.geojson
    .init(name: "World", front: "geo-world", uses: ["Parallelism", "GeoModel", "GeoGEOS", "GeoPROJ", "Geodesy"]),                     // repair + coverage simplification → dist/world.geojson
    .init(name: "Globe", front: "geo-globe", uses: ["Parallelism", "GeoModel", "GeoGEOS", "GeoPROJ", "GeoFormats", "Geodesy"]),       // world.geojson → dist/globe.glb (+ manifest)
    .init(name: "Preview", front: "geo-preview", uses: ["Parallelism", "GeoModel", "GeoFormats", "Geodesy"]),                         // globe.glb → dist/preview/*.png
    .init(name: "Map", front: "geo-map", uses: ["GeoModel", "GeoGEOS", "GeoPROJ", "GeoFormats", "Geodesy"]),           // world.geojson → dist/map/ (PROJ flat maps)
    .init(name: "Silhouettes", front: "geo-silhouettes", uses: ["Parallelism", "GeoModel", "GeoGEOS", "GeoPROJ", "GeoFormats", "Geodesy"]), // → dist/silhouettes/<ISO>.svg
    .init(name: "Highlights", front: "geo-highlights", uses: ["Parallelism", "GeoModel", "GeoGEOS", "PopulatedPlaces"]),                      // curated highlights → dist/country_highlights.json
    .init(name: "Challenges", front: "geo-challenges", uses: ["GeoModel", "CalendarDay", "DailyChallenges"], frontUses: ["DailyChallenges"]), // world.geojson → dist/supabase/
    .init(name: "Lookup", front: "geo-lookup", uses: ["Parallelism", "GeoModel", "GeoLookup", "PopulatedPlaces", "SeededRandom"]),                            // countries.geojson + places → dist/lookup/lookup.bin
    .init(name: "Routes", front: "geo-routes", uses: ["GeoModel", "GeoLookup", "GeoPROJ", "GeoSQLite", "Geodesy"], embedsFiles: true),     // data/routes.tsv → dist/routes/ (GeoJSON + SQLite)
    .init(name: "Cities", front: "geo-cities", uses: ["GeoModel", "GeoGEOS", "GeoFormats", "CitiesSchema", "Geodesy"], frontUses: ["CitiesSchema"]), // GeoNames cities + world.geojson → dist/supabase/cities/
    .init(name: "Territory", front: "geo-territory", uses: ["Parallelism", "GeoModel", "GeoGEOS", "GeoPROJ", "GeoFormats", "H3", "Geodesy", "TerritoryRules", "TerritoryGame", "TerritoryOptions"], frontUses: ["TerritoryRules"]), // runs → dist/territory/ (claimed H3 cells)
    // The night against the apps' live PostgreSQL (issue #21): the quiz's, the game's and the
    // cities' libraries (not their stages), loaded through GeoPostgres.
    .init(name: "Nightly", front: "geo-nightly", uses: ["Parallelism", "GeoModel", "CalendarDay", "SeededRandom", "GeoPostgres", "GeoDigest", "NightDatabase", "DailyChallenges", "TerritoryGame", "TerritoryOptions", "TerritoryPostgres", "CitiesSchema"], embedsFiles: true),
    // The game's runs judged as they are submitted (issue #32): the night's code, through GeoPostgres.
    .init(name: "TerritoryFollow", front: "geo-territory-follow", uses: ["Parallelism", "GeoModel", "GeoPostgres", "TerritoryGame", "TerritoryPostgres"]),
    .init(name: "Release", front: "geo-release", uses: ["Parallelism", "GeoModel", "CalendarDay", "GeoPROJ", "GeoFormats", "GeoLookup", "GeoDigest", "Geodesy"], embedsFiles: true),  // products → a release dir (manifest, changes) + the inspect page
]

// The SQL and HTML in files of their own language (issue #39), compiled into the binaries so they
// need nothing beside them: Plugins/EmbedFiles says why not `.embedInCode` resources.
let embedFiles: [Target.PluginUsage] = ["EmbedFiles"]

// The tests run against the release build (scripts/swift-release.sh), but their own code is
// compiled unoptimized: the work they time is the libraries', and -O on the test modules costs
// minutes of `make test` for nothing. (Test targets are in no product, so this unsafe flag never
// reaches a package that depends on this one.)
let testCode: [SwiftSetting] = [.unsafeFlags(["-Onone"])]

let package = Package(
    name: "GeoPipeline",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "GeoModel", targets: ["GeoModel"]),
        .library(name: "H3", targets: ["H3"]),
        // Pure Swift (standard library + Foundation only): coordinates, vectors, the Earth's
        // radius, great-circle and ellipsoidal distance, for the pipeline and the iOS apps.
        .library(name: "Geodesy", targets: ["Geodesy"]),
        // Pure Swift (standard library + Foundation only): the iOS apps embed it.
        .library(name: "GeoLookup", targets: ["GeoLookup"]),
        // Pure Swift (Foundation, H3, Geodesy): the running game's rules (run, verdict, loop, cells).
        .library(name: "TerritoryRules", targets: ["TerritoryRules"]),
    ] + stages.map { .executable(name: $0.front, targets: [$0.front]) }
      + [.executable(name: "geo-project", targets: ["geo-project"]),
         .executable(name: "geo-hexagons", targets: ["geo-hexagons"]),
         .executable(name: "geo-inspect", targets: ["geo-inspect"])],
    // No package dependencies: every front's command line is StageCommand's (docs/ARCHITECTURE.md).
    targets: [
        .systemLibrary(name: "CGEOS", path: "Sources/System/CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CPROJ", path: "Sources/System/CPROJ", pkgConfig: "proj", providers: [.apt(["libproj-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/System/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/System/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibPQ", path: "Sources/System/CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCrypto", path: "Sources/System/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .executableTarget(name: "embed-files"),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["embed-files"]),
        .target(name: "Geodesy"),
        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy"], swiftSettings: testCode),
        // Parallel.map, Background, Locked: the one home of the package's concurrency helpers
        // (pure Swift, Foundation's Dispatch), for the pipeline and GeoLookup alike.
        .target(name: "Parallelism"),
        .target(name: "GeoModel", dependencies: ["Geodesy", "Parallelism"]),
        // Three small values several targets share, each in one place, none of them geometry:
        // the calendar day (quiz, nights, releases, timestamps, date options), SplitMix64 (the
        // quiz's draws, shard and lock hashes, reproducible test samples) and Natural Earth's
        // populated places (the ingest, highlights and lookup stages).
        .target(name: "CalendarDay"),
        .target(name: "SeededRandom"),
        .target(name: "PopulatedPlaces", dependencies: ["GeoModel", "Geodesy"]),
        .target(name: "GeoGEOS", dependencies: ["GeoModel", "Geodesy", "Parallelism", "CGEOS"]),
        .target(name: "GeoPROJ", dependencies: ["GeoModel", "Geodesy", "Parallelism", "CPROJ"]),
        .target(name: "GeoCompression", dependencies: ["CZlib"]),
        .target(name: "GeoSQLite", dependencies: ["CSQLite"]),
        .target(name: "GeoPostgres", dependencies: ["CLibPQ"]),
        .target(name: "GeoDigest", dependencies: ["GeoModel", "CCrypto"]),
        .target(name: "GeoFormats", dependencies: ["GeoModel", "Geodesy", "CalendarDay", "GeoCompression"]),
        // H3 grid in pure Swift (issue #13): standard library and Foundation only, for the iOS apps too.
        .target(name: "H3", dependencies: ["Geodesy"]),
        .testTarget(name: "H3Tests", dependencies: ["H3", "Geodesy"], swiftSettings: testCode),
        // What geo-hexagons does, for scripts and apps: H3 over GeoModel's GeoJSON reader.
        .target(name: "Hexagons", dependencies: ["H3", "GeoModel", "Geodesy"]),
        .testTarget(name: "HexagonsTests", dependencies: ["Hexagons", "H3", "GeoModel"], swiftSettings: testCode),
        .executableTarget(name: "geo-hexagons", dependencies: ["Hexagons", "H3", "GeoModel", "StageContract", "StageCommand"]),
        // The old name of geo-map: runs it with a deprecation note.
        .executableTarget(name: "geo-project"),
        .testTarget(name: "PipelineTests",
                    dependencies: ["GeoModel", "Parallelism", "GeoGEOS", "GeoPROJ", "GeoCompression", "GeoFormats", "GeoLookup", "GeoSQLite", "GeoPostgres", "GeoDigest", "StageContract", "StageCommand", "Geodesy", "TerritoryRules",
                                   "CalendarDay", "SeededRandom", "PopulatedPlaces",
                                   "TerritoryGame", "TerritoryOptions", "NightDatabase", "TerritoryPostgres", "DailyChallenges", "CitiesSchema"]
                        + stages.map { .target(name: $0.name + "Stage") },
                    swiftSettings: testCode),
        .target(name: "GeoLookup", dependencies: ["Geodesy", "Parallelism"]),
        .testTarget(name: "GeoLookupTests", dependencies: ["GeoLookup", "Geodesy"], swiftSettings: testCode),
        // The running game's rules for the night and the app alike: Swift, Foundation, H3, Geodesy.
        .target(name: "TerritoryRules", dependencies: ["H3", "Geodesy"]),
        // What two users share sits here, below the stages (no stage imports a stage):
        // the game's territory on the server (geo-territory, the night, the follower) …
        .target(name: "TerritoryGame", dependencies: ["GeoModel", "Parallelism", "GeoGEOS", "GeoPROJ", "GeoFormats", "H3", "Geodesy", "TerritoryRules", "CalendarDay", "SeededRandom"], plugins: embedFiles),
        // … an app's night in its live database (the AppNight frame, recorded migrations) …
        .target(name: "NightDatabase", dependencies: ["GeoModel", "GeoPostgres", "GeoDigest", "SeededRandom"], plugins: embedFiles),
        // … the territory night's database side (the night and the follower) …
        .target(name: "TerritoryPostgres", dependencies: ["GeoModel", "GeoPostgres", "NightDatabase", "TerritoryGame"], plugins: embedFiles),
        // … the daily quiz's schedule and SQL (geo-challenges, the night) and the cities' schema (geo-cities, the night).
        .target(name: "DailyChallenges", dependencies: ["GeoModel", "GeoPROJ", "GeoFormats", "CalendarDay", "SeededRandom"], plugins: embedFiles),
        .target(name: "CitiesSchema", dependencies: ["GeoModel", "GeoFormats"], plugins: embedFiles),
        // The stage contract and the option registry (PipelineStage, DeclaredOptions, StageOption,
        // OptionsError): what every stage, StageCommand and the fronts build on, and no library
        // below the stages imports (scripts/checks/check_layers.sh).
        .target(name: "StageContract", dependencies: ["GeoModel", "CalendarDay"]),
        // The runs options geo-territory and geo-nightly share, as the command line spells them:
        // TerritoryGame's RunsOptions declared over the contract (TerritoryGame does not list it).
        .target(name: "TerritoryOptions", dependencies: ["StageContract", "TerritoryGame"]),
        // The inspection page's front (InspectStage lives in the release stage, which writes one into every release).
        .executableTarget(name: "geo-inspect", dependencies: [.target(name: "ReleaseStage"), "StageCommand"]),
        // The one command-line stack (every front, geo-lookup's and geo-hexagons' subcommands too):
        // arguments and --help derived from declared options, then validate → run (docs/ARCHITECTURE.md).
        .target(name: "StageCommand", dependencies: ["StageContract"]),
    ] + stages.map {
        .target(name: $0.name + "Stage", dependencies: ["StageContract"] + $0.uses, path: "Sources/Stages/\($0.name)", plugins: $0.embedsFiles ? embedFiles : [])
    } + stages.map {
        .executableTarget(name: $0.front, dependencies: [.target(name: $0.name + "Stage"), "StageCommand"] + $0.frontUses)
    },
    swiftLanguageModes: [.v6]
)

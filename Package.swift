// swift-tools-version:6.0
import PackageDescription

// One core library (GeoCore) over the system GEOS and PROJ C libraries, and one thin
// executable per pipeline stage (Sources/<stage>/main.swift). The Makefile chains the
// stages through build/ and dist/.
let stages = [
    "geo-ingest",       // Natural Earth → build/ingest/countries.geojson
    "geo-world",        // repair + coverage simplification → dist/world.geojson
    "geo-globe",        // world.geojson → dist/globe.glb (+ manifest)
    "geo-preview",      // globe.glb → dist/preview/*.png (orthographic pictures)
    "geo-project",      // world.geojson → dist/map/ (PROJ flat maps)
    "geo-silhouettes",  // world.geojson → dist/silhouettes/<ISO>.svg
    "geo-highlights",   // curated highlights → dist/country_highlights.json
    "geo-challenges",   // world.geojson → dist/supabase/{schema,seed}.sql
]

let package = Package(
    name: "GeoPipeline",
    platforms: [.macOS(.v13)],
    products: [.library(name: "GeoCore", targets: ["GeoCore"])]
        + stages.map { .executable(name: $0, targets: [$0]) },
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CPROJ", pkgConfig: "proj", providers: [.apt(["libproj-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "GeoCore", dependencies: ["CGEOS", "CPROJ", "CZlib"]),
        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore"]),
        .target(name: "TerritoryStage", dependencies: ["GeoCore"], path: "Sources/Stages/Territory",
                exclude: ["Loop.swift", "Outputs.swift", "Preview.swift", "TerritoryStage.swift"]),
        .testTarget(name: "TerritoryStageTests", dependencies: ["TerritoryStage", "GeoCore", "CPROJ"]),
    ] + stages.map {
        .executableTarget(name: $0, dependencies: [
            "GeoCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ])
    },
    swiftLanguageModes: [.v5]
)

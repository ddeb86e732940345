import Foundation
import GeoModel
import GeoGEOS
import Parallelism
import PopulatedPlaces
import StageContract

/// The ingest stage: Natural Earth admin-0 units → one feature per country of the app's set,
/// with the app's ids and properties (CONTRACTS §1). Geometry is dissolved per country but
/// not yet repaired or simplified (that is the world stage's job).
public enum IngestStage: PipelineStage {
    public static let name = "ingest"

    public struct Options: DeclaredOptions {
        /// The Natural Earth admin-0 units (map units, or countries at 1:110m).
        public var input = "data/natural-earth/ne_10m_admin_0_map_units.geojson"
        /// Where `run` writes the country file.
        public var output = "build/ingest/countries.geojson"
        /// The folder of the curated tables and the populated places: setting it points every
        /// data path below at it (the command line applies --data-dir before the paths given
        /// one by one, which win).
        public var dataDir = "data" { didSet { pointDataPaths(at: dataDir) } }
        public var placesPath = ""
        /// The country set (one ISO code a line); nil with `allUnits`.
        public var countrySetPath: String?
        public var remapsPath = ""
        public var continentsPath = ""
        public var capitalsPath = ""
        public var namesPath = ""
        /// GeoNames' country table: the second source for capitals (and a name alias).
        public var geonamesPath: String?
        /// Where to write the populated places this stage read, compacted to what the stages
        /// use (`Places.encodeCompact`), so that later stages do not parse the 16 MB file again.
        public var placesOutput: String? = nil
        /// Other spellings of capitals and names (id, alias, reason).
        public var capitalAliasesPath: String?
        public var nameAliasesPath: String?
        /// Emit every unit with an ISO code instead of the country set.
        public var allUnits = false
        /// For codes of the set that `input` lacks (the 1:110m file has no microstates):
        /// take the unit's attributes from this file and place a Point at the capital.
        public var pointsFromPath: String?

        /// The repository's data files, as `make ingest` uses them.
        public init() { pointDataPaths(at: dataDir) }

        public static let declared: [StageOption<Options>] = [
            .argument("units", \.input, required: true, help: "Natural Earth admin-0 GeoJSON (map units or countries)."),
            .option("output", short: "o", \.output, help: "Output GeoJSON file."),
            .option("data-dir", \.dataDir, help: "Directory with the curated tables and the populated places (the paths below default to files in it)."),
            .option("places", \.placesPath, help: "Natural Earth populated places (capitals)."),
            .option("places-out", \.placesOutput,
                    help: "Also write the populated places, compacted to the fields the stages read (the highlights stage reads this instead of the 16 MB file)."),
            .option("country-set", \.countrySetPath, help: "The country set, one ISO code a line."),
            .option("capitals", \.capitalsPath, help: "The curated capitals (the truth; Natural Earth and GeoNames are its evidence)."),
            .option("capital-aliases", \.capitalAliasesPath, help: "Other spellings of capitals a player may type (id, alias, reason)."),
            .option("name-aliases", \.nameAliasesPath, help: "Other names of countries a player may type (id, alias, reason)."),
            .option("geonames", \.geonamesPath, help: "GeoNames' country table, the second source for capitals."),
            .flag("all-units", \.allUnits, help: "Emit every unit with an ISO code instead of the country set."),
            .option("points-from", \.pointsFromPath,
                    help: "For codes of the set that the input lacks, take attributes from this admin-0 file and make the country a Point at its capital (the 1:110m file has no microstates)."),
        ]

        public func validateRules() throws {
            guard !input.isEmpty else { throw OptionsError("the units file must be named") }
            guard !output.isEmpty else { throw OptionsError("--output must not be empty") }
        }
    }

    public struct Report: StageReport {
        public var output = ""
        public var countries = 0
        public var unitsRead = 0
        public var unitsUsed = 0
        /// Country id → the SU_A3 codes of the units dissolved into it (only where more than one).
        public var dissolved: [(id: String, units: [String])] = []
        /// Units folded into another id by the remap table: (SU_A3, id).
        public var remapped: [(unit: String, id: String)] = []
        /// Units skipped because they have no ISO code or are outside the country set.
        public var skipped: [String] = []
        /// Ids whose feature is a Point at the capital because the units file lacks them.
        public var pointsFromCapital: [String] = []
        /// Dissolves that fell back from coverage union to a general union, with the reason.
        public var unionFallbacks: [(id: String, reason: String)] = []
        public var warnings: [String] = []
        /// Capitals where Natural Earth's pick and GeoNames' differ and capitals.tsv decides.
        public var capitalsResolved: [String] = []
        /// Capitals where the sources differ and capitals.tsv has no row: for a person to decide.
        public var capitalDisagreements: [String] = []
        /// Capital aliases dropped because they are the country's own name (Kuwait for Kuwait City).
        public var droppedAliases: [String] = []
        public var vertices = 0

        public var summary: String {
            "\(unitsRead) units read, \(unitsUsed) used, \(remapped.count) remapped, \(skipped.count) skipped → \(countries) countries (\(dissolved.count) dissolved, \(pointsFromCapital.count) points), \(formatCount(vertices)) vertices; capitals: \(capitalsResolved.count) source disagreements decided by the table, \(capitalDisagreements.count) undecided → \(output)"
        }
    }

    /// Builds the country set and writes it to `o.output`.
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        var (features, report, places) = try buildWithPlaces(o, log: log)
        logDetails(report, log: log)
        try log.step("write \(o.output)") { try GeoJSON.write(features, to: o.output) }
        if let path = o.placesOutput {
            try log.step("write \(path)") { try FileIO.writeAtomically(places.encodeCompact(), to: path) }
        }
        report.output = o.output
        report.countries = features.count
        return report
    }

    /// The country set in memory, sorted by id, and what was done to make it.
    public static func build(_ o: Options, log: StageLog) throws -> (features: [Feature], report: Report) {
        let (features, report, _) = try buildWithPlaces(o, log: log)
        return (features, report)
    }

    /// `build`, also returning the populated places it read (for `placesOutput`).
    static func buildWithPlaces(_ o: Options, log: StageLog) throws -> (features: [Feature], report: Report, places: Places) {
        var report = Report()
        let tables = try readTables(o)
        // The populated places (16 MB, for the capitals) are parsed on a second core while the
        // units are read: two independent inputs on the stage's critical path (in turn when the
        // run has one thread, GEO_THREADS=1).
        let placesPath = o.placesPath
        let placesRead = Background(onThread: Parallel.defaultWorkers > 1) { try Places(path: placesPath) }
        let (groups, pointUnits) = try selectUnits(o, tables, report: &report, log: log)
        let places = try log.step("read \(o.placesPath)") { try placesRead.value() }
        // Attributes first (cheap, sequential, first error wins), then geometry in parallel.
        let jobs = try countryJobs(o, groups, pointUnits: pointUnits, tables, places: places, report: &report)
        try checkUnique(jobs.map { ($0.id, [$0.name] + $0.aliases) }, what: "name", tables: "\(o.namesPath), \(o.nameAliasesPath ?? "")", strict: !o.allUnits, report: &report)
        try checkUnique(jobs.compactMap { j in j.capital.map { (j.id, [$0.name] + j.capitalAliases) } }, what: "capital",
                        tables: "\(o.capitalsPath), \(o.capitalAliasesPath ?? "")", strict: !o.allUnits, report: &report)

        let dissolved = try log.step("dissolve \(jobs.count) countries") { try dissolve(jobs, file: o.input) }
        let out = countryFeatures(jobs, dissolved, report: &report)
        return (out, report, places)
    }
}

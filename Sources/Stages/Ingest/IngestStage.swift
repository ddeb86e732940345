import Foundation
import GeoModel
import GeoGEOS

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

        /// `units` with the repository's own data files under `dataDir`.
        public static func standard(dataDir: String = "data", units: String) -> Options {
            var o = Options()
            o.input = units
            o.dataDir = dataDir
            return o
        }

        mutating func pointDataPaths(at dir: String) {
            placesPath = "\(dir)/natural-earth/ne_10m_populated_places.geojson"
            countrySetPath = "\(dir)/app_country_codes.txt"
            remapsPath = "\(dir)/id_remaps.tsv"
            continentsPath = "\(dir)/continents.tsv"
            capitalsPath = "\(dir)/capitals.tsv"
            namesPath = "\(dir)/names.tsv"
            geonamesPath = "\(dir)/geonames/countries.tsv"
            capitalAliasesPath = "\(dir)/capital_aliases.tsv"
            nameAliasesPath = "\(dir)/name_aliases.tsv"
        }

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
        for (id, parts) in report.dissolved { log.info("dissolved \(id) from \(parts.joined(separator: "+"))") }
        for (id, reason) in report.unionFallbacks { log.info("\(id): coverage union not possible (\(reason)); used a general union") }
        if !report.pointsFromCapital.isEmpty {
            log.info("no polygon in the input, Point at the capital: \(report.pointsFromCapital.joined(separator: " "))")
        }
        for r in report.capitalsResolved { log.info("capital: \(r)") }
        for d in report.capitalDisagreements { log.info("warning: capital sources disagree: \(d)") }
        for d in report.droppedAliases { log.info("dropped: \(d)") }
        for w in report.warnings { log.info("warning: \(w)") }
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
        let remaps = try DataTables.loadTable(o.remapsPath, key: "su_a3", required: ["id", "reason"])
        let continents = try DataTables.loadTable(o.continentsPath, key: "id", required: ["continent", "reason"])
        let capitals = try DataTables.loadTable(o.capitalsPath, key: "id", required: ["capital", "reason"])
        let names = try DataTables.loadTable(o.namesPath, key: "id", required: ["name", "reason"])
        let geonames = try o.geonamesPath.map { try DataTables.loadTable($0, key: "iso", required: ["name"]) } ?? [:]
        let capitalAliases = try o.capitalAliasesPath.map { try loadAliases($0) } ?? [:]
        let nameAliases = try o.nameAliasesPath.map { try loadAliases($0) } ?? [:]
        for id in continents.keys.sorted() where !appContinents.contains(continents[id]!["continent"]!) {
            let row = continents[id]!
            throw InputError(file: o.continentsPath, "row \(id): \"\(row["continent"]!)\" is not one of the seven app continents")
        }
        var countrySet: [String]?
        if !o.allUnits, let path = o.countrySetPath { countrySet = try DataTables.loadCountrySet(path) }

        // The populated places (16 MB, for the capitals) are parsed on a second core while the
        // units are read: two independent inputs on the stage's critical path (in turn when the
        // run has one thread, GEO_THREADS=1).
        let placesPath = o.placesPath
        let placesRead = Background(onThread: Parallel.defaultWorkers > 1) { try Places(path: placesPath) }
        var readOptions = GeoJSON.ReadOptions()
        readOptions.nameKeys = ["NAME", "ADMIN", "name"]
        let features = try log.step("read \(o.input)") { try GeoJSON.read(path: o.input, options: readOptions) }
        report.unitsRead = features.count
        guard !features.isEmpty else { throw InputError(file: o.input, "the FeatureCollection has no features") }
        var units = try classify(features, file: o.input, remaps: remaps, report: &report)

        let wanted = countrySet.map(Set.init)
        units = units.filter { u in
            if let w = wanted, !w.contains(u.id) { report.skipped.append("\(u.suA3) (\(u.name)): \(u.id) is not in the country set"); return false }
            return true
        }
        report.unitsUsed = units.count
        var groups = Dictionary(grouping: units, by: \.id)

        // Codes of the set that no unit provides.
        var pointUnits: [String: Unit] = [:]
        if let set = countrySet {
            let missing = set.filter { groups[$0] == nil }
            if !missing.isEmpty {
                guard let fallback = o.pointsFromPath else {
                    throw InputError(file: o.input, "no unit provides \(missing.count == 1 ? "the code" : "the codes") \(missing.joined(separator: ", ")) of the country set \(o.countrySetPath ?? "")")
                }
                var fallbackReport = Report()  // the fallback file's own remaps and skips are not this run's
                let extra = try classify(try GeoJSON.read(path: fallback, options: readOptions), file: fallback, remaps: remaps, report: &fallbackReport)
                let byId = Dictionary(grouping: extra, by: \.id)
                for id in missing {
                    guard let us = byId[id], let largest = us.max(by: { ($0.area, $1.suA3) < ($1.area, $0.suA3) }) else {
                        throw InputError(file: fallback, "no unit provides the code \(id) of the country set (missing from \(o.input) too)")
                    }
                    pointUnits[id] = largest
                    groups[id] = [largest]
                }
            }
        }

        let places = try log.step("read \(o.placesPath)") { try placesRead.value() }

        // Attributes first (cheap, sequential, first error wins), then geometry in parallel.
        var jobs: [CountryJob] = []
        for id in groups.keys.sorted() {
            let group = groups[id]!.sorted { ($0.area, $1.suA3) > ($1.area, $0.suA3) }
            let main = group[0]
            // Units sharing an id must share a sovereign, unless the remap table folds them in.
            let native = group.filter { !$0.remapped }
            if let first = native.first, let other = native.first(where: { $0.sovA3 != first.sovA3 }) {
                throw InputError(file: o.input, feature: other.ref,
                                 "maps to \(id) like \(first.ref), but belongs to sovereign \(other.sovA3), not \(first.sovA3); add a row to \(o.remapsPath) if this is a dissolve")
            }
            if group.count > 1 { report.dissolved.append((id, group.map(\.suA3).sorted())) }
            let name = names[id]?["name"] ?? main.feature.string("NAME_LONG") ?? main.feature.string("NAME") ?? id
            let continent = try resolveContinent(id: id, main: main, continents: continents, file: o.input)
            let capital = try resolveCapital(id: id, table: capitals, places: places, tablePath: o.capitalsPath, strict: !o.allUnits,
                                             geonames: geonames[id])
            compareCapitals(id: id, name: name, table: capitals, places: places, geonames: geonames[id],
                            hasGeonames: o.geonamesPath != nil, report: &report, tablePath: o.capitalsPath)
            if capital == nil && capitals[id] == nil { report.warnings.append("\(id) (\(name)): no capital found; add a row to \(o.capitalsPath)") }
            if pointUnits[id] != nil && capital == nil {
                throw InputError(file: o.capitalsPath, "\(id) (\(name)) has no polygon in \(o.input) and no capital to place its point at")
            }
            // With a name override on a country of several units the largest unit is a part
            // (England), so only its ADMIN speaks for the whole country.
            let partNamed = names[id] != nil && group.filter { !$0.remapped }.count > 1
            var explicitNames = aliases(name: name, main: main, overridden: partNamed)
            if let g = geonames[id]?["name"], !g.isEmpty { explicitNames.append(g) }
            explicitNames += nameAliases[id, default: []]
            let nameAnswers = Answers.aliases(main: name, explicit: explicitNames)
            var capitalAnswers: [String] = []
            if let c = capital {
                let ownKeys = Set(([name] + nameAnswers).map(Answers.key))
                for a in Answers.aliases(main: c.name, explicit: (c.placeName.map { [$0] } ?? []) + capitalAliases[id, default: []]) {
                    if ownKeys.contains(Answers.key(a)) {
                        report.droppedAliases.append("\(id): capital alias \"\(a)\" is the country's name, so it would give the answer away")
                    } else {
                        capitalAnswers.append(a)
                    }
                }
            }
            jobs.append(CountryJob(id: id, group: group, name: name, continent: continent, capital: capital, isPoint: pointUnits[id] != nil,
                            aliases: nameAnswers, capitalAliases: capitalAnswers))
        }

        try checkUnique(jobs.map { ($0.id, [$0.name] + $0.aliases) }, what: "name", tables: "\(o.namesPath), \(o.nameAliasesPath ?? "")", strict: !o.allUnits, report: &report)
        try checkUnique(jobs.compactMap { j in j.capital.map { (j.id, [$0.name] + j.capitalAliases) } }, what: "capital",
                        tables: "\(o.capitalsPath), \(o.capitalAliasesPath ?? "")", strict: !o.allUnits, report: &report)

        let dissolved = try log.step("dissolve \(jobs.count) countries") { try dissolve(jobs, file: o.input) }
        let out = countryFeatures(jobs, dissolved, report: &report)
        return (out, report, places)
    }
}

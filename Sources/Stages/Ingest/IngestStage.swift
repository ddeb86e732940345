import Foundation
import GeoModel
import GeoGEOS

/// The ingest stage: Natural Earth admin-0 units → one feature per country of the app's set,
/// with the app's ids and properties (CONTRACTS §1). Geometry is dissolved per country but
/// not yet repaired or simplified (that is the world stage's job).
public enum IngestStage: PipelineStage {
    public static let name = "ingest"

    public struct Options: StageOptions {
        public var unitsPath: String
        /// Where `run` writes the country file.
        public var output = "build/ingest/countries.geojson"
        public var placesPath: String
        /// The country set (one ISO code a line); nil with `allUnits`.
        public var countrySetPath: String?
        public var remapsPath: String
        public var continentsPath: String
        public var capitalsPath: String
        public var namesPath: String
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
        /// For codes of the set that `unitsPath` lacks (the 1:110m file has no microstates):
        /// take the unit's attributes from this file and place a Point at the capital.
        public var pointsFromPath: String?

        public init(unitsPath: String, placesPath: String, countrySetPath: String?, remapsPath: String,
                    continentsPath: String, capitalsPath: String, namesPath: String) {
            self.unitsPath = unitsPath; self.placesPath = placesPath; self.countrySetPath = countrySetPath
            self.remapsPath = remapsPath; self.continentsPath = continentsPath
            self.capitalsPath = capitalsPath; self.namesPath = namesPath
        }

        /// The repository's own data files under `dataDir`.
        public static func standard(dataDir: String = "data", units: String) -> Options {
            var o = Options(unitsPath: units,
                    placesPath: "\(dataDir)/natural-earth/ne_10m_populated_places.geojson",
                    countrySetPath: "\(dataDir)/app_country_codes.txt",
                    remapsPath: "\(dataDir)/id_remaps.tsv",
                    continentsPath: "\(dataDir)/continents.tsv",
                    capitalsPath: "\(dataDir)/capitals.tsv",
                    namesPath: "\(dataDir)/names.tsv")
            o.geonamesPath = "\(dataDir)/geonames/countries.tsv"
            o.capitalAliasesPath = "\(dataDir)/capital_aliases.tsv"
            o.nameAliasesPath = "\(dataDir)/name_aliases.tsv"
            return o
        }

        /// The repository's data files, as `make ingest` uses them.
        public init() { self = .standard(units: "data/natural-earth/ne_10m_admin_0_map_units.geojson") }

        public func validate() throws {
            guard !unitsPath.isEmpty else { throw OptionsError("the units file must be named") }
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

    static let appContinents: Set<String> = ["Africa", "Asia", "Europe", "North America", "South America", "Oceania", "Antarctica"]
    static let aliasFields = ["NAME", "NAME_LONG", "ADMIN", "BRK_NAME", "NAME_ALT", "FORMAL_EN", "NAME_EN", "NAME_SORT", "NAME_CIAWF"]

    struct Unit {
        var index: Int
        var feature: Feature
        var suA3: String
        var sovA3: String
        var id: String
        var remapped: Bool
        var area: Double  // planar, square degrees: only to pick the largest unit
        var name: String { feature.string("NAME") ?? suA3 }
        var ref: FeatureRef { FeatureRef(index: index, name: feature.string("NAME"), id: suA3) }
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

        var readOptions = GeoJSON.ReadOptions()
        readOptions.nameKeys = ["NAME", "ADMIN", "name"]
        let features = try log.step("read \(o.unitsPath)") { try GeoJSON.read(path: o.unitsPath, options: readOptions) }
        report.unitsRead = features.count
        guard !features.isEmpty else { throw InputError(file: o.unitsPath, "the FeatureCollection has no features") }
        var units = try classify(features, file: o.unitsPath, remaps: remaps, report: &report)

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
                    throw InputError(file: o.unitsPath, "no unit provides \(missing.count == 1 ? "the code" : "the codes") \(missing.joined(separator: ", ")) of the country set \(o.countrySetPath ?? "")")
                }
                var fallbackReport = Report()  // the fallback file's own remaps and skips are not this run's
                let extra = try classify(try GeoJSON.read(path: fallback, options: readOptions), file: fallback, remaps: remaps, report: &fallbackReport)
                let byId = Dictionary(grouping: extra, by: \.id)
                for id in missing {
                    guard let us = byId[id], let largest = us.max(by: { ($0.area, $1.suA3) < ($1.area, $0.suA3) }) else {
                        throw InputError(file: fallback, "no unit provides the code \(id) of the country set (missing from \(o.unitsPath) too)")
                    }
                    pointUnits[id] = largest
                    groups[id] = [largest]
                }
            }
        }

        let places = try log.step("read \(o.placesPath)") { try Places(path: o.placesPath) }

        // Attributes first (cheap, sequential, first error wins), then geometry in parallel.
        struct Job { var id: String; var group: [Unit]; var name: String; var continent: String; var capital: Capital?; var isPoint: Bool
                     var aliases: [String]; var capitalAliases: [String] }
        var jobs: [Job] = []
        for id in groups.keys.sorted() {
            let group = groups[id]!.sorted { ($0.area, $1.suA3) > ($1.area, $0.suA3) }
            let main = group[0]
            // Units sharing an id must share a sovereign, unless the remap table folds them in.
            let native = group.filter { !$0.remapped }
            if let first = native.first, let other = native.first(where: { $0.sovA3 != first.sovA3 }) {
                throw InputError(file: o.unitsPath, feature: other.ref,
                                 "maps to \(id) like \(first.ref), but belongs to sovereign \(other.sovA3), not \(first.sovA3); add a row to \(o.remapsPath) if this is a dissolve")
            }
            if group.count > 1 { report.dissolved.append((id, group.map(\.suA3).sorted())) }
            let name = names[id]?["name"] ?? main.feature.string("NAME_LONG") ?? main.feature.string("NAME") ?? id
            let continent = try resolveContinent(id: id, main: main, continents: continents, file: o.unitsPath)
            let capital = try resolveCapital(id: id, table: capitals, places: places, tablePath: o.capitalsPath, strict: !o.allUnits,
                                             geonames: geonames[id])
            compareCapitals(id: id, name: name, table: capitals, places: places, geonames: geonames[id],
                            hasGeonames: o.geonamesPath != nil, report: &report, tablePath: o.capitalsPath)
            if capital == nil && capitals[id] == nil { report.warnings.append("\(id) (\(name)): no capital found; add a row to \(o.capitalsPath)") }
            if pointUnits[id] != nil && capital == nil {
                throw InputError(file: o.capitalsPath, "\(id) (\(name)) has no polygon in \(o.unitsPath) and no capital to place its point at")
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
            jobs.append(Job(id: id, group: group, name: name, continent: continent, capital: capital, isPoint: pointUnits[id] != nil,
                            aliases: nameAnswers, capitalAliases: capitalAnswers))
        }

        try checkUnique(jobs.map { ($0.id, [$0.name] + $0.aliases) }, what: "name", tables: "\(o.namesPath), \(o.nameAliasesPath ?? "")", strict: !o.allUnits, report: &report)
        try checkUnique(jobs.compactMap { j in j.capital.map { (j.id, [$0.name] + j.capitalAliases) } }, what: "capital",
                        tables: "\(o.capitalsPath), \(o.capitalAliasesPath ?? "")", strict: !o.allUnits, report: &report)

        let dissolved = try log.step("dissolve \(jobs.count) countries") {
            try Parallel.map(jobs, makeState: { GEOSContext() }) { job, geos -> (Geometry, String?) in
                if job.isPoint { return (.point(job.capital!.position), nil) }
                do {
                    return try dissolve(job.group, id: job.id, geos: geos, file: o.unitsPath)
                } catch let e as GEOSError {
                    throw InputError(file: o.unitsPath, feature: job.group[0].ref, "dissolving \(job.id) (\(job.name)): \(e)")
                }
            }
        }

        var out: [Feature] = []
        for (job, (geometry, fallback)) in zip(jobs, dissolved) {
            if let reason = fallback { report.unionFallbacks.append((job.id, reason)) }
            if job.isPoint { report.pointsFromCapital.append(job.id) }
            var props = JSONObject()
            props["name"] = .string(job.name)
            props["continent"] = .string(job.continent)
            if let c = job.capital {
                props["capital"] = .string(c.name)
                props["capitalLat"] = .number(c.position.y)
                props["capitalLon"] = .number(c.position.x)
                props["capitalAliases"] = .array(job.capitalAliases.map { .string($0) })
            }
            props["aliases"] = .array(job.aliases.map { .string($0) })
            props["neUnits"] = .array(job.group.map(\.suA3).sorted().map { .string($0) })
            out.append(Feature(id: job.id, properties: props, geometry: geometry))
            report.vertices += geometry.vertexCount
        }
        return (out, report, places)
    }

    // MARK: steps

    static func classify(_ features: [Feature], file: String, remaps: [String: [String: String]], report: inout Report) throws -> [Unit] {
        var seen: [String: Int] = [:]
        var units: [Unit] = []
        for (i, f) in features.enumerated() {
            let label = FeatureRef(index: i, name: f.string("NAME"))
            guard let su = f.string("SU_A3"), !su.isEmpty else {
                throw InputError(file: file, feature: label, "has no SU_A3 property (is this a Natural Earth admin-0 file?)")
            }
            if let prev = seen[su] {
                throw InputError(file: file, feature: label, "repeats SU_A3 \(su) of feature #\(prev): the same unit twice")
            }
            seen[su] = i
            if case .point = f.geometry {
                throw InputError(file: file, feature: label, "is a Point; admin-0 units are Polygon or MultiPolygon")
            }
            if let jump = CountryFile.antimeridianJump(f.geometry) { throw InputError(file: file, feature: label, jump) }
            var id: String
            var remapped = false
            if let row = remaps[su] {
                id = row["id"]!; remapped = true
                report.remapped.append((su, id))
            } else {
                guard let iso = f.string("ISO_A2_EH") else {
                    throw InputError(file: file, feature: label, "has no ISO_A2_EH string property")
                }
                if iso == "-99" { report.skipped.append("\(su) (\(f.string("NAME") ?? "?")): no ISO code"); continue }
                id = iso
            }
            guard CountryID.isValid(id) else {
                throw InputError(file: file, feature: label, "ISO code \"\(id)\" is not two upper-case letters")
            }
            let area = f.geometry.polygons.reduce(0.0) { $0 + abs(RingMath.signedArea($1.exterior)) }
            units.append(Unit(index: i, feature: f, suA3: su, sovA3: f.string("SOV_A3") ?? "", id: id, remapped: remapped, area: area))
        }
        return units
    }


    /// Dissolves the units of one country. Only polygons that can touch a polygon of another
    /// unit (overlapping bounding boxes) are merged, each such cluster by GEOS coverage union,
    /// or by a general union where the units do not meet edge to edge; every other polygon
    /// (islands, Svalbard, the US minor islands) is taken as it is. Returns the geometry and,
    /// for a fallback, the reason.
    static func dissolve(_ group: [Unit], id: String, geos: GEOSContext, file: String) throws -> (Geometry, String?) {
        var fallback: String?
        var polygons: [Polygon] = []
        for cluster in touchingClusters(group) {
            if cluster.count == 1 { polygons.append(cluster[0]); continue }
            let parts = try cluster.map { try geos.polygon($0) }
            do {
                let merged = try geos.coverageUnion(parts)
                guard try merged.isValid() else { throw StageError(merged.validityReason()) }
                polygons += try merged.polygons()
            } catch {
                fallback = "\(error)"
                let repaired = try cluster.map { p -> GEOSGeometry in
                    let g = try geos.polygon(p)
                    return try g.isValid() ? g : try g.makeValid()
                }
                polygons += try geos.unaryUnion(repaired).polygons()
            }
        }
        guard !polygons.isEmpty else { throw InputError(file: file, feature: group[0].ref, "dissolving \(id) left no polygon") }
        return (Geometry.areal(polygons.map(RingMath.orientedForRFC7946)), fallback)
    }

    /// The group's polygons in clusters: polygons of different units whose bounding boxes
    /// overlap end up in one cluster. Order follows the units' order, then the polygons'.
    static func touchingClusters(_ units: [Unit]) -> [[Polygon]] {
        var polys: [Polygon] = [], owner: [Int] = [], boxes: [BoundingBox] = []
        for (u, unit) in units.enumerated() {
            for p in unit.feature.geometry.polygons {
                polys.append(p); owner.append(u)
                boxes.append(Geometry.polygon(Polygon(rings: [p.exterior])).boundingBox ?? .empty)
            }
        }
        var parent = Array(polys.indices)
        func find(_ i: Int) -> Int { var i = i; while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }; return i }
        if units.count > 1 {
            for i in polys.indices {
                for j in (i + 1)..<polys.count where owner[j] != owner[i] && boxes[i].intersects(boxes[j]) {
                    let a = find(i), b = find(j)
                    if a != b { parent[max(a, b)] = min(a, b) }
                }
            }
        }
        var order: [Int] = []
        var members: [Int: [Polygon]] = [:]
        for i in polys.indices {
            let r = find(i)
            if members[r] == nil { order.append(r) }
            members[r, default: []].append(polys[i])
        }
        return order.map { members[$0]! }
    }

    static func resolveContinent(id: String, main: Unit, continents: [String: [String: String]], file: String) throws -> String {
        if let c = continents[id]?["continent"] { return c }
        let c = main.feature.string("CONTINENT") ?? ""
        guard appContinents.contains(c) else {
            throw InputError(file: file, feature: main.ref, "CONTINENT \"\(c)\" is not one of the seven app continents; add \(id) to data/continents.tsv")
        }
        return c
    }

    struct Capital {
        var name: String
        var position: Point
        /// The Natural Earth place that locates it, where NE writes it differently (Kiev for Kyiv).
        var placeName: String? = nil
    }

    static func resolveCapital(id: String, table: [String: [String: String]], places: Places, tablePath: String, strict: Bool,
                               geonames: [String: String]? = nil) throws -> Capital? {
        if let row = table[id] {
            let name = row["capital"]!
            if name == "-" { return nil }
            let place = (row["place"] ?? "").isEmpty ? name : row["place"]!
            let placeName = place == name ? nil : place
            if let lat = Double(row["lat"] ?? ""), let lon = Double(row["lon"] ?? "") {
                guard abs(lat) <= 90, abs(lon) <= 180 else { throw InputError(file: tablePath, "row \(id): position \(lat), \(lon) is out of range") }
                return Capital(name: name, position: Point(lon, lat), placeName: placeName)
            }
            let inCountry = places.byISO[id, default: []].filter { $0.name == place }
            if inCountry.count == 1 { return Capital(name: name, position: inCountry[0].position, placeName: placeName) }
            let anywhere = places.all.filter { $0.name == place }
            if inCountry.isEmpty && anywhere.count == 1 { return Capital(name: name, position: anywhere[0].position, placeName: placeName) }
            // GeoNames locates the capital when it names the same one.
            if inCountry.isEmpty && anywhere.isEmpty, let g = geonames, Answers.key(g["capital"] ?? "") == Answers.key(name),
               let lat = Double(g["capitalLat"] ?? ""), let lon = Double(g["capitalLon"] ?? "") {
                return Capital(name: name, position: Point(lon, lat))
            }
            throw InputError(file: tablePath, "row \(id): \(inCountry.count + anywhere.count == 0 ? "no populated place is named" : "several populated places are named") \"\(place)\"; give lat and lon")
        }
        let inCountry = places.byISO[id, default: []]
        for cls in ["Admin-0 capital", "Admin-0 region capital"] {
            let found = inCountry.filter { $0.featureClass == cls }
            if found.count == 1 { return Capital(name: found[0].name, position: found[0].position) }
            if found.count > 1 {
                if !strict { return Capital(name: found[0].name, position: found[0].position) }
                throw InputError(file: places.path, "\(id) has \(found.count) places of class \"\(cls)\" (\(found.map(\.name).joined(separator: ", "))); choose one in \(tablePath)")
            }
        }
        if strict { throw InputError(file: places.path, "no capital found for \(id); add a row to \(tablePath)") }
        return nil
    }

    /// Natural Earth's own candidates without the table: its Admin-0 capitals, else its Admin-0
    /// region capitals (one name is a pick; none or several are not).
    static func naturalEarthCapitals(id: String, places: Places) -> [String] {
        let inCountry = places.byISO[id, default: []]
        for cls in ["Admin-0 capital", "Admin-0 region capital"] {
            let found = inCountry.filter { $0.featureClass == cls }
            if !found.isEmpty { return found.map(\.name) }
        }
        return []
    }

    /// Compares the two sources for one country: a row of capitals.tsv resolves a disagreement;
    /// without one the disagreement goes to the report for a person to decide.
    static func compareCapitals(id: String, name: String, table: [String: [String: String]], places: Places,
                                geonames: [String: String]?, hasGeonames: Bool, report: inout Report, tablePath: String) {
        guard hasGeonames else { return }
        let ne = naturalEarthCapitals(id: id, places: places)
        let gn = (geonames?["capital"]).flatMap { $0.isEmpty ? nil : $0 }
        if ne.count == 1, let b = gn, Answers.key(ne[0]) == Answers.key(b) { return }
        if ne.isEmpty && gn == nil { return }
        let neText = ne.isEmpty ? "has none" : ne.count == 1 ? "\"\(ne[0])\"" : "has several (\(ne.joined(separator: ", ")))"
        let text = "\(id) (\(name)): Natural Earth \(neText), GeoNames \(gn.map { "\"\($0)\"" } ?? (geonames == nil ? "has no such country" : "has none"))"
        if let row = table[id] {
            report.capitalsResolved.append("\(text) → \(tablePath): \"\(row["capital"]!)\"")
        } else {
            report.capitalDisagreements.append("\(text); no row in \(tablePath) decides")
        }
    }

    /// No answer of one country may equal (by `Answers.key`) an answer of another.
    static func checkUnique(_ answers: [(id: String, answers: [String])], what: String, tables: String, strict: Bool, report: inout Report) throws {
        var owner: [String: (id: String, text: String)] = [:]
        for (id, list) in answers {
            for a in list {
                let k = Answers.key(a)
                if let o = owner[k], o.id != id {
                    let msg = "\(what) answer \"\(a)\" of \(id) equals \"\(o.text)\" of \(o.id) (ignoring case, diacritics, hyphens, dots and Saint/St.); a guess could not tell them apart: fix \(tables)"
                    if strict { throw StageError(msg) }
                    report.warnings.append(msg)
                } else if owner[k] == nil {
                    owner[k] = (id, a)
                }
            }
        }
    }

    /// An alias table: id → its aliases in file order (several rows per id).
    public static func loadAliases(_ path: String) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for (n, row) in try FileIO.readTSV(path).enumerated() {
            guard let id = row["id"], !id.isEmpty else { throw InputError(file: path, "row \(n + 1) has no id") }
            for col in ["alias", "reason"] where (row[col] ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                throw InputError(file: path, "row \(n + 1) (\(id)) has no \(col)")
            }
            let a = row["alias"]!
            guard a == a.trimmingCharacters(in: .whitespaces) else { throw InputError(file: path, "row \(n + 1) (\(id)): alias \"\(a)\" has leading or trailing white space") }
            if out[id, default: []].contains(where: { $0.lowercased() == a.lowercased() }) {
                throw InputError(file: path, "row \(n + 1) (\(id)): alias \"\(a)\" appears twice")
            }
            out[id, default: []].append(a)
        }
        return out
    }

    static func aliases(name: String, main: Unit, overridden: Bool) -> [String] {
        // A name override means the largest unit is a part (England), so its own names are not the country's.
        let fields = overridden ? ["ADMIN"] : aliasFields
        var seen: Set<String> = [name.lowercased()]
        var out: [String] = []
        for f in fields {
            // ADMIN names the whole admin-0 country; on a map unit of another (French Guiana's is France) it is not an alias.
            if f == "ADMIN" && main.feature.string("ADM0_A3") != main.suA3 && !overridden { continue }
            guard let v = main.feature.string(f)?.trimmingCharacters(in: .whitespaces), !v.isEmpty else { continue }
            if seen.insert(v.lowercased()).inserted { out.append(v) }
        }
        return out
    }
}

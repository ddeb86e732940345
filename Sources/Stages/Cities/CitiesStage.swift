// The cities stage (issue #15): GeoNames' cities of 15,000 people or more, each placed in the
// app country whose polygon in world.geojson holds it, written as the city-ranking app's
// Supabase tables (CONTRACTS §7): a migration with search and row-level security, and an
// idempotent seed that never drops a city a user points at.

import CitiesSchema
import Foundation
import GeoModel
import GeoGEOS

public enum CitiesStage: PipelineStage {
    public static let name = "cities"

    public struct Options: DeclaredOptions {
        /// GeoNames cities (data/geonames/cities15000.tsv).
        public var cities = "data/geonames/cities15000.tsv"
        /// (country, admin-1 code) → name.
        public var admin1 = "data/geonames/admin1_names.tsv"
        /// GeoNames' country table: id and population per ISO code.
        public var countryTable = "data/geonames/country_population.tsv"
        /// Territories the app does not draw → their sovereign country (curated). Empty: none.
        public var territories = "data/territories.tsv"
        /// The app's country set and polygons.
        public var world = "dist/world.geojson"
        /// Gets migrations/<timestamp>_cities.sql and seed.sql.
        public var outputDir = "dist/supabase/cities"
        /// Per-city disagreements and the summary counts (tab-separated).
        public var report = "build/cities/report.tsv"
        /// Another country's polygon holds the city, but GeoNames' country is this close (km):
        /// a simplified border, GeoNames' country is kept.
        public var borderToleranceKm = 10.0
        /// No polygon holds the city: the nearest within this distance (km) takes it.
        public var coastalToleranceKm = 30.0
        /// A city GeoNames puts in a point country belongs to it within this distance (km) of its point.
        public var pointRadiusKm = 50.0
        public init() {}

        public static let declared: [StageOption<Options>] = [
            .option("cities", \.cities, help: "GeoNames cities (tab-separated, see data/README.md)."),
            .option("admin1", \.admin1, help: "Admin-1 names by country and code."),
            .option("country-table", \.countryTable, help: "GeoNames' country table (id and population per ISO code)."),
            .option("territories", \.territories, help: "Territories the app does not draw and their sovereign country (tab-separated; empty: none)."),
            .option("world", \.world, help: "The country set: world.geojson."),
            .option("output-dir", short: "o", aliases: ["out-dir"], \.outputDir, help: "Directory for migrations/ and seed.sql."),
            .option("report", \.report, help: "Where to write the disagreement report (tab-separated)."),
            .option("border-tolerance", \.borderToleranceKm, .within(0...1000),
                    help: "Keep GeoNames' country when its polygon is this close (km) to a city inside another's."),
            .option("coastal-tolerance", \.coastalToleranceKm, .within(0...1000), help: "A city in no polygon goes to a country this close (km)."),
            .option("point-radius", \.pointRadiusKm, .within(0...1000),
                    help: "A city GeoNames puts in a point country stays in it within this distance (km) of its point."),
        ]

        public func validateRules() throws {
            for (name, v) in [("--cities", cities), ("--admin1", admin1), ("--country-table", countryTable), ("--world", world), ("--output-dir", outputDir), ("--report", report)] {
                guard !v.isEmpty else { throw OptionsError("\(name) must not be empty") }
            }
        }
    }

    public struct Report: StageReport {
        public var countries = 0
        public var cities = 0
        public var byContinent: [String: Int] = [:]
        public var withoutAdmin = 0
        public var byResolution: [Resolution: Int] = [:]
        public var seedBytes = 0
        public var outputDir = ""

        public var disagreements: Int { byResolution.filter { $0.key != .agree }.values.reduce(0, +) }

        public var summary: String {
            let continents = byContinent.sorted { $0.key < $1.key }.map { "\($0.key) \(formatCount($0.value))" }.joined(separator: ", ")
            let kinds = byResolution.filter { $0.key != .agree }.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
            return "\(formatCount(cities)) cities in \(countries) countries (\(continents)); \(formatCount(withoutAdmin)) without admin name; "
                + "\(formatCount(disagreements)) country disagreements (\(kinds.isEmpty ? "none" : kinds)) → \(outputDir) (seed \(formatCount(seedBytes)) bytes)"
        }
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        let source = try log.step("read \(o.cities)") { try readCities(o.cities) }
        let admin1 = try readAdmin1(o.admin1)
        let table = try readCountries(o.countryTable)
        let world = try log.step("read \(o.world)") { try CountryFile.read(path: o.world) }
        let locator = try log.step("prepare \(world.count) countries") { try CountryLocator(world: world, file: o.world) }
        var territories: [String: Territory] = [:]
        if !o.territories.isEmpty {
            let t = try readTerritories(o.territories, appCountries: Set(locator.index.keys))
            territories = t.territories
            if !t.unused.isEmpty { log.info("\(o.territories): \(t.unused.count) rows do not apply to this country set (\(t.unused.joined(separator: " ")))") }
        }

        // Countries: the app's set, with GeoNames' id (the table's id) and population.
        var countryRows: [CountryRow] = []
        for c in locator.countries {
            guard let t = table[c.code] else {
                throw InputError(file: o.countryTable, "has no row for \(c.code) (\(c.name)), a country of \(o.world)")
            }
            countryRows.append(CountryRow(id: t.geonameID, name: c.name, code: c.code, capital: c.capital, continent: c.continent, population: t.population))
        }
        var seenIDs: [Int64: String] = [:]
        for r in countryRows {
            if let other = seenIDs[r.id] { throw InputError(file: o.countryTable, "\(r.code) and \(other) share the GeoNames id \(r.id)") }
            seenIDs[r.id] = r.code
        }

        let tolerances = Tolerances(borderKm: o.borderToleranceKm, coastalKm: o.coastalToleranceKm, pointRadiusKm: o.pointRadiusKm)
        let placements = try log.step("place \(formatCount(source.count)) cities") {
            try source.map { city in
                try forFeature(file: o.cities, FeatureRef(index: nil, name: city.name, id: String(city.id))) {
                    try locator.place(city, tolerances, territories: territories)
                }
            }
        }

        var report = Report()
        report.countries = countryRows.count
        report.outputDir = o.outputDir
        var cityRows: [CityRow] = []
        cityRows.reserveCapacity(source.count)
        var reportLines: [String] = []
        for (city, placement) in zip(source, placements) {
            report.byResolution[placement.resolution, default: 0] += 1
            if placement.resolution != .agree {
                let app = placement.country.map { locator.countries[$0].code } ?? ""
                reportLines.append([placement.resolution.rawValue, String(city.id), tsvField(city.name), city.countryCode, placement.polygon ?? "",
                                    app, placement.km.map { String(format: "%.1f", $0) } ?? ""].joined(separator: "\t"))
            }
            guard let ci = placement.country else { continue }
            let country = locator.countries[ci]
            let admin = placement.admin ?? admin1[city.countryCode + "\t" + city.admin1Code]
            if admin == nil { report.withoutAdmin += 1 }
            report.byContinent[country.continent, default: 0] += 1
            cityRows.append(CityRow(id: city.id, displayName: displayName(city: city.name, admin: admin, country: country.name),
                                    plainName: plainName(city.name), admin: admin, country: country.name,
                                    countryID: countryRows[ci].id, population: city.population,
                                    latitude: city.latitude, longitude: city.longitude, altNames: city.alternateNames))
        }
        report.cities = cityRows.count

        let header = [
            "Cities for the city-ranking app (CONTRACTS §7), written by geo-cities: load after migrations/\(CitiesSchema.migrationName).",
            CitiesSchema.attribution,
            "\(cityRows.count) cities of \(source.count) in \(o.cities), \(countryRows.count) countries of \(o.world).",
            "Idempotent: a reload with nothing changed rewrites no row; cities that left the source are marked (retired_at), never deleted.",
        ]
        let seedText = try log.step("write seed") { try seed(countries: countryRows, cities: cityRows, header: header) }
        report.seedBytes = seedText.utf8.count

        var reportText = "# geo-cities report: one line per city whose country the polygons and GeoNames disagree on, and how it was resolved\n"
        reportText += "# \(CitiesSchema.attribution)\n"
        for (k, n) in report.byResolution.sorted(by: { $0.key < $1.key }) { reportText += "# resolution \(k.rawValue): \(n)\n" }
        for (k, n) in report.byContinent.sorted(by: { $0.key < $1.key }) { reportText += "# continent \(k): \(n)\n" }
        reportText += "# cities without admin name: \(report.withoutAdmin)\n"
        reportText += "resolution\tgeonameid\tname\tgeonames_country\tpolygon_country\tapp_country\tkm\n"
        reportText += reportLines.sorted().joined(separator: "\n") + (reportLines.isEmpty ? "" : "\n")

        // The seed last: make takes it for the stage's target, so it is only fresh when all is written.
        try FileIO.writeAtomically(reportText, to: o.report)
        try FileIO.writeAtomically(CitiesSchema.migration + "\n", to: o.outputDir + "/migrations/" + CitiesSchema.migrationName)
        try FileIO.writeAtomically(seedText, to: o.outputDir + "/seed.sql")
        let kinds = report.byResolution.filter { $0.key != .agree }.sorted { $0.key < $1.key }
        for (k, n) in kinds { log.info("\(k.rawValue): \(n)") }
        return report
    }

    // MARK: names

    /// "City, Admin, Country" without repeated parts: the admin is left out when it is the
    /// country's name, the country when the city is the country ("Singapore"). A state that
    /// shares its city's name stays ("São Paulo, São Paulo, Brazil").
    public static func displayName(city: String, admin: String?, country: String) -> String {
        var parts = [city]
        if let a = admin, !a.isEmpty, a != country { parts.append(a) }
        if !(parts.count == 1 && city == country) { parts.append(country) }
        return parts.joined(separator: ", ")
    }

    /// The name without diacritics: combining marks removed after canonical decomposition, and
    /// the Latin letters with a stroke or bar (which do not decompose) given their base letter.
    public static func plainName(_ name: String) -> String {
        // ASCII has no combining marks, no decompositions and none of the stroked letters: an
        // ASCII name is its own plain form (CitiesTests checks this against the Unicode path
        // for every ASCII name of the source). Foundation's normalisation on Linux costs some
        // 24,000 instructions a name; it was a fifth of the stage.
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name }
        return plainNameByUnicode(name)
    }

    /// The general path: canonical decomposition, marks dropped, strokes mapped, recomposed.
    static func plainNameByUnicode(_ name: String) -> String {
        var out = String.UnicodeScalarView()
        for s in name.decomposedStringWithCanonicalMapping.unicodeScalars {
            switch s.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark: continue
            default: break
            }
            if let base = strokes[s] { out.append(contentsOf: base.unicodeScalars) } else { out.append(s) }
        }
        return String(out).precomposedStringWithCanonicalMapping
    }

    static let strokes: [Unicode.Scalar: String] = [
        "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ħ": "h", "Ħ": "H",
        "ı": "i", "ŧ": "t", "Ŧ": "T", "ƀ": "b", "ɨ": "i", "ʉ": "u", "ƶ": "z", "Ƶ": "Z",
    ]

    /// A report field: tabs and line breaks would break the row.
    static func tsvField(_ s: String) -> String {
        String(s.unicodeScalars.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }
}

// The cities stage (issue #15): GeoNames' cities of 15,000 people or more, each placed in the
// app country whose polygon in world.geojson holds it, written as the city-ranking app's
// Supabase tables (CONTRACTS §7): a migration with search and row-level security, and an
// idempotent seed that never drops a city a user points at.

import CitiesSchema
import Foundation
import GeoModel
import GeoGEOS
import StageContract

public enum CitiesStage: PipelineStage {
    public static let name = "cities"

    public struct Options: DeclaredOptions {
        /// GeoNames cities (data/geonames/cities15000.tsv).
        public var cities = "data/geonames/cities15000.tsv"
        /// (country, admin-1 code) → name.
        public var admin1 = "data/geonames/admin1_names.tsv"
        /// The other names of a city people use (scripts/data/geonames_common_names.py). Empty: none.
        public var commonNames = "data/geonames/common_names.tsv"
        /// The city's names in other scripts, per GeoNames id (scripts/data/geonames_cities.py). Empty: none.
        public var scriptNames = "data/geonames/script_names.tsv"
        /// ISO 3166-2 codes of first-level divisions (scripts/data/region_codes.py). Empty: none.
        public var regionCodes = "data/region_codes.tsv"
        /// GeoNames' country table: id and population per ISO code.
        public var countryTable = "data/geonames/country_population.tsv"
        /// Territories the app does not draw → their sovereign country (curated). Empty: none.
        public var territories = "data/territories.tsv"
        /// The app's country set and polygons.
        public var world = "dist/world.geojson"
        /// Gets migrations/<timestamp>_*.sql (CitiesSchema.migrations) and seed.sql.
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
        /// Entries of the same name in the same division this close (km) are one place: the
        /// search offers the most populous, the seed keeps both.
        public var duplicateKm = 10.0
        public init() {}

        public static let declared: [StageOption<Options>] = [
            .option("cities", \.cities, help: "GeoNames cities (tab-separated, see data/README.md)."),
            .option("admin1", \.admin1, help: "Admin-1 names by country and code."),
            .option("common-names", \.commonNames, help: "The other names people use, per GeoNames id (tab-separated; empty: none)."),
            .option("script-names", \.scriptNames, help: "The names in other scripts, per GeoNames id (tab-separated; empty: none)."),
            .option("region-codes", \.regionCodes, help: "ISO 3166-2 codes of first-level divisions (tab-separated; empty: none)."),
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
            .option("duplicate-km", \.duplicateKm, .within(0...100),
                    help: "Entries of the same name in the same division this close (km) are one place, offered once by the search."),
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
        public var codeNamesDropped = 0
        public var withCommonNames = 0
        public var duplicates = 0
        public var scriptNames = 0
        public var abbreviations = 0
        public var qualifiers = 0
        public var seedBytes = 0
        public var outputDir = ""

        public var disagreements: Int { byResolution.filter { $0.key != .agree }.values.reduce(0, +) }

        public var summary: String {
            let continents = byContinent.sorted { $0.key < $1.key }.map { "\($0.key) \(formatCount($0.value))" }.joined(separator: ", ")
            let kinds = byResolution.filter { $0.key != .agree }.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
            return "\(formatCount(cities)) cities in \(countries) countries (\(continents)); \(formatCount(withoutAdmin)) without admin name; "
                + "\(formatCount(disagreements)) country disagreements (\(kinds.isEmpty ? "none" : kinds)); search: \(formatCount(codeNamesDropped)) code-like other names dropped, "
                + "\(formatCount(withCommonNames)) cities with common other names, \(formatCount(scriptNames)) names in other scripts, \(formatCount(abbreviations)) abbreviations, "
                + "\(formatCount(qualifiers)) qualifiers, \(formatCount(duplicates)) duplicate entries offered once → \(outputDir) (seed \(formatCount(seedBytes)) bytes)"
        }
    }

    /// Reads the sources, places every city in an app country and writes the migrations, the
    /// seed and the report (steps in Steps/).
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        let inputs = try readInputs(o, log: log)
        let countryRows = try countryRows(o, table: inputs.table, locator: inputs.locator)
        let placements = try placeCities(o, inputs.source, inputs.locator, territories: inputs.territories, log: log)
        var report = Report()
        report.countries = countryRows.count
        report.outputDir = o.outputDir
        let (cityRows, reportLines, duplicates) = cityRows(o, inputs, placements, countryRows: countryRows, report: &report)
        report.cities = cityRows.count
        let qualifiers = qualifierRows(inputs, countryRows: countryRows)
        report.qualifiers = qualifiers.count
        try writeOutputs(o, sourceCount: inputs.source.count, countryRows: countryRows, cityRows: cityRows, qualifiers: qualifiers,
                         reportLines: reportLines, duplicates: duplicates, report: &report, log: log)
        return report
    }
}

import Foundation
import GeoModel

/// The world stage: the ingest's countries → dist/world.geojson (CONTRACTS §1).
/// Repair (GEOS make-valid), drop small islands, decide point countries, simplify the
/// coverage through its shared arcs to a vertex budget, validate, measure, write.
public enum WorldStage: PipelineStage {
    public static let name = "world"

    public struct Options: StageOptions {
        /// The ingest stage's countries GeoJSON.
        public var input = "build/ingest/countries.geojson"
        public var output = "dist/world.geojson"
        /// The per-country report (TSV), when wanted.
        public var report: String?
        /// Also log one line per country.
        public var perCountry = false
        /// How far the coverage is simplified.
        public var simplification = Simplification.vertexBudget(175_000)
        /// Islands and empty holes below this geodesic area (km²) are dropped.
        public var minIslandKm2 = 10.0
        /// Countries whose largest drawable part (km², geodesic) is below this become points.
        public var pointAreaKm2 = 2_500.0
        /// Give point countries' parts that share a border with drawn countries to the neighbour
        /// with the longest shared border, so no hole opens in the land (PointGaps).
        public var fillPointGaps = true
        public var threads = 2
        public var decimals = 6
        public init() {}

        public func validate() throws {
            try simplification.validate()
            guard minIslandKm2 >= 0, pointAreaKm2 >= 0 else { throw OptionsError("areas must be 0 or more") }
            guard threads >= 1 else { throw OptionsError("--threads must be at least 1") }
        }
    }

    /// Reads the input, builds the world, writes it and its report.
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        let input = try log.step("read \(o.input)") { try GeoJSON.read(path: o.input) }
        let (features, report) = try build(input, file: o.input, options: o, log: log)
        try log.step("write \(o.output)") { try GeoJSON.write(features, to: o.output, decimals: o.decimals) }
        if let path = o.report { try log.step("write \(path)") { try FileIO.writeAtomically(reportTSV(report), to: path) } }
        logDetails(report, perCountry: o.perCountry, log: log)
        return report
    }

    /// The world from the ingest's features (`file` names them in errors), in memory.
    public static func build(_ input: [Feature], file: String, options o: Options, log: StageLog) throws -> (features: [Feature], report: Report) {
        let countries = try CountrySet(input, file: file)
        let repaired = try repairCountries(countries, o, log: log)
        let measured = try arcGraph(repaired.polygons, o, log: log)
        var coverage = pointCountries(measured, o)
        if o.fillPointGaps {
            coverage = try fillPointGaps(coverage, measured: measured, polygons: repaired.polygons, countries: countries, o, log: log)
        }
        var arcs = try simplifyArcs(coverage, countries, o, log: log)
        var validated = try validateCoverage(coverage, &arcs, countries, o, log: log)
        let pointFrom = try placePoints(coverage.decision, polygons: repaired.polygons, countries, geometries: &validated.geometries)
        return measure(countries, repairs: repaired.records, coverage: coverage, arcs: arcs, validated: validated, pointFrom: pointFrom, o, log: log)
    }
}

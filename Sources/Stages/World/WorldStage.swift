import Foundation
import GeoModel
import StageContract

/// The world stage: the ingest's countries → dist/world.geojson (CONTRACTS §1).
/// Repair (GEOS make-valid), drop small islands, decide point countries, simplify the
/// coverage through its shared arcs to a vertex budget, validate, measure, write.
public enum WorldStage: PipelineStage {
    public static let name = "world"

    public struct Options: DeclaredOptions {
        public var input = "build/ingest/countries.geojson"
        public var output = "dist/world.geojson"
        public var report: String?
        public var perCountry = false
        /// How far the coverage is simplified, as the command line says it: a tolerance, when
        /// given, wins over the vertex budget; 0 for either keeps every vertex. `simplification`
        /// reads the two as one mode, once.
        public var targetVertices = 175_000
        public var toleranceKm: Double?
        public var minIslandKm2 = 10.0
        public var pointAreaKm2 = 2_500.0
        /// PointGaps: no hole opens in the land where a point country was.
        public var fillPointGaps = true
        public var threads = 2
        public var decimals = 6
        public init() {}

        public static let declared: [StageOption<Options>] = [
            .argument("input", \.input, help: "The ingest stage's countries GeoJSON."),
            .option("output", short: "o", \.output, help: "Output GeoJSON file."),
            .option("target-vertices", \.targetVertices, .atLeast(0),
                    help: "Total positions in the output (closing points included, one per point country). 0 keeps every vertex."),
            .option("tolerance-km", \.toleranceKm, .atLeast(0),
                    help: "Use this Douglas–Peucker tolerance (km on the sphere) instead of the vertex budget (0 keeps every vertex)."),
            .option("min-island-km2", \.minIslandKm2, .atLeast(0), help: "Islands and empty holes smaller than this (km², geodesic) are dropped."),
            .option("point-area-km2", \.pointAreaKm2, .atLeast(0),
                    help: "Countries whose largest drawable part (km², geodesic) is below this become renderAs \"point\"."),
            .flag("fill-point-gaps", \.fillPointGaps, inversion: true,
                  help: "Give point countries' bordering parts to the neighbour with the longest shared border, so no hole opens in the land."),
            .option("threads", \.threads, .atLeast(1), help: "Worker threads (one GEOS context each)."),
            .option("report", \.report, help: "Write the per-country report (TSV) here."),
            .flag("per-country", \.perCountry,
                  help: "Also print one progress line per country (vertices before → after, Hausdorff, p95 distance, drops)."),
        ]

        /// The one simplification mode the two options make.
        public var simplification: Simplification {
            get { Simplification(reading: targetVertices, toleranceKm) }
            set {
                switch newValue {
                case .keepAll: targetVertices = 0; toleranceKm = nil
                case .vertexBudget(let n): targetVertices = n; toleranceKm = nil
                case .toleranceKm(let t): toleranceKm = t
                }
            }
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

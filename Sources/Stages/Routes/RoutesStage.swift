// The routes stage: the focus app's curated routes (data/routes.tsv) and rewards
// (data/rewards.tsv) → dist/routes/routes.geojson (each route drawn along great circles, each
// location's cumulative geodesic distance) and dist/routes/content.sqlite3 (the app's bundled
// content: routes, locations in order, tags, rewards). Every location must lie in its route's
// country by the offline lookup (dist/lookup/lookup.bin), the same answer the apps get.

import Foundation
import GeoLookup
import GeoModel
import GeoPROJ
import GeoSQLite
import StageContract

public enum RoutesStage: PipelineStage {
    public static let name = "routes"

    public struct Options: DeclaredOptions {
        public var input = "data/routes.tsv"
        public var rewards = "data/rewards.tsv"
        public var index = "dist/lookup/lookup.bin"
        public var outputDir = "dist/routes"
        /// The line is densified along the great circle so a flat map draws it curved.
        public var stepDegrees = 0.25
        public init() {}

        public static let declared: [StageOption<Options>] = [
            .argument("routes", \.input, help: "The routes table (TSV)."),
            .option("rewards", \.rewards, help: "The rewards table (TSV)."),
            .option("index", \.index, help: "The lookup index (make lookup)."),
            .option("output-dir", short: "o", aliases: ["out-dir"], \.outputDir, help: "Output directory."),
            .option("step-degrees", \.stepDegrees, .within(0.01...10), help: "Longest straight piece of a drawn route, in degrees of arc."),
        ]
    }

    public struct Report: StageReport {
        public var routes: [Route] = []
        public var rewards = 0
        public var linePoints = 0
        public var sqliteBytes = 0
        public var outputDir = ""
        public var summary: String {
            let lengths = routes.map { "\($0.id) \(String(format: "%.0f", $0.locations.last!.distanceKm)) km" }.joined(separator: ", ")
            return "\(routes.count) routes, \(routes.reduce(0) { $0 + $1.locations.count }) locations (each in its country by the lookup), \(rewards) rewards → "
                + "\(outputDir)/routes.geojson (\(linePoints) line points; \(lengths)), content.sqlite3 (\(formatCount(sqliteBytes)) bytes)"
        }
    }

    /// Reads the tables, checks every location against the lookup, measures the routes, and
    /// writes the GeoJSON and the app's database (steps in Steps/).
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        var routes = try Tables.routes(o.input)
        let rewards = try Tables.rewards(o.rewards)
        try checkCountries(routes, o, log: log)
        measureDistances(&routes)
        var report = Report(routes: routes, rewards: rewards.count, outputDir: o.outputDir)
        let (geojson, points) = routesGeoJSON(routes, stepDegrees: o.stepDegrees)
        report.linePoints = points
        report.sqliteBytes = try writeOutputs(o, geojson: geojson, routes: routes, rewards: rewards, log: log)
        return report
    }
}

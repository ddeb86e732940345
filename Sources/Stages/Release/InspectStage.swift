import Foundation
import GeoModel
import GeoFormats
import GeoLookup
import StageContract

/// The inspection page (issue 23): `dist/inspect/index.html`, a static Leaflet page that opens
/// from the file system with no network. Leaflet (Debian's libjs-leaflet) is copied next to it;
/// the data is embedded as a script (`data.js`), since browsers refuse fetch() on file:// URLs.
/// Layers: the app's countries (click: name, capital, aliases, the world report's row, repairs,
/// silhouette; every country's element carries data-iso), point countries, capitals,
/// silhouettes, the largest cities, the routes, territory cells by owner, a lookup probe; with
/// a changes.json, the changed countries highlighted with their change.
public enum InspectStage: PipelineStage {
    public static let name = "inspect"

    public struct Options: DeclaredOptions {
        public var world = "dist/world.geojson"
        public var worldReport = "build/world/report.tsv"
        public var citiesSeed = "dist/supabase/cities/seed.sql"
        public var routes = "dist/routes/routes.geojson"
        public var territory = "dist/territory/territory.geojson"
        public var lookup = "dist/lookup/lookup.bin"
        /// The silhouettes' folder (the page links its SVGs by a relative path).
        public var silhouettes = "dist/silhouettes"
        /// A release's changes.json: the changed countries are highlighted.
        public var changes: String?
        public var out = "dist/inspect"
        /// Debian's libjs-leaflet.
        public var leaflet = "/usr/share/javascript/leaflet"
        /// The largest cities by population drawn.
        public var cities = 1_000
        /// Points of the lookup probe drawn (the release's probe lattice, coarser).
        public var probePoints = 4_000
        public init() {}

        /// The same inputs in a release (or any folder with dist/'s layout).
        public static func forProducts(root: String, worldReport: String) -> Options {
            var o = Options()
            o.world = root + "/world.geojson"
            o.worldReport = worldReport
            o.citiesSeed = root + "/" + ReleaseSnapshot.citiesSeedPath
            o.routes = root + "/routes/routes.geojson"
            o.territory = root + "/territory/territory.geojson"
            o.lookup = root + "/" + ReleaseSnapshot.lookupPath
            o.silhouettes = root + "/silhouettes"
            o.out = root + "/inspect"
            return o
        }

        public static let declared: [StageOption<Options>] = [
            .option("world", \.world, help: "The app's country file."),
            .option("world-report", \.worldReport, help: "The world stage's report (TSV): each country's row, the repairs."),
            .option("cities-seed", \.citiesSeed, help: "The cities stage's seed (SQL)."),
            .option("routes", \.routes, help: "The routes GeoJSON."),
            .option("territory", \.territory, help: "The territory cells GeoJSON."),
            .option("lookup", \.lookup, help: "The lookup index."),
            .option("silhouettes", \.silhouettes, help: "The silhouettes' folder (linked by a relative path)."),
            .option("changes", \.changes, help: "A release's changes.json: highlight the changed countries."),
            .option("out", short: "o", \.out, help: "The page's folder (index.html, data.js, leaflet/)."),
            .option("leaflet", \.leaflet, help: "Debian's libjs-leaflet folder."),
            .option("cities", \.cities, .atLeast(0), help: "The largest cities drawn."),
            .option("probe-points", \.probePoints, .atLeast(0), help: "Lookup probe points drawn."),
        ]

        public func validateRules() throws {
            guard !out.isEmpty else { throw OptionsError("--out must name a folder") }
        }
    }

    public struct Report: StageReport {
        public var out: String
        public var countries = 0
        public var changed = 0
        public var bytes = 0
        public var summary: String {
            "\(countries) countries (\(changed) highlighted as changed), \(formatCount(bytes)) bytes of data → \(out)/index.html"
        }
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        try run(o, products: ProductReader(world: o.world, citiesSeed: o.citiesSeed, lookup: o.lookup), log: log)
    }

    /// The page from `products` (a release passes the reader it compared with: nothing read twice),
    /// which reads o.world, o.citiesSeed and o.lookup (steps in Inspect/).
    static func run(_ o: Options, products: ProductReader, log: StageLog) throws -> Report {
        var r = Report(out: o.out)
        // Every input is read before anything is written, so a bad one leaves no page behind.
        try checkLeaflet(o)
        let data = try inspectData(o, products: products, report: &r, log: log)
        try writePage(o, data: data)
        return r
    }
}

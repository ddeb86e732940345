import Foundation
import GeoModel
import GeoFormats
import GeoLookup

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
    /// which reads o.world, o.citiesSeed and o.lookup.
    static func run(_ o: Options, products: ProductReader, log: StageLog) throws -> Report {
        var r = Report(out: o.out)
        // Every input is read before anything is written, so a bad one leaves no page behind.
        for file in ["leaflet.js", "leaflet.css"] where !FileManager.default.fileExists(atPath: o.leaflet + "/" + file) {
            throw InputError(file: o.leaflet + "/" + file, "is missing: the page needs Leaflet from Debian's libjs-leaflet (scripts/setup.sh installs it)")
        }
        let countries = try log.step("read \(o.world)") { try products.countries() }
        r.countries = countries.count
        let (columns, rows) = try ReleaseSnapshot.readWorldRows(o.worldReport)
        let repairs = try repairLines(o.worldReport)
        let changes = try o.changes.map { path in try JSONValue.parse(try FileIO.readBytes(path), file: path) }
        let changedCountries = changes?["countries"]?.objectValue ?? JSONObject()
        r.changed = changedCountries.count
        let silhouetteURL = relativePath(from: o.out, to: o.silhouettes) + "/"
        let silhouettes = Set((try? FileManager.default.contentsOfDirectory(atPath: o.silhouettes)) ?? [])

        var w = JSONWriter(coordinateDecimals: 5, reserve: 8 << 20)
        w.raw("// The inspection page's data, written by geo-inspect (a script: file:// pages cannot fetch).\nwindow.INSPECT = {\"countries\":{\"type\":\"FeatureCollection\",\"features\":[")
        for (i, f) in countries.enumerated() {
            if i > 0 { w.raw(",\n") }
            let id = f.id!
            var props = JSONObject()
            for key in ["name", "continent", "capital", "capitalLat", "capitalLon", "aliases", "capitalAliases", "renderAs"] {
                if let v = f.properties[key] { props[key] = v }
            }
            if let row = rows[id] {
                props["report"] = .object(JSONObject(zip(columns, row).map { ($0, .string($1)) }))
            }
            if let rep = repairs[id] { props["repairs"] = .array(rep.map { .string($0) }) }
            if let c = changedCountries[id] { props["change"] = c }
            if silhouettes.contains("\(id).svg") { props["silhouette"] = .string(silhouetteURL + id + ".svg") }
            w.raw("{\"type\":\"Feature\",\"id\":"); w.string(id)
            w.raw(",\"properties\":"); w.value(.object(props))
            w.raw(",\"geometry\":"); w.geometry(f.geometry); w.raw("}")
        }
        w.raw("]},\n\"cities\":")
        let cities = try log.step("cities") { try products.citiesSeed().cities }
        let largest = cities.sorted { ($0.value.population, $1.key) > ($1.value.population, $0.key) }.prefix(o.cities)
        w.value(.array(largest.map { c in
            .array([.string(c.value.name), .string(c.value.country), .number(Double(c.value.population)),
                    .number((c.value.latitude * 1e4).rounded() / 1e4), .number((c.value.longitude * 1e4).rounded() / 1e4)])
        }))
        w.raw(",\n\"routes\":"); try embedJSON(o.routes, &w)
        w.raw(",\n\"territory\":"); try embedJSON(o.territory, &w)
        w.raw(",\n\"probe\":")
        let lookup = try products.lookup()
        let probe = Changes.probePoints(o.probePoints)
        w.value(.array(probe.map { p in
            .array([.number((p.latitude * 1e3).rounded() / 1e3), .number((p.longitude * 1e3).rounded() / 1e3), lookup.country(at: p).map { .string($0) } ?? .null])
        }))
        w.raw(",\n\"changes\":")
        if let changes { w.value(changes) } else { w.raw("null") }
        w.raw("};\n")
        r.bytes = w.bytes.count

        let fm = FileManager.default
        try fm.createDirectory(atPath: o.out, withIntermediateDirectories: true)
        for file in ["leaflet.js", "leaflet.css"] {
            try copyReplacing(o.leaflet + "/" + file, o.out + "/leaflet/" + file)
        }
        for image in (try? fm.contentsOfDirectory(atPath: o.leaflet + "/images")) ?? [] where image.hasSuffix(".png") {
            try copyReplacing(o.leaflet + "/images/" + image, o.out + "/leaflet/images/" + image)
        }
        try FileIO.writeAtomically(w.bytes, to: o.out + "/data.js")
        try FileIO.writeAtomically(InspectPage.html, to: o.out + "/index.html")
        return r
    }

    /// (`source` exists: run checked Leaflet's files before writing, the images are listed.)
    static func copyReplacing(_ source: String, _ target: String) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileIO.writeAtomically(try FileIO.readBytes(source), to: target)
    }

    /// A JSON file's text as it is, after checking it parses (JSON is a JavaScript expression).
    static func embedJSON(_ path: String, _ w: inout JSONWriter) throws {
        let bytes = try FileIO.readBytes(path)
        _ = try JSONValue.parse(bytes, file: path)
        var end = bytes.count
        while end > 0 && (bytes[end - 1] == 0x0A || bytes[end - 1] == 0x20) { end -= 1 }
        w.bytes.append(contentsOf: bytes[..<end])
    }

    /// The world report's "# repaired XX: …" lines by country.
    static func repairLines(_ path: String) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for line in try FileIO.readLines(path) where line.hasPrefix("# repaired ") {
            let rest = line.dropFirst("# repaired ".count)
            if let colon = rest.firstIndex(of: ":") { out[String(rest[..<colon]), default: []].append(String(rest[rest.index(after: colon)...]).trimmingCharacters(in: .whitespaces)) }
        }
        return out
    }

    /// `to` relative to the folder `from` ("../silhouettes" from dist/inspect to dist/silhouettes).
    static func relativePath(from: String, to: String) -> String {
        let a = URL(fileURLWithPath: from).standardizedFileURL.pathComponents
        let b = URL(fileURLWithPath: to).standardizedFileURL.pathComponents
        var common = 0
        while common < min(a.count, b.count) && a[common] == b[common] { common += 1 }
        let parts = Array(repeating: "..", count: a.count - common) + b[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}

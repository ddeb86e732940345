import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ
import GeoFormats

/// The silhouette stage: world.geojson → <dir>/<ISO>.svg for every polygon country, plus an
/// SVG contact sheet, an HTML index and a manifest (what was drawn, with which centre).
public enum SilhouettesStage: PipelineStage {
    public static let name = "silhouettes"

    public struct Options: DeclaredOptions {
        public var input = "dist/world.geojson"
        public var outputDir = "dist/silhouettes"
        public var silhouette = Silhouette.Options()
        public var threads = 2
        public init() {}
        public init(input: String, outputDir: String) { self.input = input; self.outputDir = outputDir }

        public static let declared: [StageOption<Options>] = [
            .argument("input", \.input, required: true, help: "The country set in lon/lat (dist/world.geojson)."),
            .option("output-dir", short: "o", aliases: ["output"], \.outputDir, help: "Output folder."),
            .option("size", \.silhouette.size, .within(16...100_000), help: "Side of the square viewBox."),
            .option("padding", \.silhouette.padding, .atLeast(0), help: "Empty margin on each side, in viewBox units."),
            .option("min-part-share", \.silhouette.minPartShare, .within(0..<1), help: "Drop parts with less than this share of the country's area (0…1)."),
            .option("tolerance", \.silhouette.tolerance, .atLeast(0), help: "Simplification tolerance in viewBox units."),
            .option("decimals", \.silhouette.decimals, .within(0...4), help: "Decimals of path coordinates, in viewBox units."),
            .option("min-ring-area", \.silhouette.minRingArea, .atLeast(0), help: "Drop rings smaller than this many square viewBox units."),
            .option("remote-share", \.silhouette.remoteShare, .within(0...1),
                    help: "Parts under this share of the country's area are minor: dropped when remote (0…1)."),
            .option("remote-distance", \.silhouette.remoteDistance, .atLeast(0),
                    help: "A minor part is remote when its bounding box is farther than this × √(country area) from every major part's."),
            .option("max-bytes", \.silhouette.maxBytes, .atLeast(0),
                    help: "Byte budget per SVG: simplify more (tolerance ×1.5, up to 5 times) while a file is larger; 0 = off."),
            .option("threads", \.threads, .within(1...64), help: "Worker threads."),
        ]

        public func validateRules() throws {
            guard silhouette.padding * 2 < silhouette.size * 0.9 else { throw OptionsError("--padding must leave room for the shape (twice it must stay under 90% of --size)") }
        }
    }

    public struct Report: StageReport {
        public var outputDir = ""
        public var drawn: [Silhouette.Drawing] = []
        public var bytes: [Int] = []
        public var pointCountries: [String] = []
        public var removedStale: [String] = []

        public var summary: String {
            let sorted = bytes.sorted()
            let largest = zip(drawn, bytes).max { $0.1 < $1.1 }
            return "\(drawn.count) silhouettes, \(formatCount(drawn.reduce(0) { $0 + $1.vertices })) vertices, \(formatCount(bytes.reduce(0, +))) bytes (median \(formatCount(sorted.isEmpty ? 0 : sorted[sorted.count / 2])), largest \(largest.map { "\($0.0.id) \(formatCount($0.1))" } ?? "none")) → \(outputDir)/"
        }
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        var report = Report()
        report.outputDir = o.outputDir
        let features = try log.step("read \(o.input)") { try CountryFile.read(path: o.input) }
        struct Job { var index: Int; var id: String; var name: String; var polygons: [Polygon] }
        var jobs: [Job] = []
        for (i, f) in features.enumerated() {
            let id = f.id!
            if case .point = f.geometry { report.pointCountries.append(id); continue }
            jobs.append(Job(index: i, id: id, name: f.string("name") ?? id, polygons: f.geometry.polygons))
        }
        guard !jobs.isEmpty else { throw InputError(file: o.input, "has no polygon country to draw") }

        // Largest first, so the workers finish together; results go back to input order and
        // the first error by input order is the one reported.
        let size = jobs.map { $0.polygons.reduce(0) { $0 + $1.vertexCount } }
        let order = jobs.indices.sorted { (size[$0], $1) > (size[$1], $0) }
        let opts = o.silhouette
        let drawn = log.step("draw and write \(jobs.count) silhouettes on \(o.threads) threads") {
            try! Parallel.map(order, workers: max(1, o.threads), makeState: { (PROJContext(), GEOSContext()) }) { [jobs] k, ctx in
                let j = jobs[k]
                return Result {
                    try forFeature(file: o.input, FeatureRef(index: j.index, name: j.name, id: j.id)) {
                        let d = try Silhouette.draw(id: j.id, name: j.name, polygons: j.polygons, options: opts, proj: ctx.0, geos: ctx.1)
                        try FileIO.writeAtomically(d.svg, to: o.outputDir + "/" + j.id + ".svg")
                        return d
                    }
                }
            }
        }
        var results = [Result<Silhouette.Drawing, Error>?](repeating: nil, count: jobs.count)
        for (k, r) in zip(order, drawn) { results[k] = r }
        report.drawn = try results.map { try $0!.get() }
        let dir = o.outputDir
        report.bytes = report.drawn.map { $0.svg.utf8.count }

        // Silhouettes of countries no longer in the input would linger from an earlier run.
        let current = Set(report.drawn.map { $0.id + ".svg" })
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        for name in existing.sorted() where name.count == 6 && name.hasSuffix(".svg") && CountryID.isValid(String(name.prefix(2))) && !current.contains(name) {
            try? FileManager.default.removeItem(atPath: dir + "/" + name)
            report.removedStale.append(name)
        }

        let s = o.silhouette
        try log.step("write contact sheet, index and manifest") {
            let sheet = SVGDocuments.contactSheet(report.drawn.map { .init(id: $0.id, name: $0.name, pathData: $0.pathData) }, size: s.size, fill: s.fill)
            try FileIO.writeAtomically(sheet, to: dir + "/contact-sheet.svg")
            let entries = zip(report.drawn, report.bytes).map { SVGDocuments.IndexEntry(id: $0.id, name: $0.name, bytes: $1, parts: $0.drawnParts.count) }
            let html = SVGDocuments.indexHTML(entries, title: "Country silhouettes (\(entries.count))",
                note: "Each country in a Lambert azimuthal equal-area projection centred on the country, fitted in a \(SVGPathData.format(s.size, decimals: 3)) × \(SVGPathData.format(s.size, decimals: 3)) viewBox with \(SVGPathData.format(s.padding, decimals: 3)) padding; parts under \(SVGPathData.format(s.minPartShare * 100, decimals: 6)) % of the country's area are left out. Contact sheet: contact-sheet.png.")
            try FileIO.writeAtomically(html, to: dir + "/index.html")
            try FileIO.writeAtomically(manifest(report, options: s), to: dir + "/manifest.json")
        }
        if !report.removedStale.isEmpty { log.info("removed stale silhouettes: \(report.removedStale.joined(separator: " "))") }
        log.info("no silhouette for \(report.pointCountries.count) point countries")
        return report
    }

    /// What was drawn: per country the projection centre and which polygons of its
    /// (Multi)Polygon are in the picture, so that a checker can recompute the shape on its own.
    static func manifest(_ r: Report, options s: Silhouette.Options) -> String {
        var top = JSONObject()
        top["viewBox"] = .number(s.size)
        top["padding"] = .number(s.padding)
        top["minPartShare"] = .number(s.minPartShare)
        top["tolerance"] = .number(s.tolerance)
        top["decimals"] = .number(Double(s.decimals))
        top["minRingArea"] = .number(s.minRingArea)
        top["remoteShare"] = .number(s.remoteShare)
        top["remoteDistance"] = .number(s.remoteDistance)
        top["maxBytes"] = .number(Double(s.maxBytes))
        top["projection"] = .string("+proj=laea +ellps=WGS84, centred on each country")
        var list: [JSONValue] = []
        for (d, bytes) in zip(r.drawn, r.bytes) {
            var c = JSONObject()
            c["id"] = .string(d.id)
            c["name"] = .string(d.name)
            c["centre"] = .array([.number((d.centre.x * 1e6).rounded() / 1e6), .number((d.centre.y * 1e6).rounded() / 1e6)])
            c["parts"] = .array(d.drawnParts.map { .number(Double($0)) })
            c["totalParts"] = .number(Double(d.totalParts))
            c["rings"] = .number(Double(d.rings))
            c["vertices"] = .number(Double(d.vertices))
            c["tolerance"] = .number((d.tolerance * 1e6).rounded() / 1e6)
            c["bytes"] = .number(Double(bytes))
            c["box"] = .array([d.box.minX, d.box.minY, d.box.maxX, d.box.maxY].map { .number($0) })
            list.append(.object(c))
        }
        top["countries"] = .array(list)
        var w = JSONWriter()
        w.value(.object(top), indent: 1)
        w.raw("\n")
        return w.string
    }
}

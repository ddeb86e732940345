import Foundation
import GeoModel
import GeoFormats

extension SilhouettesStage {
    /// The contact sheet, the HTML index and the manifest.
    static func writeIndex(_ o: Options, _ report: Report, log: StageLog) throws {
        let dir = o.outputDir
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

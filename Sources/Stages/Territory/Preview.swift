import Foundation
import GeoFormats
import GeoModel
import H3

extension TerritoryOutputs {
    static let maxPaths = 400

    /// A picture of one city: the resolution-4 region (about 1,800 km²) holding the most owned
    /// cells, its cells filled in their owner's colour, every run that passes through it drawn
    /// as its path (valid runs solid in the runner's colour, rejected runs dashed grey), and a
    /// legend of runners with their cells. Local equirectangular projection (the view is a few
    /// km across).
    func previewSVG() throws -> String {
        let e = XMLText.escape
        var byRegion: [UInt64: Int] = [:]
        for c in owned { byRegion[H3Cell.parent(c.cell, res: 4), default: 0] += 1 }
        guard let region = byRegion.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key })?.key else {
            return SVGDocuments.xmlHeader + "<svg xmlns=\"\(SVGDocuments.svgNamespace)\" width=\"400\" height=\"60\" viewBox=\"0 0 400 60\">\n"
                + "<title>territory: no cell is owned</title>\n<text x=\"10\" y=\"35\" font-family=\"sans-serif\" font-size=\"14\">No cell is owned.</text>\n</svg>\n"
        }
        let cells = owned.filter { H3Cell.parent($0.cell, res: 4) == region }
        let polys = try cells.map { try cellPolygon($0.cell).exterior }
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for r in polys { for p in r { minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y) } }
        // The runs through the view: any kept fix inside the cells' box grown by half its size;
        // at most `maxPaths` of them (those owning most cells here first), so that a city's
        // night stays a picture and not a 100 MB file.
        let gx = (maxX - minX) / 2, gy = (maxY - minY) / 2
        let inView = records.filter { j in j.path.contains { p in
            p.x >= minX - gx && p.x <= maxX + gx && p.y >= minY - gy && p.y <= maxY + gy } }
        var ownsHere: [String: Int] = [:]
        for c in cells { ownsHere[c.run, default: 0] += 1 }
        let runs = inView.count <= Self.maxPaths ? inView : Array(inView.sorted {
            let a = ownsHere[$0.id] ?? 0, b = ownsHere[$1.id] ?? 0
            return a != b ? a > b : $0.index < $1.index
        }.prefix(Self.maxPaths)).sorted { $0.index < $1.index }
        for j in runs { for p in j.path where abs(p.x - (minX + maxX) / 2) < 3 * gx + 0.01 && abs(p.y - (minY + maxY) / 2) < 3 * gy + 0.01 {
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y) } }
        let lat0 = (minY + maxY) / 2
        let kx = cos(lat0 * .pi / 180)
        let mapW = 760.0, pad = 20.0
        let s = min(mapW / max((maxX - minX) * kx, 1e-9), 1400 / max(maxY - minY, 1e-9))
        let mapH = (maxY - minY) * s
        func tenths(_ v: Double) -> Int { Int((v * 10).rounded()) }
        func text(_ t: Int) -> String { t % 10 == 0 ? "\(t / 10)" : "\(t / 10).\(t % 10)" }  // coordinates are positive
        func px(_ lon: Double) -> String { text(tenths(pad + (lon - minX) * kx * s)) }
        func py(_ lat: Double) -> String { text(tenths(pad + (maxY - lat) * s)) }

        let palette = ["#4E79A7", "#F28E2B", "#E15759", "#76B7B2", "#59A14F", "#EDC948", "#B07AA1", "#FF9DA7", "#9C755F", "#BAB0AC"]
        let users = Array(Set(runs.map(\.userID) + cells.map(\.owner))).sorted()
        var colour: [String: String] = [:]
        for (i, u) in users.enumerated() { colour[u] = palette[i % palette.count] }

        let width = mapW + 2 * pad + 260, height = max(mapH + 2 * pad, 110 + Double(min(users.count, 16)) * 22)
        var out = SVGDocuments.xmlHeader
        out += "<svg xmlns=\"\(SVGDocuments.svgNamespace)\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">\n"
        out += "<title>\(e("Territory around \(String(format: "%.4f", lat0)), \(String(format: "%.4f", (minX + maxX) / 2)): \(cells.count) cells, \(runs.count) runs"))</title>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#F4F1EA\"/>\n<g id=\"cells\" stroke=\"#FFFFFF\" stroke-width=\"0.8\" fill-opacity=\"0.6\">\n"
        for (c, ring) in zip(cells, polys) {
            out += "<path id=\"h\(H3Cell.hex(c.cell))\" fill=\"\(colour[c.owner]!)\" d=\"M" + ring.dropLast().map { "\(px($0.x)) \(py($0.y))" }.joined(separator: " L") + " Z\"/>\n"
        }
        out += "</g>\n<g id=\"runs\" fill=\"none\" stroke-linejoin=\"round\">\n"
        for j in runs {
            // A point only where the path has moved a pixel: the picture is the same, the file small.
            var pts: [String] = [], last: (Int, Int)? = nil
            for (n, p) in j.path.enumerated() {
                let x = tenths(pad + (p.x - minX) * kx * s), y = tenths(pad + (maxY - p.y) * s)
                if last.map({ abs(x - $0.0) >= 10 || abs(y - $0.1) >= 10 }) ?? true || n == j.path.count - 1 {
                    pts.append("\(text(x)) \(text(y))"); last = (x, y)
                }
            }
            guard pts.count >= 2 else { continue }
            let style = j.verdict.valid ? "stroke=\"\(colour[j.userID]!)\" stroke-width=\"1.6\"" : "stroke=\"#555555\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\""
            out += "<path id=\"r\(j.id)\" \(style) d=\"M" + pts.joined(separator: " L") + "\"/>\n"
        }
        out += "</g>\n<g id=\"legend\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#222222\">\n"
        let lx = mapW + 2 * pad
        out += "<text x=\"\(Int(lx))\" y=\"\(Int(pad + 12))\" font-weight=\"bold\">runner — cells here</text>\n"
        // The runners with most cells here (at most 15), then how many more.
        var here: [String: Int] = [:]
        for c in cells { here[c.owner, default: 0] += 1 }
        let ranked = users.sorted { (here[$0] ?? 0) != (here[$1] ?? 0) ? (here[$0] ?? 0) > (here[$1] ?? 0) : $0 < $1 }
        let shown = Array(ranked.prefix(15))
        for (i, u) in shown.enumerated() {
            let y = pad + 30 + Double(i) * 22
            out += "<rect x=\"\(Int(lx))\" y=\"\(Int(y))\" width=\"14\" height=\"14\" fill=\"\(colour[u]!)\"/>"
            out += "<text x=\"\(Int(lx + 20))\" y=\"\(Int(y + 12))\">\(e(String(u.prefix(8))))… — \(here[u] ?? 0)</text>\n"
        }
        var ly = pad + 40 + Double(shown.count) * 22
        if ranked.count > shown.count {
            out += "<text x=\"\(Int(lx))\" y=\"\(Int(ly - 6))\">and \(ranked.count - shown.count) more runners</text>\n"
            ly += 22
        }
        out += "<line x1=\"\(Int(lx))\" y1=\"\(Int(ly))\" x2=\"\(Int(lx + 30))\" y2=\"\(Int(ly))\" stroke=\"#555555\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\"/>"
        out += "<text x=\"\(Int(lx + 36))\" y=\"\(Int(ly + 4))\">rejected run</text>\n"
        out += "</g>\n</svg>\n"
        return out
    }
}

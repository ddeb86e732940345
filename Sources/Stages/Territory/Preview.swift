import Foundation
import GeoFormats
import GeoModel
import H3
import TerritoryGame

extension TerritoryOutputs {
    static let maxPaths = 400

    /// A picture of one city: the resolution-4 region (about 1,800 km²) holding the most owned
    /// cells, its cells filled in their owner's colour, every run that passes through it drawn
    /// as its path (valid runs solid in the runner's colour, rejected runs dashed grey), and a
    /// legend of runners with their cells. Local equirectangular projection (the view is a few
    /// km across).
    func previewSVG() throws -> String {
        var byRegion: [UInt64: Int] = [:]
        for c in owned { byRegion[H3Cell.parent(c.cell, res: 4), default: 0] += 1 }
        guard let region = byRegion.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key })?.key else {
            var svg = SVGWriter(width: 400, height: 60, title: "territory: no cell is owned")
            svg.element("text", [("x", "10"), ("y", "35"), ("font-family", "sans-serif"), ("font-size", "14")], content: "No cell is owned.")
            return svg.finished
        }
        let cells = owned.filter { H3Cell.parent($0.cell, res: 4) == region }
        let polys = try cells.map { try H3Cell.polygon($0.cell).exterior }
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
        func pixel(_ p: Point) -> (x: Double, y: Double) { (pad + (p.x - minX) * kx * s, pad + (maxY - p.y) * s) }

        let palette = ["#4E79A7", "#F28E2B", "#E15759", "#76B7B2", "#59A14F", "#EDC948", "#B07AA1", "#FF9DA7", "#9C755F", "#BAB0AC"]
        let users = Array(Set(runs.map(\.userID) + cells.map(\.owner))).sorted()
        var colour: [String: String] = [:]
        for (i, u) in users.enumerated() { colour[u] = palette[i % palette.count] }

        let width = mapW + 2 * pad + 260, height = max(mapH + 2 * pad, 110 + Double(min(users.count, 16)) * 22)
        let title = "Territory around \(String(format: "%.4f", lat0)), \(String(format: "%.4f", (minX + maxX) / 2)): \(cells.count) cells, \(runs.count) runs"
        var svg = SVGWriter(width: Int(width), height: Int(height), title: title)
        svg.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "#F4F1EA")])
        svg.open("g", [("id", "cells"), ("stroke", "#FFFFFF"), ("stroke-width", "0.8"), ("fill-opacity", "0.6")])
        for (c, ring) in zip(cells, polys) {
            guard let d = SVGWriter.pathData(ring.dropLast().map(pixel), closed: true) else { continue }
            svg.element("path", [("id", "h\(H3Cell.hex(c.cell))"), ("fill", colour[c.owner]!), ("d", d)])
        }
        svg.close()
        svg.open("g", [("id", "runs"), ("fill", "none"), ("stroke-linejoin", "round")])
        for j in runs {
            // A point only where the path has moved a pixel: the picture is the same, the file small.
            guard let d = SVGWriter.pathData(j.path.map(pixel), minStep: 1) else { continue }
            let style = j.verdict.valid ? [("stroke", colour[j.userID]!), ("stroke-width", "1.6")]
                : [("stroke", "#555555"), ("stroke-width", "1.2"), ("stroke-dasharray", "4 3")]
            svg.element("path", [("id", "r\(j.id)")] + style + [("d", d)])
        }
        svg.close()
        svg.open("g", [("id", "legend"), ("font-family", "sans-serif"), ("font-size", "12"), ("fill", "#222222")])
        let lx = mapW + 2 * pad
        svg.element("text", [("x", "\(Int(lx))"), ("y", "\(Int(pad + 12))"), ("font-weight", "bold")], content: "runner — cells here")
        // The runners with most cells here (at most 15), then how many more.
        var here: [String: Int] = [:]
        for c in cells { here[c.owner, default: 0] += 1 }
        let ranked = users.sorted { (here[$0] ?? 0) != (here[$1] ?? 0) ? (here[$0] ?? 0) > (here[$1] ?? 0) : $0 < $1 }
        let shown = Array(ranked.prefix(15))
        for (i, u) in shown.enumerated() {
            let y = pad + 30 + Double(i) * 22
            svg.element("rect", [("x", "\(Int(lx))"), ("y", "\(Int(y))"), ("width", "14"), ("height", "14"), ("fill", colour[u]!)], newline: false)
            svg.element("text", [("x", "\(Int(lx + 20))"), ("y", "\(Int(y + 12))")], content: "\(u.prefix(8))… — \(here[u] ?? 0)")
        }
        var ly = pad + 40 + Double(shown.count) * 22
        if ranked.count > shown.count {
            svg.element("text", [("x", "\(Int(lx))"), ("y", "\(Int(ly - 6))")], content: "and \(ranked.count - shown.count) more runners")
            ly += 22
        }
        svg.element("line", [("x1", "\(Int(lx))"), ("y1", "\(Int(ly))"), ("x2", "\(Int(lx + 30))"), ("y2", "\(Int(ly))"),
                             ("stroke", "#555555"), ("stroke-width", "1.2"), ("stroke-dasharray", "4 3")], newline: false)
        svg.element("text", [("x", "\(Int(lx + 36))"), ("y", "\(Int(ly + 4))")], content: "rejected run")
        svg.close()
        return svg.finished
    }
}

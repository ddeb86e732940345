import Foundation

/// Pictures of the globe for people: the mesh projected orthographically into an SVG
/// (back faces culled, painter's order back to front) and rendered to PNG by rsvg-convert.
public enum GlobePreview {
    public struct View: Sendable {
        public var name: String
        public var center: Point
        public init(name: String, center: Point) { self.name = name; self.center = center }
    }

    public static let views = [
        View(name: "atlantic", center: Point(-30, 20)),
        View(name: "pacific", center: Point(180, 0)),
        View(name: "south_pole", center: Point(0, -90)),
    ]

    static func hex(_ rgb: (Double, Double, Double)) -> String {
        String(format: "#%02X%02X%02X", Int((rgb.0 * 255).rounded()), Int((rgb.1 * 255).rounded()), Int((rgb.2 * 255).rounded()))
    }

    /// The SVG text of one view.
    public static func svg(_ r: Globe.Result, options o: Globe.Options, view: View) -> String {
        let size = Double(o.previewSize)
        let f = GlobeShapes.frame(view.center)
        let scale = size * 0.45 / o.atmosphereRadius * 1.0
        let c = size / 2
        @inline(__always) func project(_ v: Vec3) -> (Double, Double, Double) {
            (c + scale * v.dot(f.east), c - scale * v.dot(f.north), v.dot(f.up))
        }
        func fmt(_ d: Double) -> String {
            let x = (d * 10).rounded() / 10
            return x == x.rounded() ? String(Int(x)) : String(format: "%.1f", x)
        }
        let pal = Dictionary(uniqueKeysWithValues: Globe.palette.map { ($0.name, $0.rgb) })
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(size))\" height=\"\(Int(size))\" viewBox=\"0 0 \(Int(size)) \(Int(size))\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#0B1020\"/>\n"
        out += "<circle cx=\"\(fmt(c))\" cy=\"\(fmt(c))\" r=\"\(fmt(scale * o.atmosphereRadius))\" fill=\"\(hex(pal["atmosphere"]!))\" fill-opacity=\"0.15\"/>\n"
        out += "<circle cx=\"\(fmt(c))\" cy=\"\(fmt(c))\" r=\"\(fmt(scale * o.oceanRadius))\" fill=\"\(hex(pal["ocean"]!))\"/>\n"
        // Countries back to front by mean depth of their visible triangles.
        var paths: [(depth: Double, id: String, d: String)] = []
        for m in r.meshes {
            var d = ""
            var depthSum = 0.0, n = 0
            let pr = m.positions.map { project($0 * o.fillRadius) }
            for (k, start) in m.polygonStarts.enumerated() {
                let ringEnd = k + 1 < m.polygonStarts.count ? m.polygonStarts[k + 1].ring : m.rings.count
                let triEnd = k + 1 < m.polygonStarts.count ? m.polygonStarts[k + 1].index : m.triangles.count
                let rings = m.rings[start.ring..<ringEnd].map { $0.map { project(SphereMap.unit($0) * o.fillRadius) } }
                if rings.allSatisfy({ $0.allSatisfy { $0.2 > 0.01 } }) {
                    // Wholly in front: draw the rings (even-odd punches the holes), thinned to ~0.7 px.
                    for ring in rings {
                        var last = ring[0]
                        d += "M\(fmt(last.0)) \(fmt(last.1))"
                        for q in ring.dropFirst() where abs(q.0 - last.0) + abs(q.1 - last.1) > 0.7 {
                            d += "L\(fmt(q.0)) \(fmt(q.1))"; last = q
                        }
                        d += "Z"
                        depthSum += ring[0].2; n += 1
                    }
                    continue
                }
                // Across the horizon: the triangles that face the viewer (back faces culled).
                var t = start.index
                while t < triEnd {
                    let a = pr[Int(m.triangles[t])], b = pr[Int(m.triangles[t + 1])], cc = pr[Int(m.triangles[t + 2])]
                    t += 3
                    // Screen y grows downwards: facing the viewer means clockwise on screen.
                    let cross = (b.0 - a.0) * (cc.1 - a.1) - (b.1 - a.1) * (cc.0 - a.0)
                    guard cross < 0 else { continue }
                    let pts = [a, b, cc].map { (($0.0 * 10).rounded() / 10, ($0.1 * 10).rounded() / 10) }
                    if (pts[1].0 - pts[0].0) * (pts[2].1 - pts[0].1) - (pts[1].1 - pts[0].1) * (pts[2].0 - pts[0].0) == 0 { continue }
                    d += "M\(fmt(pts[0].0)) \(fmt(pts[0].1))L\(fmt(pts[1].0)) \(fmt(pts[1].1))L\(fmt(pts[2].0)) \(fmt(pts[2].1))Z"
                    depthSum += a.2 + b.2 + cc.2; n += 3
                }
            }
            if n > 0 { paths.append((depthSum / Double(n), m.id, d)) }
        }
        paths.sort { ($0.depth, $0.id) < ($1.depth, $1.id) }
        for p in paths { out += "<path id=\"\(p.id)\" fill-rule=\"evenodd\" fill=\"\(hex(pal["land"]!))\" d=\"\(p.d)\"/>\n" }
        // Outlines: segments whose both ends face the viewer.
        var od = ""
        for s in r.sectors {
            for run in s.runs {
                // Centre-line points are the left vertices 2i of the run; draw the parts in front, thinned.
                var penDown = false
                var last = (0.0, 0.0, 0.0)
                for i in 0..<run.points {
                    let q = project(s.positions[run.vertex + 2 * i] * o.outlineRadius)
                    guard q.2 > 0.02 else { penDown = false; continue }
                    if !penDown {
                        od += "M\(fmt(q.0)) \(fmt(q.1))"; penDown = true; last = q
                    } else if abs(q.0 - last.0) + abs(q.1 - last.1) > 0.7 || i == run.points - 1 {
                        od += "L\(fmt(q.0)) \(fmt(q.1))"; last = q
                    }
                }
            }
        }
        out += "<path fill=\"none\" stroke=\"#000000\" stroke-width=\"0.5\" stroke-linejoin=\"round\" d=\"\(od)\"/>\n"
        for p in r.points {
            let v = project(SphereMap.unit(p.at) * o.pointRadius)
            guard v.2 > 0.05 else { continue }
            out += "<circle cx=\"\(fmt(v.0))\" cy=\"\(fmt(v.1))\" r=\"\(fmt(scale * o.discRadius))\" fill=\"\(hex(pal["land"]!))\" stroke=\"#000000\" stroke-width=\"\(fmt(scale * (o.rimRadius - o.discRadius)))\"/>\n"
        }
        for cap in r.capitals {
            let v = project(SphereMap.unit(cap.at) * o.capitalRadius)
            guard v.2 > 0.05 else { continue }
            out += "<circle cx=\"\(fmt(v.0))\" cy=\"\(fmt(v.1))\" r=\"1.5\" fill=\"\(hex(pal["capital"]!))\"/>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// Writes <dir>/<view>.svg and renders <dir>/<view>.png with rsvg-convert (in parallel).
    public static func render(_ r: Globe.Result, options o: Globe.Options, to dir: String) throws {
        var svgs: [String] = []
        for v in views {
            let path = dir + "/" + v.name + ".svg"
            try FileIO.writeAtomically(svg(r, options: o, view: v), to: path)
            svgs.append(path)
        }
        var procs: [(Process, Pipe, String)] = []
        for (v, svgPath) in zip(views, svgs) {
            let png = dir + "/" + v.name + ".png"
            let tmp = dir + "/." + v.name + ".png.tmp"
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["rsvg-convert", "-f", "png", "-o", tmp, svgPath]
            let err = Pipe()
            p.standardError = err
            do { try p.run() } catch { throw StageError("cannot run rsvg-convert for the previews: \(error)") }
            procs.append((p, err, png))
        }
        for (p, err, png) in procs {
            p.waitUntilExit()
            let msg = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let tmp = (png as NSString).deletingLastPathComponent + "/." + (png as NSString).lastPathComponent + ".tmp"
            guard p.terminationStatus == 0 else {
                unlink(tmp)
                throw StageError("rsvg-convert failed for \(png): \(msg.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
            if rename(tmp, png) != 0 { throw StageError("cannot move \(tmp) to \(png)") }
        }
    }
}

import Foundation

/// Pictures of the globe for people: the mesh projected orthographically into an SVG
/// (back faces culled, painter's order back to front) and rendered to PNG by rsvg-convert.
public enum Preview {
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
        let f = Shapes.frame(view.center)
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
            for t in 0..<m.triangleCount {
                let a = pr[Int(m.triangles[3 * t])], b = pr[Int(m.triangles[3 * t + 1])], cc = pr[Int(m.triangles[3 * t + 2])]
                // Screen y grows downwards: facing the viewer means clockwise on screen.
                let cross = (b.0 - a.0) * (cc.1 - a.1) - (b.1 - a.1) * (cc.0 - a.0)
                guard cross < 0 else { continue }
                let pts = [a, b, cc].map { (($0.0 * 10).rounded() / 10, ($0.1 * 10).rounded() / 10) }
                if (pts[1].0 - pts[0].0) * (pts[2].1 - pts[0].1) - (pts[1].1 - pts[0].1) * (pts[2].0 - pts[0].0) == 0 { continue }
                d += "M\(fmt(pts[0].0)) \(fmt(pts[0].1))L\(fmt(pts[1].0)) \(fmt(pts[1].1))L\(fmt(pts[2].0)) \(fmt(pts[2].1))Z"
                depthSum += a.2 + b.2 + cc.2; n += 3
            }
            if n > 0 { paths.append((depthSum / Double(n), m.id, d)) }
        }
        paths.sort { ($0.depth, $0.id) < ($1.depth, $1.id) }
        for p in paths { out += "<path id=\"\(p.id)\" fill=\"\(hex(pal["land"]!))\" d=\"\(p.d)\"/>\n" }
        // Outlines: segments whose both ends face the viewer.
        var od = ""
        for s in r.sectors {
            var i = 0
            let pr = s.positions.map { project($0 * o.outlineRadius) }
            // Vertices come in (left, right) pairs; consecutive pairs joined by two triangles are segments.
            var t = 0
            while t < s.triangles.count {
                let r0 = Int(s.triangles[t]), r1 = Int(s.triangles[t + 1])
                let a = pr[r0], b = pr[r1]
                if a.2 > 0.02 && b.2 > 0.02 { od += "M\(fmt(a.0)) \(fmt(a.1))L\(fmt(b.0)) \(fmt(b.1))" }
                t += 6; i += 1
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

import Foundation
import Geodesy

/// A small triangle mesh in scene space: positions, normals, counter-clockwise triangles.
public struct SceneMesh: Sendable {
    public var positions: [Vec3] = []
    public var normals: [Vec3] = []
    public var triangles: [Int32] = []
    public init() {}
    public var triangleCount: Int { triangles.count / 3 }
}

public enum GlobeShapes {
    /// A latitude/longitude sphere of radius `r` whose triangle edges span at most `maxEdgeDegrees`
    /// (rows and columns of equal steps), wound outward.
    public static func sphere(radius r: Double, maxEdgeDegrees: Double) -> SceneMesh {
        precondition(maxEdgeDegrees.isFinite && maxEdgeDegrees > 0, "sphere edge must be a positive number of degrees")
        let rows = max(2, Int((180 / maxEdgeDegrees).rounded(.up)))
        let cols = max(3, Int((360 / maxEdgeDegrees).rounded(.up)))
        var m = SceneMesh()
        // Vertex (i, j): lat from +90 (i = 0) down to −90 (i = rows), lon from −180 by column.
        for i in 0...rows {
            let lat = 90 - 180 * Double(i) / Double(rows)
            for j in 0...cols {
                let lon = -180 + 360 * Double(j) / Double(cols)
                let u = SphereMap.unit(Point(lon, lat))
                m.positions.append(u * r); m.normals.append(u)
            }
        }
        let w = Int32(cols + 1)
        for i in 0..<Int32(rows) {
            for j in 0..<Int32(cols) {
                let a = i * w + j, b = a + 1, c = a + w, d = c + 1   // a top-left, c below a
                // Seen from outside, east is to the right and north up: a(NW) b(NE) c(SW) d(SE).
                if i > 0 { m.triangles += [a, c, b] }              // NW, SW, NE
                if i < Int32(rows) - 1 { m.triangles += [b, c, d] } // NE, SW, SE
            }
        }
        return m
    }

    /// A local east/north frame at a lon/lat point.
    public static func frame(_ p: Point) -> (up: Vec3, east: Vec3, north: Vec3) {
        let up = SphereMap.unit(p)
        var east = Vec3(0, 1, 0).cross(up)           // zero at the poles
        if east.length < 1e-9 { east = Vec3(0, 0, -1) }
        east = east.normalized
        // y × up points west in this convention (lon increases towards −z); flip.
        if east.dot(SphereMap.unit(Point(p.x + 0.001, p.y)) - up) < 0 { east = east * -1 }
        let north = up.cross(east).normalized
        return (up, east, north)
    }

    /// A flat disc tangent to the sphere at `p`, centred at `radius`·up, wound outward.
    public static func disc(at p: Point, radius: Double, discRadius: Double, segments: Int = 24) -> SceneMesh {
        annulus(at: p, radius: radius, inner: 0, outer: discRadius, segments: segments)
    }

    /// A flat ring (inner < r < outer) tangent at `p`; inner 0 gives a disc.
    public static func annulus(at p: Point, radius: Double, inner: Double, outer: Double, segments: Int = 24) -> SceneMesh {
        let f = frame(p)
        let c = f.up * radius
        var m = SceneMesh()
        func around(_ k: Int, _ rr: Double) -> Vec3 {
            let a = 2 * Double.pi * Double(k) / Double(segments)
            return c + f.east * (rr * cos(a)) + f.north * (rr * sin(a))
        }
        if inner == 0 {
            m.positions.append(c)
            for k in 0..<segments { m.positions.append(around(k, outer)) }
            for k in 0..<Int32(segments) { m.triangles += [0, 1 + k, 1 + (k + 1) % Int32(segments)] }
        } else {
            for k in 0..<segments { m.positions.append(around(k, inner)); m.positions.append(around(k, outer)) }
            let s = Int32(segments)
            for k in 0..<s {
                let i0 = 2 * k, o0 = i0 + 1, i1 = 2 * ((k + 1) % s), o1 = i1 + 1
                m.triangles += [i0, o0, o1, i0, o1, i1]
            }
        }
        m.normals = Array(repeating: f.up, count: m.positions.count)
        return m
    }

    /// A five-pointed star tangent at `p` (outer radius `size`), wound outward.
    public static func star(at p: Point, radius: Double, size: Double) -> SceneMesh {
        let f = frame(p)
        let c = f.up * radius
        var m = SceneMesh()
        m.positions.append(c)
        for k in 0..<10 {
            let a = Double.pi / 2 + 2 * Double.pi * Double(k) / 10
            let rr = k % 2 == 0 ? size : size * 0.4
            m.positions.append(c + f.east * (rr * cos(a)) + f.north * (rr * sin(a)))
        }
        for k in 0..<Int32(10) { m.triangles += [0, 1 + k, 1 + (k + 1) % 10] }
        m.normals = Array(repeating: f.up, count: m.positions.count)
        return m
    }
}

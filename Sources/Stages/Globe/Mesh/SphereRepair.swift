import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ
import GeoFormats

/// Repairs triangles that are counter-clockwise in the triangulation plane but clockwise on
/// the sphere (thin triangles along long lon/lat-straight edges, when a polygon had to be
/// triangulated in lon/lat): flips the edge they share with a neighbour when both resulting
/// triangles face outward. Boundary edges have no neighbour and are never flipped, so the
/// polygon's outline is unchanged.
public enum SphereRepair {
    @inlinable static func det(_ a: Vec3, _ b: Vec3, _ c: Vec3) -> Double { a.dot(b.cross(c)) }

    /// Returns how many inward-facing triangles remain.
    @discardableResult
    public static func fixInverted(_ units: [Vec3], _ tris: inout [Int32], maxPasses: Int = 8) -> Int {
        @inline(__always) func key(_ a: Int32, _ b: Int32) -> UInt64 { UInt64(UInt32(a)) << 32 | UInt64(UInt32(b)) }
        func inverted() -> [Int] {
            (0..<(tris.count / 3)).filter { t in
                det(units[Int(tris[3 * t])], units[Int(tris[3 * t + 1])], units[Int(tris[3 * t + 2])]) <= 0
            }
        }
        var bad = inverted()
        var pass = 0
        while !bad.isEmpty && pass < maxPasses {
            pass += 1
            var owner: [UInt64: Int] = [:]
            owner.reserveCapacity(tris.count)
            for t in 0..<(tris.count / 3) {
                for k in 0..<3 { owner[key(tris[3 * t + k], tris[3 * t + (k + 1) % 3])] = t }
            }
            var flipped = false
            for t in bad {
                let v = [tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]]
                guard det(units[Int(v[0])], units[Int(v[1])], units[Int(v[2])]) <= 0 else { continue }
                for k in 0..<3 {
                    let a = v[k], b = v[(k + 1) % 3], c = v[(k + 2) % 3]
                    guard let u = owner[key(b, a)], u != t else { continue }
                    let w = [tris[3 * u], tris[3 * u + 1], tris[3 * u + 2]]
                    guard let d = w.first(where: { $0 != a && $0 != b }) else { continue }
                    // (a, b, c) + (b, a, d) → (a, d, c) + (d, b, c)
                    let ua = units[Int(a)], ub = units[Int(b)], uc = units[Int(c)], ud = units[Int(d)]
                    guard det(ua, ud, uc) > 0, det(ud, ub, uc) > 0 else { continue }
                    tris[3 * t] = a; tris[3 * t + 1] = d; tris[3 * t + 2] = c
                    tris[3 * u] = d; tris[3 * u + 1] = b; tris[3 * u + 2] = c
                    for j in 0..<3 {
                        owner[key(tris[3 * t + j], tris[3 * t + (j + 1) % 3])] = t
                        owner[key(tris[3 * u + j], tris[3 * u + (j + 1) % 3])] = u
                    }
                    flipped = true
                    break
                }
            }
            bad = inverted()
            if !flipped { break }
        }
        return bad.count
    }
}

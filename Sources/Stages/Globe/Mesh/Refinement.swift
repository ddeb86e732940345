import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ
import GeoFormats

/// Subdivides a triangle mesh on the unit sphere until no edge spans more than
/// `maxEdgeDegrees`.
///
/// Red-green refinement: each pass marks every too-long edge, splits it at its great-circle
/// midpoint normalize(a + b) (symmetric in a and b), and replaces each triangle by 2, 3 or 4
/// triangles according to how many of its edges are marked. Because marking depends only on
/// the edge, both triangles sharing an edge split it at the same point: no T-junctions. Edges
/// of rings prepared by `RingPreparation` with the same limit are never marked, so borders
/// shared with other countries keep exactly their prepared vertices. Splitting at great-circle
/// midpoints keeps every triangle's orientation (a triangle split along great circles stays
/// counter-clockwise seen from outside).
public struct Refinement: Sendable {
    public var maxEdgeDegrees: Double

    public init(maxEdgeDegrees: Double) {
        self.maxEdgeDegrees = maxEdgeDegrees
    }

    /// `units`: unit vectors; `triangles`: counter-clockwise index triples.
    public func refine(_ units: inout [Vec3], _ triangles: inout [Int32]) {
        let cosLimit = cos(maxEdgeDegrees * Double.pi / 180)
        @inline(__always) func tooLong(_ a: Int32, _ b: Int32) -> Bool {
            let ua = units[Int(a)], ub = units[Int(b)]
            if ua.dot(ub) > cosLimit + 1e-12 { return false }
            return SphereMap.angleDegrees(ua, ub) > maxEdgeDegrees
        }
        var passes = 0
        while passes < 64 {
            passes += 1
            // Most passes (and most meshes) have no edge to split: then the pass would copy
            // the triangles unchanged, so stop before building it.
            var anyLong = false
            for t in 0..<(triangles.count / 3) {
                let v0 = triangles[3 * t], v1 = triangles[3 * t + 1], v2 = triangles[3 * t + 2]
                if tooLong(v0, v1) || tooLong(v1, v2) || tooLong(v2, v0) { anyLong = true; break }
            }
            if !anyLong { break }
            var mids: [UInt64: Int32] = [:]
            @inline(__always) func mid(_ a: Int32, _ b: Int32) -> Int32 {
                let k = a < b ? UInt64(UInt32(a)) << 32 | UInt64(UInt32(b)) : UInt64(UInt32(b)) << 32 | UInt64(UInt32(a))
                if let m = mids[k] { return m }
                let i = Int32(units.count)
                units.append((units[Int(a)] + units[Int(b)]).normalized)
                mids[k] = i
                return i
            }
            var out: [Int32] = []
            out.reserveCapacity(triangles.count + triangles.count / 2)
            var changed = false
            let tris = triangles
            for t in 0..<(tris.count / 3) {
                let v0 = tris[3 * t], v1 = tris[3 * t + 1], v2 = tris[3 * t + 2]
                let s0 = tooLong(v0, v1), s1 = tooLong(v1, v2), s2 = tooLong(v2, v0)
                let n = (s0 ? 1 : 0) + (s1 ? 1 : 0) + (s2 ? 1 : 0)
                if n == 0 { out.append(v0); out.append(v1); out.append(v2); continue }
                changed = true
                if n == 3 {
                    let m01 = mid(v0, v1), m12 = mid(v1, v2), m20 = mid(v2, v0)
                    out += [v0, m01, m20, m01, v1, m12, m20, m12, v2, m01, m12, m20]
                    continue
                }
                // Rotate so that the marked edges come first: (a, b) is always marked.
                var a = v0, b = v1, c = v2
                if n == 1 {
                    if s1 { (a, b, c) = (v1, v2, v0) } else if s2 { (a, b, c) = (v2, v0, v1) }
                    let m = mid(a, b)
                    out.append(a); out.append(m); out.append(c); out.append(m); out.append(b); out.append(c)
                } else {
                    // Two marked: (a, b) and (b, c); (c, a) is not.
                    if !s0 { (a, b, c) = (v1, v2, v0) } else if !s1 { (a, b, c) = (v2, v0, v1) }
                    let mab = mid(a, b), mbc = mid(b, c)
                    out.append(mab); out.append(b); out.append(mbc)
                    // Quadrilateral a, mab, mbc, c: cut along the shorter diagonal.
                    let d1 = SphereMap.angleDegrees(units[Int(a)], units[Int(mbc)])
                    let d2 = SphereMap.angleDegrees(units[Int(mab)], units[Int(c)])
                    if d1 <= d2 {
                        out.append(a); out.append(mab); out.append(mbc); out.append(a); out.append(mbc); out.append(c)
                    } else {
                        out.append(a); out.append(mab); out.append(c); out.append(mab); out.append(mbc); out.append(c)
                    }
                }
            }
            triangles = out
            if !changed { break }
        }
    }
}

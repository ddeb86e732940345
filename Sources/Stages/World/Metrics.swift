import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ

/// Shape error of the simplified arcs, measured on the ground in kilometres (EarthDistance).
///
/// For every simplified segment that replaced a chain of original vertices, the error is
/// the larger of (1) the farthest removed vertex from the segment (the original boundary is
/// never farther from the segment than its farthest vertex) and (2) the farthest point of the
/// segment from the chain, sampled where each removed vertex projects onto the segment. An
/// arc's error is its worst segment's; a country's Hausdorff distance to its input (on the
/// parts it keeps) is bounded by the worst arc of its rings.
enum Metrics {
    /// Per arc: the worst error (km) and each vertex's distance to the segment that replaced it
    /// (0 for kept vertices; the last vertex is left out, it starts the next arc of the ring).
    static func arcErrors(_ s: ArcSimplifier) -> (worst: [Double], vertexKm: [[Float]]) {
        let g = s.graph
        let pts = g.points
        var errors = [Double](repeating: 0, count: g.arcs.count)
        var vertexKm = g.arcs.map { [Float](repeating: 0, count: $0.count - 1) }
        for a in g.arcs.indices where g.uses[a] > 0 {
            let ids = g.arcs[a]
            var prev = 0
            var worst = 0.0
            for k in 1..<ids.count where s.keep[a][k] {
                if k - prev >= 2 {
                    let pa = pts[Int(ids[prev])], pb = pts[Int(ids[k])]
                    // (1) original vertices to the segment
                    for i in (prev + 1)..<k {
                        let v = Int(ids[i])
                        let d = EarthDistance.toSegment(pts[v], cosLat: s.cosLat[v], pa, pb)
                        vertexKm[a][i] = Float(d)
                        worst = max(worst, d)
                    }
                    // (2) points of the segment (where the removed vertices project) to the chain
                    let n = k - prev - 1
                    let step = max(1, n / 64)
                    let dx = pb.x - pa.x, dy = pb.y - pa.y
                    for i in stride(from: prev + 1, to: k, by: step) {
                        let v = pts[Int(ids[i])]
                        let c = s.cosLat[Int(ids[i])]
                        let len2 = dx * dx * c * c + dy * dy
                        let t = len2 > 0 ? min(max(((v.x - pa.x) * dx * c * c + (v.y - pa.y) * dy) / len2, 0), 1) : 0
                        let q = Point(pa.x + t * dx, pa.y + t * dy)
                        let cq = EarthDistance.cosLat(q)
                        var best = Double.infinity
                        for j in prev..<k { best = min(best, EarthDistance.toSegment(q, cosLat: cq, pts[Int(ids[j])], pts[Int(ids[j + 1])])) }
                        worst = max(worst, best)
                    }
                }
                prev = k
            }
            errors[a] = worst
        }
        return (errors, vertexKm)
    }
    /// The p-th percentile (0…100) by nearest rank: the rank-th smallest value, found by
    /// selection (Hoare's quickselect, the middle element as pivot) rather than by sorting
    /// all of them (a sixth of the measuring step). The values are distances, never NaN.
    static func percentile<T: BinaryFloatingPoint>(_ values: [T], _ p: Double) -> T {
        guard !values.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(values.count)).rounded(.up))
        let k = min(max(rank, 1), values.count) - 1
        var v = values
        return v.withUnsafeMutableBufferPointer { b -> T in
            var lo = 0, hi = b.count - 1
            while lo < hi {
                let pivot = b[lo + (hi - lo) / 2]
                var i = lo, j = hi
                while i <= j {
                    while b[i] < pivot { i += 1 }
                    while pivot < b[j] { j -= 1 }
                    if i <= j { b.swapAt(i, j); i += 1; j -= 1 }
                }
                // b[lo...j] ≤ pivot ≤ b[i...hi], and everything strictly between j and i equals it.
                if k <= j { hi = j } else if k >= i { lo = i } else { return b[k] }
            }
            return b[k]
        }
    }
}

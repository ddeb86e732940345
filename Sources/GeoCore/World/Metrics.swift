import Foundation

/// Shape error of the simplified arcs, measured on the sphere in kilometres.
///
/// For every simplified segment that replaced a chain of original vertices, the error is
/// the larger of (1) the farthest removed vertex from the segment (the original boundary is
/// never farther from the segment than its farthest vertex) and (2) the farthest point of the
/// segment from the chain, sampled where each removed vertex projects onto the segment. An
/// arc's error is its worst segment's; a country's Hausdorff distance to its input (on the
/// parts it keeps) is bounded by the worst arc of its rings.
enum Metrics {
    static func arcErrors(_ s: ArcSimplifier) -> [Double] {
        let g = s.graph
        var errors = [Double](repeating: 0, count: g.arcs.count)
        s.unit.withUnsafeBufferPointer { u in
            for a in g.arcs.indices where g.uses[a] > 0 {
                let ids = g.arcs[a]
                var prev = 0
                var worst = 0.0
                for k in 1..<ids.count where s.keep[a][k] {
                    if k - prev >= 2 {
                        let pa = u[Int(ids[prev])], pb = u[Int(ids[k])]
                        // (1) original vertices to the segment
                        for i in (prev + 1)..<k { worst = max(worst, Sphere.segmentDistance(u[Int(ids[i])], pa, pb)) }
                        // (2) points of the segment to the chain
                        let n = k - prev - 1
                        let step = max(1, n / 64)
                        let axis = Sphere.cross(pa, pb)
                        let axisLen = (axis * axis).sum().squareRoot()
                        for i in stride(from: prev + 1, to: k, by: step) {
                            var q: SIMD3<Double>
                            let v = u[Int(ids[i])]
                            if axisLen > 1e-15 {
                                let nrm = axis / axisLen
                                q = v - nrm * Sphere.dot(v, nrm)  // onto the great circle
                                let ql = (q * q).sum().squareRoot()
                                q = ql > 0 ? q / ql : pa
                                if Sphere.dot(Sphere.cross(pa, q), axis) < 0 { q = pa }
                                else if Sphere.dot(Sphere.cross(q, pb), axis) < 0 { q = pb }
                            } else { q = pa }
                            var best = Double.infinity
                            for j in prev..<k { best = min(best, Sphere.segmentDistance(q, u[Int(ids[j])], u[Int(ids[j + 1])])) }
                            worst = max(worst, best)
                        }
                    }
                    prev = k
                }
                errors[a] = worst * Sphere.radiusKm
            }
        }
        return errors
    }

    /// The p-th percentile (0…100) by nearest rank.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

import Foundation

/// Distances on the sphere for the world stage. Positions become unit vectors once; the
/// distance from a point to a segment is measured to the great-circle arc between the
/// segment's ends (cross-track distance), so an error bound means the same thing in
/// kilometres at the equator and at 70°N.
enum Sphere {
    /// Mean Earth radius (IUGG), km: converts unit-sphere distances to kilometres.
    static let radiusKm = 6371.0088

    @inline(__always) static func unit(_ p: Point) -> SIMD3<Double> {
        let lat = p.y * .pi / 180, lon = p.x * .pi / 180
        let c = cos(lat)
        return SIMD3(c * cos(lon), c * sin(lon), sin(lat))
    }

    @inline(__always) static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    @inline(__always) static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        (a * b).sum()
    }

    @inline(__always) static func chord(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return (d * d).sum().squareRoot()
    }

    /// Distance (unit sphere, radians for small values) from `p` to the great-circle segment
    /// a–b: the cross-track distance where p projects inside the segment, else the distance
    /// to the nearer end.
    @inline(__always) static func segmentDistance(_ p: SIMD3<Double>, _ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let n = cross(a, b)
        let nn = (n * n).sum().squareRoot()
        if nn < 1e-15 { return min(chord(p, a), chord(p, b)) }
        if dot(cross(a, p), n) >= 0 && dot(cross(p, b), n) >= 0 {
            return abs(dot(p, n)) / nn
        }
        return min(chord(p, a), chord(p, b))
    }
}

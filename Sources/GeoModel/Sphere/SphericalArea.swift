import Foundation
import Geodesy

/// Ring areas on a sphere of a given radius.
///
/// `SphereMap.lonLatRingArea` integrates each lon/lat edge exactly; this is the cheaper
/// vertex form of the same integral, for the many rings whose area only needs to be told
/// apart from a threshold (the world stage measures rings near its thresholds again on the
/// ellipsoid).
public enum SphericalArea {
    /// Unsigned area of a closed ring on a sphere of `radius` (Geodesy's `Sphere.approximateRingArea`).
    @inlinable public static func approximateRingArea(_ ring: Ring, radius: Double) -> Double {
        Sphere.approximateRingArea(ring, radius: radius)
    }

    /// Unsigned area (m²) of a closed lon/lat ring on the WGS84 ellipsoid, estimated without
    /// solving a geodesic per edge: each vertex is moved to its authalic latitude (which maps
    /// the ellipsoid onto the sphere of equal area, areas kept) and each edge taken as the
    /// great circle there, summed as spherical triangles with the pole. Geodesic edges differ
    /// little from those great circles while they are short: measured against PROJ's
    /// geodesic area, within 5e-5 for every part of the 1:10m and 1:50m worlds, 1.2e-4 at
    /// 1:110m, 2.7e-4 for any box or triangle with edges up to 30° (PipelineTests). Nil, as
    /// out of that range, for a ring with an edge over `maxEdgeDegrees` in longitude or
    /// latitude, a vertex at a pole, or that winds around a pole; 0 for rings of fewer than
    /// three distinct positions.
    public static func authalicRingArea(_ ring: Ring, maxEdgeDegrees: Double = 20) -> Double? {
        let n = ring.count - 1
        guard n >= 3 else { return 0 }
        let e2 = Authalic.e2, e = Authalic.e
        // tan(ξ/2) of the authalic latitude ξ: sin ξ = q(φ)/q(90°).
        @inline(__always) func halfTan(_ latDegrees: Double) -> Double {
            let s = sin(latDegrees * .pi / 180)
            let q = (1 - e2) * (s / (1 - e2 * s * s) + atanh(e * s) / e)
            let sx = max(-1, min(1, q / Authalic.qp))
            return sx / (1 + (1 - sx * sx).squareRoot())
        }
        guard abs(ring[0].y) < 90 else { return nil }
        var sum = 0.0, turn = 0.0
        var t1 = halfTan(ring[0].y)
        for k in 0..<n {
            let a = ring[k], b = ring[k + 1]
            guard abs(b.y) < 90, abs(b.y - a.y) <= maxEdgeDegrees else { return nil }
            var dl = b.x - a.x
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            guard abs(dl) <= maxEdgeDegrees else { return nil }
            turn += dl
            let t2 = halfTan(b.y)
            sum += 2 * atan2(tan(dl * .pi / 360) * (t1 + t2), 1 + t1 * t2)
            t1 = t2
        }
        guard abs(turn) < 180 else { return nil }
        return abs(sum) * Authalic.radiusSquared
    }

    /// WGS84's authalic constants: eccentricity, q at the pole, the authalic radius squared (m²).
    enum Authalic {
        static let e2 = Earth.wgs84Flattening * (2 - Earth.wgs84Flattening)
        static let e = e2.squareRoot()
        static let qp = (1 - e2) * (1 / (1 - e2) + atanh(e) / e)
        static let radiusSquared = Earth.wgs84EquatorialRadius * Earth.wgs84EquatorialRadius * qp / 2
    }
}

import Foundation
import GeoModel

/// Ring areas on a sphere of a given radius.
///
/// `SphereMap.lonLatRingArea` integrates each lon/lat edge exactly; this is the cheaper
/// vertex form of the same integral, for the many rings whose area only needs to be told
/// apart from a threshold (the world stage measures rings near its thresholds again on the
/// ellipsoid).
public enum SphericalArea {
    /// Unsigned area of a closed ring (first position repeated last) on a sphere of `radius`,
    /// in the square of radius's unit: Σ (λᵢ₊₁ − λᵢ₋₁)·sin φᵢ·R²/2 with the longitude steps
    /// wrapped to ±180°. 0 for rings of fewer than three distinct positions.
    public static func approximateRingArea(_ ring: Ring, radius: Double) -> Double {
        let n = ring.count - 1
        guard n >= 3 else { return 0 }
        var sum = 0.0
        for k in 0..<n {
            let prev = ring[(k + n - 1) % n], next = ring[k + 1]
            var dl = next.x - prev.x
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            sum += dl * .pi / 180 * sin(ring[k].y * .pi / 180)
        }
        return abs(sum) * (radius * radius) / 2
    }
}

import Foundation
import Geodesy

/// Error distances on the Earth, in kilometres.
///
/// A GeoJSON segment is a straight line in longitude/latitude (RFC 7946 §3.1.1), so the
/// distance that matters is from a point to that lon/lat segment, measured on the ground.
/// It is computed in the point's own local equidistant frame (equirectangular at the point's
/// latitude: east–west degrees shrink by cos φ), which is exact to first order for the
/// short distances simplification deals with, at the equator and at 70°N alike.
public enum EarthDistance {
    /// Kilometres per degree of latitude on the mean-radius sphere.
    @inlinable static var kmPerDegree: Double { Earth.kmPerDegree }

    /// Distance (km) from `p` (with `cosLat` = cos of its latitude) to the lon/lat segment a–b.
    @inlinable @inline(__always) public static func toSegment(_ p: Point, cosLat: Double, _ a: Point, _ b: Point) -> Double {
        let ax = (a.x - p.x) * cosLat, ay = a.y - p.y
        let dx = (b.x - a.x) * cosLat, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? -(ax * dx + ay * dy) / len2 : 0
        t = min(max(t, 0), 1)
        let x = ax + t * dx, y = ay + t * dy
        return (x * x + y * y).squareRoot() * kmPerDegree
    }

    @inlinable @inline(__always) public static func cosLat(_ p: Point) -> Double { cos(p.y * .pi / 180) }
}

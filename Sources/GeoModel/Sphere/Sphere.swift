import Foundation
import Geodesy

/// The scene's sphere convention (CONTRACTS §2): a point at (lat, lon) in degrees sits at
/// x = r·cos(lat)·cos(-lon), y = r·sin(lat), z = r·cos(lat)·sin(-lon).
public enum SphereMap {
    static let rad = Double.pi / 180

    /// Unit vector of a lon/lat point. Longitude −180 is mapped as +180 so that the two sides of
    /// Natural Earth's antimeridian cut land on bit-identical positions; latitude ±90 gives the
    /// exact pole whatever the longitude.
    @inlinable public static func unit(_ p: Point) -> Vec3 {
        let lat = p.y
        if lat <= -90 { return Vec3(0, -1, 0) }
        if lat >= 90 { return Vec3(0, 1, 0) }
        let lon = p.x == -180 ? 180 : p.x
        let phi = lat * (Double.pi / 180), lam = -lon * (Double.pi / 180)
        let c = cos(phi)
        return Vec3(c * cos(lam), sin(phi), c * sin(lam))
    }

    /// Lon/lat in degrees of a (not necessarily unit) vector.
    public static func lonLat(_ v: Vec3) -> Point {
        let n = v.normalized
        let lat = asin(max(-1, min(1, n.y))) / rad
        let lon = -atan2(n.z, n.x) / rad
        return Point(lon, lat)
    }

    /// Angle in degrees between two unit vectors (stable for small and large angles).
    @inlinable public static func angleDegrees(_ a: Vec3, _ b: Vec3) -> Double {
        atan2(a.cross(b).length, a.dot(b)) * (180 / Double.pi)
    }

    /// Area of the spherical triangle of three unit vectors (steradians, signed: positive when
    /// a, b, c run counter-clockwise seen from outside). Van Oosterom–Strackee.
    @inlinable public static func triangleArea(_ a: Vec3, _ b: Vec3, _ c: Vec3) -> Double {
        let num = a.dot(b.cross(c))
        let den = 1 + a.dot(b) + b.dot(c) + c.dot(a)
        return 2 * atan2(num, den)
    }

    /// Exact area on the unit sphere (steradians) of a ring whose edges are straight lines in
    /// lon/lat (RFC 7946's reading of an edge), counter-clockwise positive:
    /// A = −∮ sin(lat) dlon, integrated in closed form along each edge.
    public static func lonLatRingArea(_ ring: Ring) -> Double {
        guard ring.count >= 4 else { return 0 }
        var sum = 0.0
        for i in 0..<(ring.count - 1) {
            let a = ring[i], b = ring[i + 1]
            let dl = (b.x - a.x) * rad
            if dl == 0 { continue }
            let p1 = a.y * rad, p2 = b.y * rad
            let dp = p2 - p1
            let meanSin = abs(dp) < 1e-9 ? sin((p1 + p2) / 2) : (cos(p1) - cos(p2)) / dp
            sum += dl * meanSin
        }
        // ∮ over a counter-clockwise ring of −sin(lat) dlon gives the enclosed area measured
        // from the south pole only when the ring does not enclose a pole; for lon/lat-planar
        // rings (no ring winds around a pole in lon) the two agree.
        return -sum
    }

    public static func lonLatArea(_ polygon: Polygon) -> Double {
        var a = abs(lonLatRingArea(polygon.exterior))
        for h in polygon.holes { a -= abs(lonLatRingArea(h)) }
        return a
    }
}

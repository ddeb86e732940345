import Foundation

/// A position in degrees (WGS84 latitude and longitude, treated on a sphere).
public struct Coordinate: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Distances and paths on the sphere of the mean Earth radius (IUGG, 6371.0088 km). The
/// 12-nautical-mile rule and the nearest city use these, not the ellipsoid: the difference
/// at 22 km is under 0.5 %, the same on every platform, and needs no C library.
public enum Sphere {
    public static let earthRadiusKm = 6371.0088
    static let degrees = Double.pi / 180

    struct Vector { var x, y, z: Double }

    static func vector(latitude: Double, longitude: Double) -> Vector {
        let la = latitude * degrees, lo = longitude * degrees
        let c = cos(la)
        return Vector(x: c * cos(lo), y: c * sin(lo), z: sin(la))
    }

    static func dot(_ a: Vector, _ b: Vector) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
    static func cross(_ a: Vector, _ b: Vector) -> Vector {
        Vector(x: a.y * b.z - a.z * b.y, y: a.z * b.x - a.x * b.z, z: a.x * b.y - a.y * b.x)
    }
    static func norm(_ a: Vector) -> Double { sqrt(dot(a, a)) }

    /// Angle between two unit vectors in radians, accurate at every size (atan2, not acos).
    static func angle(_ a: Vector, _ b: Vector) -> Double { atan2(norm(cross(a, b)), dot(a, b)) }

    /// Angular distance (radians) from p to the great-circle arc a–b (the shorter arc).
    static func angleToArc(_ p: Vector, _ a: Vector, _ b: Vector) -> Double {
        let n = cross(a, b)
        let len = norm(n)
        if len < 1e-15 { return min(angle(p, a), angle(p, b)) }
        let nu = Vector(x: n.x / len, y: n.y / len, z: n.z / len)
        let s = dot(p, nu)
        // p projected onto the arc's plane lies between a and b ⇔ it is on the inner side
        // of both planes through the origin and an endpoint (normal to the arc's plane).
        let q = Vector(x: p.x - s * nu.x, y: p.y - s * nu.y, z: p.z - s * nu.z)
        if dot(cross(a, q), nu) >= 0 && dot(cross(q, b), nu) >= 0 {
            return asin(min(1, abs(s)))
        }
        return min(angle(p, a), angle(p, b))
    }

    /// Great-circle distance in km (haversine).
    public static func distanceKm(_ a: Coordinate, _ b: Coordinate) -> Double {
        let p1 = a.latitude * degrees, p2 = b.latitude * degrees
        let dp = p2 - p1, dl = (b.longitude - a.longitude) * degrees
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * earthRadiusKm * asin(min(1, sqrt(h)))
    }

    /// The point a fraction `t` (0…1) of the way along the great circle from `a` to `b`
    /// (spherical linear interpolation): equal steps of `t` are equal distances, so a figure
    /// moved by elapsed time advances at constant speed along the leg. Antipodal endpoints
    /// have no unique great circle; the path then goes through the meridian of `a`'s pole side.
    public static func position(from a: Coordinate, to b: Coordinate, fraction t: Double) -> Coordinate {
        let t = min(1, max(0, t))
        let va = vector(latitude: a.latitude, longitude: a.longitude)
        let vb = vector(latitude: b.latitude, longitude: b.longitude)
        let omega = angle(va, vb)
        if omega < 1e-12 { return a }
        var v: Vector
        let so = sin(omega)
        if so < 1e-12 {
            // Antipodes: any great circle works; pick the one through the pole nearest a.
            let pole = Vector(x: 0, y: 0, z: a.latitude >= 0 ? 1 : -1)
            var m = cross(cross(va, pole), va)
            let l = norm(m)
            m = l < 1e-12 ? Vector(x: 1, y: 0, z: 0) : Vector(x: m.x / l, y: m.y / l, z: m.z / l)
            let th = t * Double.pi
            v = Vector(x: va.x * cos(th) + m.x * sin(th), y: va.y * cos(th) + m.y * sin(th), z: va.z * cos(th) + m.z * sin(th))
        } else {
            let wa = sin((1 - t) * omega) / so, wb = sin(t * omega) / so
            v = Vector(x: wa * va.x + wb * vb.x, y: wa * va.y + wb * vb.y, z: wa * va.z + wb * vb.z)
        }
        if t == 0 { return a }
        if t == 1 { return b }
        let lat = atan2(v.z, sqrt(v.x * v.x + v.y * v.y)) / degrees
        let lon = atan2(v.y, v.x) / degrees
        return Coordinate(latitude: lat, longitude: lon)
    }
}

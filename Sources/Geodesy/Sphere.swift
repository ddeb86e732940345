import Foundation

/// Distances and paths on the sphere of the mean Earth radius (`Earth.meanRadiusKm`). The
/// lookup's 12-nautical-mile rule, the nearest city and the routes use these, not the
/// ellipsoid: the difference at 22 km is under 0.5 %, the same on every platform, and needs
/// no C library.
public enum Sphere {
    public static let earthRadiusKm = Earth.meanRadiusKm
    /// Radians per degree.
    public static let degrees = Double.pi / 180

    /// The geocentric unit vector of a position (z to the north pole, x to longitude 0).
    @inlinable public static func vector(latitude: Double, longitude: Double) -> Vec3 {
        let la = latitude * degrees, lo = longitude * degrees
        let c = cos(la)
        return Vec3(c * cos(lo), c * sin(lo), sin(la))
    }

    @inlinable public static func vector(_ p: Point) -> Vec3 { vector(latitude: p.y, longitude: p.x) }

    @inlinable public static func dot(_ a: Vec3, _ b: Vec3) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
    @inlinable public static func cross(_ a: Vec3, _ b: Vec3) -> Vec3 {
        Vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
    @inlinable public static func norm(_ a: Vec3) -> Double { sqrt(dot(a, a)) }

    /// Angle between two unit vectors in radians, accurate at every size (atan2, not acos).
    @inlinable public static func angle(_ a: Vec3, _ b: Vec3) -> Double { atan2(norm(cross(a, b)), dot(a, b)) }

    /// Angular distance (radians) from p to the great-circle arc a–b (the shorter arc).
    @inlinable public static func angleToArc(_ p: Vec3, _ a: Vec3, _ b: Vec3) -> Double {
        let n = cross(a, b)
        let len = norm(n)
        if len < 1e-15 { return min(angle(p, a), angle(p, b)) }
        let nu = Vec3(n.x / len, n.y / len, n.z / len)
        let s = dot(p, nu)
        // p projected onto the arc's plane lies between a and b ⇔ it is on the inner side
        // of both planes through the origin and an endpoint (normal to the arc's plane).
        let q = Vec3(p.x - s * nu.x, p.y - s * nu.y, p.z - s * nu.z)
        if dot(cross(a, q), nu) >= 0 && dot(cross(q, b), nu) >= 0 {
            return asin(min(1, abs(s)))
        }
        return min(angle(p, a), angle(p, b))
    }

    /// Great-circle distance in km (haversine).
    @inlinable public static func distanceKm(_ a: Point, _ b: Point) -> Double {
        let p1 = a.latitude * degrees, p2 = b.latitude * degrees
        let dp = p2 - p1, dl = (b.longitude - a.longitude) * degrees
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * earthRadiusKm * asin(min(1, sqrt(h)))
    }

    /// The point a fraction `t` (0…1) of the way along the great circle from `a` to `b`
    /// (spherical linear interpolation): equal steps of `t` are equal distances, so a figure
    /// moved by elapsed time advances at constant speed along the leg. Antipodal endpoints
    /// have no unique great circle; the path then goes through the meridian of `a`'s pole side.
    public static func position(from a: Point, to b: Point, fraction t: Double) -> Point {
        let t = min(1, max(0, t))
        let va = vector(latitude: a.latitude, longitude: a.longitude)
        let vb = vector(latitude: b.latitude, longitude: b.longitude)
        let omega = angle(va, vb)
        if omega < 1e-12 { return a }
        var v: Vec3
        let so = sin(omega)
        if so < 1e-12 {
            // Antipodes: any great circle works; pick the one through the pole nearest a.
            let pole = Vec3(0, 0, a.latitude >= 0 ? 1 : -1)
            var m = cross(cross(va, pole), va)
            let l = norm(m)
            m = l < 1e-12 ? Vec3(1, 0, 0) : Vec3(m.x / l, m.y / l, m.z / l)
            let th = t * Double.pi
            v = Vec3(va.x * cos(th) + m.x * sin(th), va.y * cos(th) + m.y * sin(th), va.z * cos(th) + m.z * sin(th))
        } else {
            let wa = sin((1 - t) * omega) / so, wb = sin(t * omega) / so
            v = Vec3(wa * va.x + wb * vb.x, wa * va.y + wb * vb.y, wa * va.z + wb * vb.z)
        }
        if t == 0 { return a }
        if t == 1 { return b }
        let lat = atan2(v.z, sqrt(v.x * v.x + v.y * v.y)) / degrees
        let lon = atan2(v.y, v.x) / degrees
        return Point(latitude: lat, longitude: lon)
    }

    /// Unsigned area of a closed ring (first position repeated last) on a sphere of `radius`,
    /// in the square of radius's unit: Σ (λᵢ₊₁ − λᵢ₋₁)·sin φᵢ·R²/2 with the longitude steps
    /// wrapped to ±180°. 0 for rings of fewer than three distinct positions. The vertex form of
    /// `SphereMap.lonLatRingArea`'s integral, for rings whose area only needs to be told apart
    /// from a threshold (GeoModel's `SphericalArea`, the game's loop cap in TerritoryRules).
    public static func approximateRingArea(_ ring: [Point], radius: Double) -> Double {
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

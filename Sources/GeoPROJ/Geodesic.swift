import CPROJ
import GeoModel
import Geodesy

/// Geodesic measures on the WGS84 ellipsoid (Karney's algorithms, shipped in libproj).
public struct Geodesic: Sendable {
    var g = geod_geodesic()
    public static let wgs84 = Geodesic(equatorialRadius: Earth.wgs84EquatorialRadius, flattening: Earth.wgs84Flattening)
    /// The authalic (equal-area) sphere radius of WGS84, in metres: a sphere with this
    /// radius has the ellipsoid's surface area, so area on it scales to the unit sphere.
    public static let authalicRadius = Earth.authalicRadiusKm * 1000

    public init(equatorialRadius a: Double, flattening f: Double) { geod_init(&g, a, f) }

    /// Signed area in m² of a ring given as lon/lat (counter-clockwise positive).
    /// The closing point may be repeated or not.
    public func ringArea(_ ring: Ring) -> Double {
        var pts = ring
        if pts.count > 1 && pts.first == pts.last { pts.removeLast() }
        guard pts.count >= 3 else { return 0 }
        var lats = pts.map(\.y), lons = pts.map(\.x)
        var area = 0.0, perimeter = 0.0
        withUnsafePointer(to: g) { geod_polygonarea($0, &lats, &lons, Int32(pts.count), &area, &perimeter) }
        return area
    }

    /// Area in m² of a polygon (outer minus holes), whatever the winding.
    public func area(_ polygon: Polygon) -> Double {
        var a = abs(ringArea(polygon.exterior))
        for h in polygon.holes { a -= abs(ringArea(h)) }
        return a
    }

    public func area(_ geometry: Geometry) -> Double {
        geometry.polygons.reduce(0) { $0 + area($1) }
    }

    /// Distance in metres between two lon/lat points.
    public func distance(_ a: Point, _ b: Point) -> Double {
        var s12 = 0.0
        withUnsafePointer(to: g) { geod_inverse($0, a.y, a.x, b.y, b.x, &s12, nil, nil) }
        return s12
    }
}

/// The two geodesic problems on the ellipsoid (Karney's algorithms in libproj), with the
/// azimuths that `Geodesic.distance` leaves out.
extension Geodesic {
    /// Distance (m) from (lat1, lon1) to (lat2, lon2), degrees, and the azimuths (degrees
    /// clockwise from north) of the geodesic at both ends.
    public func inverse(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> (distance: Double, azimuth1: Double, azimuth2: Double) {
        var s12 = 0.0, azi1 = 0.0, azi2 = 0.0
        withUnsafePointer(to: g) { geod_inverse($0, lat1, lon1, lat2, lon2, &s12, &azi1, &azi2) }
        return (s12, azi1, azi2)
    }

    /// The point `distance` m from (lat, lon) along `azimuth` (degrees clockwise from north),
    /// and the geodesic's azimuth there.
    public func direct(lat: Double, lon: Double, azimuth: Double, distance: Double) -> (lat: Double, lon: Double, azimuth: Double) {
        var lat2 = 0.0, lon2 = 0.0, azi2 = 0.0
        withUnsafePointer(to: g) { geod_direct($0, lat, lon, azimuth, distance, &lat2, &lon2, &azi2) }
        return (lat2, lon2, azi2)
    }
}

/// Polygon areas with `geod_polygonarea`'s exact result, each edge's area term computed once (`GeodesicAreas`):
/// an edge two rings share (a border between neighbours, walked in opposite directions)
/// costs one geodesic inverse instead of two, and no perimeter is computed. The sum is
/// `geod_polygonarea`'s (GeographicLib's error-free accumulator, the prime-meridian
/// crossings, the reduction to (−area0/2, area0/2]), in its order, so every ring's area is
/// bit for bit PROJ's (`GeodesicAreasTests` compares them on every map unit of the world).
extension Geodesic {
    /// The area term S12 (m²) of the geodesic from `a` to `b` (lon/lat degrees; longitudes as
    /// `geod_polygonarea` normalises them, see `normalizedLongitude`). Reversing the edge negates it.
    func edgeArea(_ a: Point, _ b: Point) -> Double {
        var s = 0.0
        withUnsafePointer(to: g) { _ = geod_geninverse($0, a.y, a.x, b.y, b.x, nil, nil, nil, nil, nil, nil, &s) }
        return s
    }

    /// A longitude as `geod_polygonarea` reads it: reduced to (−180, 180].
    static func normalizedLongitude(_ x: Double) -> Double {
        if x > -180 && x <= 180 { return x }
        let r = x.remainder(dividingBy: 360)
        return r != -180 ? r : 180
    }

    /// The whole ellipsoid's area (m²).
    var totalArea: Double { 4 * Double.pi * g.c2 }

    /// Signed ring area (m², counter-clockwise positive) from its edges' area terms, equal to
    /// `ringArea(ring)`. `ring` is the ring without its closing point and with normalised
    /// longitudes; `edgeArea(i)` is the term of the edge from point i to point (i + 1) mod n.
    func ringArea(_ ring: [Point], edgeArea: (Int) -> Double) -> Double {
        let n = ring.count
        guard n >= 3 else { return 0 }
        var sum = GeodesicAccumulator()
        var crossings = 0
        for i in 0..<(n - 1) {
            sum.add(edgeArea(i))
            crossings += Self.transit(ring[i].x, ring[i + 1].x)
        }
        var t = sum
        t.add(edgeArea(n - 1))
        crossings += Self.transit(ring[n - 1].x, ring[0].x)
        // The reduction of geod_polygon_compute (not reversed, signed).
        let area0 = totalArea
        t.remainder(area0)
        if crossings & 1 != 0 { t.add((t.s < 0 ? 1 : -1) * area0 / 2) }
        t.negate()
        if t.s > area0 / 2 { t.add(-area0) } else if t.s <= -area0 / 2 { t.add(area0) }
        return 0 + t.s
    }

    /// ±1 when the edge crosses the prime meridian eastward/westward (GeographicLib's `transit`;
    /// the longitudes are normalised already). Only an edge whose ends lie on both sides of 0°
    /// needs the difference.
    @inline(__always) static func transit(_ l1: Double, _ l2: Double) -> Int {
        if l1 <= 0 && l2 > 0 { return angleDifference(l1, l2) > 0 ? 1 : 0 }
        if l2 <= 0 && l1 > 0 { return angleDifference(l1, l2) < 0 ? -1 : 0 }
        return 0
    }

    /// y − x reduced to (−180, 180], as GeographicLib's `AngDiff` (error term dropped).
    static func angleDifference(_ x: Double, _ y: Double) -> Double {
        let (d0, t) = GeodesicAccumulator.twoSum(normalizedLongitude(-x), normalizedLongitude(y))
        let d = normalizedLongitude(d0)
        return GeodesicAccumulator.twoSum(d == 180 && t > 0 ? -180 : d, t).sum
    }
}

/// GeographicLib's error-free accumulator (a double-double sum).
struct GeodesicAccumulator {
    var s = 0.0, t = 0.0

    /// u + v = sum + error exactly (Knuth's two-sum).
    @inline(__always) static func twoSum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let s = u + v
        var up = s - v, vpp = s - up
        up -= u; vpp -= v
        return (s, s != 0 ? 0 - (up + vpp) : s)
    }

    mutating func add(_ y: Double) {
        let (z, u) = Self.twoSum(y, t)
        (s, t) = Self.twoSum(z, s)
        if s == 0 { s = u } else { t = t + u }
    }

    mutating func remainder(_ y: Double) {
        s = s.remainder(dividingBy: y)
        add(0)
    }

    mutating func negate() { s = -s; t = -t }
}

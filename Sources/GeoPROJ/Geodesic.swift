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

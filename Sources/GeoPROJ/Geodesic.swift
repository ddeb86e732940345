import CPROJ
import GeoModel

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

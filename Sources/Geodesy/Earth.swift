// The Earth's figure: the constants every distance and area in the pipeline and the apps is
// measured with, written once.

/// The Earth's radii and the WGS84 ellipsoid.
public enum Earth {
    /// The mean radius R₁ = (2a + b)/3 of WGS84 (IUGG), in km: the sphere the lookup, the
    /// cities and the simplifier's error distances measure great circles on.
    /// (Computed and inlinable, these two fold to constants in every module: a `static let`
    /// is read through an accessor and a once-check, per distance in the simplifier's loops.)
    @inlinable public static var meanRadiusKm: Double { 6371.0088 }
    /// Kilometres per degree of a great circle on the mean-radius sphere.
    @inlinable public static var kmPerDegree: Double { meanRadiusKm * Double.pi / 180 }
    /// The authalic (equal-area) radius of WGS84 in km, as H3 4.5 spells it: a sphere with
    /// this radius has the ellipsoid's surface area.
    public static let authalicRadiusKm = 6371.007180918475
    /// WGS84's semi-major axis (m) and flattening.
    public static let wgs84EquatorialRadius = 6378137.0
    public static let wgs84Flattening = 1 / 298.257223563
}

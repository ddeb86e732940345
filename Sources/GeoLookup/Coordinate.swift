// The lookup's coordinates and great-circle geometry are Geodesy's (one point type, one
// Earth radius for the pipeline and the apps), seen through GeoLookup.
import Geodesy

/// A position in degrees (WGS84 latitude and longitude, treated on a sphere): Geodesy's
/// `Point` under the name the apps' code uses (`Coordinate(latitude:longitude:)`).
public typealias Coordinate = Point

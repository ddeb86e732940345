// The one coordinate type: a position in degrees, longitude first (GeoJSON's order).

/// A position: `x` is longitude, `y` is latitude (degrees, WGS84), unless a stage says it
/// projected them (then metres or whatever its projection gives). `latitude` and `longitude`
/// name the same two numbers for code that thinks in geographic terms.
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    @inlinable public init(latitude: Double, longitude: Double) { self.x = longitude; self.y = latitude }

    @inlinable public var latitude: Double {
        get { y }
        set { y = newValue }
    }
    @inlinable public var longitude: Double {
        get { x }
        set { x = newValue }
    }
}

// The one 3-D vector type: the globe's scene space, the unit vectors of great-circle
// geometry, H3's face projection.

/// A 3-D vector. Which frame it lives in is the producer's convention: `Sphere.vector`
/// gives the geocentric one (z to the north pole, x to longitude 0); the globe's scene
/// (GeoModel's `SphereMap`) has y up.
public struct Vec3: Hashable, Sendable {
    public var x: Double, y: Double, z: Double
    @inlinable public init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }

    @inlinable public static func + (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static func * (a: Vec3, s: Double) -> Vec3 { Vec3(a.x * s, a.y * s, a.z * s) }
    @inlinable public func dot(_ b: Vec3) -> Double { x * b.x + y * b.y + z * b.z }
    @inlinable public func cross(_ b: Vec3) -> Vec3 { Vec3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x) }
    @inlinable public var length: Double { (x * x + y * y + z * z).squareRoot() }
    @inlinable public var normalized: Vec3 { let l = length; return l > 0 ? self * (1 / l) : self }
}

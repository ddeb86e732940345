import Foundation

/// Geodesic distances on an ellipsoid of revolution, in pure Swift (issue #14's decision: the
/// territory rules measure ten million steps a night, and the app measures a run offline).
///
/// Short lines (a chord up to `shortChord`, 10 km: every step of a run, every start-to-end
/// gap of a loop) go through the chord: the two points in Earth-centred coordinates, the
/// straight line between them, and the arc over it, s = c + c³ / (24 ρ²), with ρ² the mean of
/// the extreme radii of curvature squared. The geodesic and the normal section over a chord
/// that short differ by far less than a nanometre, and ρ lies between the meridian radius at
/// the equator and the radius at the pole, so the error is at most c³ · `chordCurvatureSpread`
/// plus the rounding of the coordinates (a few nanometres) — `shortErrorBound` says how much:
/// under 30 nm for a run's step, 0.02 mm at 10 km. No trigonometry per step beyond each point's own, no
/// iteration, no special case at the poles or at ±180°.
///
/// Longer lines use Vincenty's inverse formula (iterated to 1e-13 rad), accurate to well under
/// a millimetre; where it does not converge (nearly antipodal points) the mean sphere's great
/// circle is returned with a bound of 0.5 %. A caller that needs PROJ's exact figure for a
/// decision near a threshold asks for it only when the figure is within the bound `inverse`
/// returns.
public struct Ellipsoid: Sendable, Equatable {
    public let a: Double
    public let f: Double
    public var b: Double { a * (1 - f) }
    /// The first eccentricity squared, f(2 − f).
    public let e2: Double
    /// 1/ρ² for the arc over a short chord: the mean of the extremes, 1/M(0)² and 1/N(90°)².
    public let chordInverseRho2: Double
    /// Half the spread of 1/ρ² over the ellipsoid, over 24: the arc correction's error per c³.
    public let chordCurvatureSpread: Double

    /// The constants each step's distance needs are worked out here, once, not per step.
    public init(equatorialRadius a: Double, flattening f: Double) {
        self.a = a; self.f = f
        let e2 = f * (2 - f)
        let m0 = a * (1 - e2), np = a / (1 - e2).squareRoot()
        self.e2 = e2
        chordInverseRho2 = (1 / (m0 * m0) + 1 / (np * np)) / 2
        chordCurvatureSpread = (1 / (m0 * m0) - 1 / (np * np)) / 2 / 24
    }

    /// WGS 84 (PROJ's, GPS's).
    public static let wgs84 = Ellipsoid(equatorialRadius: Earth.wgs84EquatorialRadius, flattening: Earth.wgs84Flattening)

    /// Lines whose chord is at most this long (m) are measured through the chord.
    public static let shortChord = 10_000.0

    /// A point in Earth-centred, Earth-fixed coordinates (m), on the ellipsoid's surface.
    public struct ECEF: Sendable, Equatable {
        public var x, y, z: Double
        @inlinable public init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
        /// The straight-line distance to `o` (m).
        @inlinable public func chord(_ o: ECEF) -> Double {
            let dx = x - o.x, dy = y - o.y, dz = z - o.z
            return (dx * dx + dy * dy + dz * dz).squareRoot()
        }
    }

    /// The point at geodetic latitude and longitude (degrees) on the surface.
    @inlinable public func ecef(lat: Double, lon: Double) -> ECEF {
        let phi = lat * (Double.pi / 180), lambda = lon * (Double.pi / 180)
        let sp = sin(phi), cp = cos(phi), sl = sin(lambda), cl = cos(lambda)
        let n = a / (1 - e2 * sp * sp).squareRoot()
        return ECEF(x: n * cp * cl, y: n * cp * sl, z: n * (1 - e2) * sp)
    }

    /// The geodesic length over a chord of `c` metres (c ≤ `shortChord`).
    @inlinable public func arc(chord c: Double) -> Double { c + c * c * c * chordInverseRho2 / 24 }

    /// How far (m) a short line's distance (`arc(chord:)`) may be from the true geodesic and
    /// from PROJ's `geod_inverse` (within 15 nm of it): the arc correction's spread, the
    /// coordinates' rounding and PROJ's own.
    @inlinable public func shortErrorBound(_ distance: Double) -> Double {
        3e-8 + distance * 4e-15 + distance * distance * distance * chordCurvatureSpread
    }

    /// The geodesic distance (m) between two points given by latitude and longitude (degrees),
    /// and how far it may be from the truth (m).
    public func inverse(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> (distance: Double, error: Double) {
        let c = ecef(lat: lat1, lon: lon1).chord(ecef(lat: lat2, lon: lon2))
        if c <= Self.shortChord { let s = arc(chord: c); return (s, shortErrorBound(s)) }
        if let s = vincenty(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2) { return (s, max(1e-3, s * 1e-10)) }
        let s = sphereDistance(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
        return (s, s * 0.005 + 1)
    }

    public func distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        inverse(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2).distance
    }

    /// Vincenty's inverse problem; nil when it does not converge (nearly antipodal points).
    func vincenty(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double? {
        let rad = Double.pi / 180
        let u1 = atan((1 - f) * tan(lat1 * rad)), u2 = atan((1 - f) * tan(lat2 * rad))
        var dl = (lon2 - lon1).truncatingRemainder(dividingBy: 360)
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        let L = dl * rad
        let su1 = sin(u1), cu1 = cos(u1), su2 = sin(u2), cu2 = cos(u2)
        var lambda = L
        for _ in 0..<200 {
            let sl = sin(lambda), cl = cos(lambda)
            let t1 = cu2 * sl, t2 = cu1 * su2 - su1 * cu2 * cl
            let sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return 0 }
            let cosSigma = su1 * su2 + cu1 * cu2 * cl
            let sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cu1 * cu2 * sl / sinSigma
            let cos2Alpha = 1 - sinAlpha * sinAlpha
            let cos2SigmaM = cos2Alpha != 0 ? cosSigma - 2 * su1 * su2 / cos2Alpha : 0
            let C = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
            let previous = lambda
            lambda = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-13 {
                let u2s = cos2Alpha * (a * a - b * b) / (b * b)
                let A = 1 + u2s / 16384 * (4096 + u2s * (-768 + u2s * (320 - 175 * u2s)))
                let B = u2s / 1024 * (256 + u2s * (-128 + u2s * (74 - 47 * u2s)))
                let dSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                    - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
                return b * A * (sigma - dSigma)
            }
            if abs(lambda) > Double.pi { return nil }
        }
        return nil
    }

    /// The great-circle distance on the Earth's mean sphere (`Sphere`; the fallback).
    func sphereDistance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        Sphere.distanceKm(Point(lon1, lat1), Point(lon2, lat2)) * 1000
    }
}

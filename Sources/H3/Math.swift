// Vector and coordinate arithmetic of the H3 grid.
//
// The algorithms follow Uber's H3 C library 4.5.0 (Apache License 2.0), whose 4.5 release
// moved the face projection to 3-D unit vectors. Every expression below keeps the C
// evaluation order so that results are bit-identical on the same libm (glibc here).

import Geodesy
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Constants of constants.h (H3 4.5.0), spelled as the C source spells them.
@usableFromInline let M_2PI_H3 = 6.28318530717958647692528676655900576839433
@usableFromInline let M_PI_180_H3 = 0.0174532925199432957692369076848861271111
@usableFromInline let M_180_PI_H3 = 57.29577951308232087679815481410517033240547
@usableFromInline let EPSILON_H3 = 0.0000000000000001
@usableFromInline let M_SQRT3_2_H3 = 0.8660254037844386467637231707529361834714
@usableFromInline let M_RSIN60_H3 = 1.1547005383792515290182975610039149112953
@usableFromInline let M_ONETHIRD_H3 = 0.333333333333333333333333333333333333333
@usableFromInline let M_ONESEVENTH_H3 = 0.14285714285714285714285714285714285
@usableFromInline let M_AP7_ROT_RADS_H3 = 0.333473172251832115336090755351601070065900389
@usableFromInline let EARTH_RADIUS_KM_H3 = Earth.authalicRadiusKm
@usableFromInline let RES0_U_GNOMONIC_H3 = 0.38196601125010500003
@usableFromInline let INV_RES0_U_GNOMONIC_H3 = 2.61803398874989588842
@usableFromInline let M_SQRT7_H3 = 2.6457513110645905905016157536392604257102
@usableFromInline let M_RSQRT7_H3 = 0.37796447300922722721451653623418006081576

#if os(Linux)
// glibc's sincos shares sin's and cos's code paths and returns the same bits as the two
// separate calls (checked on 300,000 arguments), at about the cost of one.
@_silgen_name("sincos") private func c_sincos(_ x: Double, _ s: UnsafeMutablePointer<Double>, _ c: UnsafeMutablePointer<Double>)
@inline(__always) func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
    var s = 0.0, c = 0.0
    c_sincos(x, &s, &c)
    return (s, c)
}
#else
@inline(__always) func sinCos(_ x: Double) -> (sin: Double, cos: Double) { (sin(x), cos(x)) }
#endif

@inline(__always) func latLngToVec3(_ lat: Double, _ lng: Double) -> Vec3 {
    let la = sinCos(lat), lo = sinCos(lng)
    let r = la.cos
    return Vec3(lo.cos * r, lo.sin * r, la.sin)
}

@inline(__always) func vec3ToLatLng(_ v: Vec3) -> LatLng {
    LatLng(lat: asin(v.z), lng: atan2(v.y, v.x))
}

@inline(__always) func linComb(_ a: Double, _ v1: Vec3, _ b: Double, _ v2: Vec3) -> Vec3 {
    Vec3(a * v1.x + b * v2.x, a * v1.y + b * v2.y, a * v1.z + b * v2.z)
}

@inline(__always) func cross(_ v1: Vec3, _ v2: Vec3) -> Vec3 {
    Vec3(v1.y * v2.z - v1.z * v2.y, v1.z * v2.x - v1.x * v2.z, v1.x * v2.y - v1.y * v2.x)
}

@inline(__always) func dot(_ v1: Vec3, _ v2: Vec3) -> Double {
    v1.x * v2.x + v1.y * v2.y + v1.z * v2.z
}

@inline(__always) func normalized(_ v: Vec3) -> Vec3 {
    let norm = dot(v, v).squareRoot()
    // Multiply by the reciprocal, as upstream does (not the same bits as dividing).
    let s = norm > 0.0 ? 1.0 / norm : 0.0
    return Vec3(v.x * s, v.y * s, v.z * s)
}

@inline(__always) func posAngleRads(_ rads: Double) -> Double {
    var tmp = rads < 0.0 ? rads + M_2PI_H3 : rads
    if rads >= M_2PI_H3 { tmp -= M_2PI_H3 }
    return tmp
}

/// North and east unit vectors of the tangent plane at p.
@inline(__always) func tangentBasis(_ p: Vec3) -> (north: Vec3, east: Vec3) {
    let pole = Vec3(0.0, 0.0, 1.0)
    let north = normalized(linComb(1.0, pole, -dot(pole, p), p))
    return (north, cross(north, p))
}

/// Azimuth of p2 seen from p1, given p1's tangent basis.
@inline(__always) func vec3AzimuthRads(_ p1: Vec3, _ north: Vec3, _ east: Vec3, _ p2: Vec3) -> Double {
    let proj = normalized(linComb(1.0, p2, -dot(p2, p1), p1))
    return atan2(dot(proj, east), dot(proj, north))
}

// MARK: - Integer hex coordinates

/// ijk+ coordinates (C `CoordIJK`); Int to keep the arithmetic free of overflow traps.
struct CoordIJK: Equatable {
    var i: Int, j: Int, k: Int
    @inline(__always) init(_ i: Int, _ j: Int, _ k: Int) { self.i = i; self.j = j; self.k = k }

    @inline(__always) static func + (a: CoordIJK, b: CoordIJK) -> CoordIJK { CoordIJK(a.i + b.i, a.j + b.j, a.k + b.k) }
    @inline(__always) static func - (a: CoordIJK, b: CoordIJK) -> CoordIJK { CoordIJK(a.i - b.i, a.j - b.j, a.k - b.k) }
    @inline(__always) func scaled(_ f: Int) -> CoordIJK { CoordIJK(i * f, j * f, k * f) }

    @inline(__always) mutating func normalize() {
        if i < 0 { j -= i; k -= i; i = 0 }
        if j < 0 { i -= j; k -= j; j = 0 }
        if k < 0 { i -= k; j -= k; k = 0 }
        var m = i
        if j < m { m = j }
        if k < m { m = k }
        if m > 0 { i -= m; j -= m; k -= m }
    }

    @inline(__always) var normalized: CoordIJK { var c = self; c.normalize(); return c }

    @inline(__always) static func unit(_ digit: Int) -> CoordIJK {
        CoordIJK((digit >> 2) & 1, (digit >> 1) & 1, digit & 1)
    }

    /// Linear map given by the images of the three unit vectors, then normalised.
    @inline(__always) func mapped(_ iv: CoordIJK, _ jv: CoordIJK, _ kv: CoordIJK) -> CoordIJK {
        var r = iv.scaled(i) + jv.scaled(j) + kv.scaled(k)
        r.normalize()
        return r
    }

    @inline(__always) mutating func downAp7() { self = mapped(CoordIJK(3, 0, 1), CoordIJK(1, 3, 0), CoordIJK(0, 1, 3)) }
    @inline(__always) mutating func downAp7r() { self = mapped(CoordIJK(3, 1, 0), CoordIJK(0, 3, 1), CoordIJK(1, 0, 3)) }
    @inline(__always) mutating func downAp3() { self = mapped(CoordIJK(2, 0, 1), CoordIJK(1, 2, 0), CoordIJK(0, 1, 2)) }
    @inline(__always) mutating func downAp3r() { self = mapped(CoordIJK(2, 1, 0), CoordIJK(0, 2, 1), CoordIJK(1, 0, 2)) }
    @inline(__always) mutating func rotate60ccw() { self = mapped(CoordIJK(1, 1, 0), CoordIJK(0, 1, 1), CoordIJK(1, 0, 1)) }
    @inline(__always) mutating func rotate60cw() { self = mapped(CoordIJK(1, 0, 1), CoordIJK(1, 1, 0), CoordIJK(0, 1, 1)) }

    @inline(__always) mutating func upAp7r() {
        let ii = i - k, jj = j - k
        self = CoordIJK(Int((Double(2 * ii + jj) * M_ONESEVENTH_H3).rounded()),
                        Int((Double(3 * jj - ii) * M_ONESEVENTH_H3).rounded()), 0)
        normalize()
    }

    @inline(__always) mutating func neighbor(_ digit: Int) {
        if digit > 0 && digit < 7 {
            self = self + CoordIJK.unit(digit)
            normalize()
        }
    }

    /// The digit (0...6) of a unit vector, 7 if it is none.
    @inline(__always) var unitDigit: Int {
        let c = normalized
        guard c.i >= 0, c.i <= 1, c.j >= 0, c.j <= 1, c.k >= 0, c.k <= 1 else { return 7 }
        let d = c.i << 2 | c.j << 1 | c.k
        return d == 7 ? 7 : d
    }

    @inline(__always) func toHex2d() -> (x: Double, y: Double) {
        let ii = i - k, jj = j - k
        return (Double(ii) - 0.5 * Double(jj), Double(jj) * M_SQRT3_2_H3)
    }

    static func fromHex2d(_ vx: Double, _ vy: Double) -> CoordIJK {
        var hi = 0, hj = 0
        let a1 = abs(vx), a2 = abs(vy)
        let x2 = a2 * M_RSIN60_H3
        let x1 = a1 + x2 / 2.0
        let m1 = Int(x1), m2 = Int(x2)
        let r1 = x1 - Double(m1), r2 = x2 - Double(m2)
        if r1 < 0.5 {
            if r1 < 1.0 / 3.0 {
                hi = m1
                hj = r2 < (1.0 + r1) / 2.0 ? m2 : m2 + 1
            } else {
                hj = r2 < (1.0 - r1) ? m2 : m2 + 1
                hi = ((1.0 - r1) <= r2 && r2 < (2.0 * r1)) ? m1 + 1 : m1
            }
        } else {
            if r1 < 2.0 / 3.0 {
                hj = r2 < (1.0 - r1) ? m2 : m2 + 1
                hi = ((2.0 * r1 - 1.0) < r2 && r2 < (1.0 - r1)) ? m1 : m1 + 1
            } else {
                hi = m1 + 1
                hj = r2 < (r1 / 2.0) ? m2 : m2 + 1
            }
        }
        // fold across the axes if necessary
        if vx < 0.0 {
            if hj % 2 == 0 {
                let diff = hi - hj / 2
                hi = Int(Double(hi) - 2.0 * Double(diff))
            } else {
                let diff = hi - (hj + 1) / 2
                hi = Int(Double(hi) - (2.0 * Double(diff) + 1))
            }
        }
        if vy < 0.0 {
            hi = hi - (2 * hj + 1) / 2
            hj = -1 * hj
        }
        var h = CoordIJK(hi, hj, 0)
        h.normalize()
        return h
    }
}

@inline(__always) func rotateDigit60ccw(_ d: Int) -> Int {
    switch d {
    case 1: return 5
    case 5: return 4
    case 4: return 6
    case 6: return 2
    case 2: return 3
    case 3: return 1
    default: return d
    }
}

@inline(__always) func rotateDigit60cw(_ d: Int) -> Int {
    switch d {
    case 1: return 3
    case 3: return 2
    case 2: return 6
    case 6: return 4
    case 4: return 5
    case 5: return 1
    default: return d
    }
}

@inline(__always) func v2dIntersect(_ p0: (x: Double, y: Double), _ p1: (x: Double, y: Double),
                                    _ p2: (x: Double, y: Double), _ p3: (x: Double, y: Double)) -> (x: Double, y: Double) {
    let s1x = p1.x - p0.x, s1y = p1.y - p0.y
    let s2x = p3.x - p2.x, s2y = p3.y - p2.y
    let t = (s2x * (p0.y - p2.y) - s2y * (p0.x - p2.x)) / (-s2x * s1y + s1x * s2y)
    return (p0.x + (t * s1x), p0.y + (t * s1y))
}

@inline(__always) func v2dAlmostEquals(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Bool {
    abs(a.x - b.x) < Double(Float.ulpOfOne) && abs(a.y - b.y) < Double(Float.ulpOfOne)
}

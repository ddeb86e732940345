// The 64-bit H3 cell index: bit layout, validity, digit rotations, and the conversions
// between an index and its face-centred ijk address (H3 C 4.5.0 h3Index.c semantics).

import Foundation

/// A 64-bit H3 index (mode 1: a cell).
public struct H3Index: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let value: UInt64
    public init(_ value: UInt64) { self.value = value }

    /// Parses a hexadecimal id as h3 writes it (upper or lower case, no prefix).
    public init?(string: String) {
        guard !string.isEmpty, string.utf8.count <= 16,
              string.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || ($0 >= 65 && $0 <= 70) }),
              let v = UInt64(string, radix: 16) else { return nil }
        value = v
    }

    /// Lower-case hexadecimal, without leading zeros, as h3 writes it.
    public var description: String { String(value, radix: 16) }

    public static func < (a: H3Index, b: H3Index) -> Bool { a.value < b.value }
}

/// A point on the sphere, in radians.
public struct LatLng: Sendable, Equatable {
    public var lat: Double
    public var lng: Double
    public init(lat: Double, lng: Double) { self.lat = lat; self.lng = lng }
    /// Degrees converted exactly as h3's `degsToRads` does.
    public init(latDegrees: Double, lngDegrees: Double) {
        lat = latDegrees * M_PI_180_H3
        lng = lngDegrees * M_PI_180_H3
    }
    public var latDegrees: Double { lat * M_180_PI_H3 }
    public var lngDegrees: Double { lng * M_180_PI_H3 }
}

/// A polygon whose edges are straight lines in lat/lng (as in H3), with optional holes.
public struct GeoPolygon: Sendable {
    public var outer: [LatLng]
    public var holes: [[LatLng]]
    public init(outer: [LatLng], holes: [[LatLng]] = []) { self.outer = outer; self.holes = holes }
}

public enum H3Error: Error, Equatable, CustomStringConvertible, LocalizedError {
    case invalidResolution(Int)
    case invalidCoordinate(lat: Double, lng: Double)
    case invalidCell(String)
    case invalidK(Int)
    case resolutionMismatch(cell: String, res: Int)
    case pentagonDistortion
    case failed(String)

    public var description: String {
        switch self {
        case .invalidResolution(let r): return "invalid resolution \(r) (must be 0...15)"
        case .invalidCoordinate(let lat, let lng): return "invalid coordinate (lat \(lat), lng \(lng)): must be finite numbers"
        case .invalidCell(let s): return "invalid cell id \"\(s)\""
        case .invalidK(let k): return "invalid k \(k) (must be ≥ 0)"
        case .resolutionMismatch(let c, let r): return "resolution \(r) is not compatible with cell \(c)"
        case .pentagonDistortion: return "pentagon distortion encountered; the distance is undefined"
        case .failed(let s): return s
        }
    }
    public var errorDescription: String? { description }
}

// MARK: - Bit layout

@usableFromInline let H3_INIT: UInt64 = 35184372088831
@usableFromInline let H3_MODE_OFFSET: UInt64 = 59
@usableFromInline let H3_BC_OFFSET: UInt64 = 45
@usableFromInline let H3_RES_OFFSET: UInt64 = 52

extension UInt64 {
    @inline(__always) var h3Res: Int { Int((self >> 52) & 15) }
    @inline(__always) var h3BaseCell: Int { Int((self >> 45) & 127) }
    @inline(__always) func h3Digit(_ r: Int) -> Int { Int((self >> UInt64((15 - r) * 3)) & 7) }
    @inline(__always) mutating func setH3Digit(_ r: Int, _ d: Int) {
        let shift = UInt64((15 - r) * 3)
        self = (self & ~(7 << shift)) | (UInt64(d) << shift)
    }
    @inline(__always) mutating func setH3Res(_ r: Int) { self = (self & ~(15 << 52)) | (UInt64(r) << 52) }
    @inline(__always) mutating func setH3BaseCell(_ bc: Int) { self = (self & ~(127 << 45)) | (UInt64(bc) << 45) }
}

@inline(__always) func makeIndex(res: Int, baseCell: Int, digit: Int) -> UInt64 {
    var h = H3_INIT
    h = (h & ~(15 << 59)) | (1 << 59)
    h.setH3Res(res)
    h.setH3BaseCell(baseCell)
    for r in stride(from: 1, through: res, by: 1) { h.setH3Digit(r, digit) }
    return h
}

@inline(__always) func isBaseCellPentagon(_ bc: Int) -> Bool {
    bc >= 0 && bc < 122 && H3Tables.baseCellIsPentagon[bc]
}

@inline(__always) func leadingNonZeroDigit(_ h: UInt64) -> Int {
    let res = h.h3Res
    var r = 1
    while r <= res {
        let d = h.h3Digit(r)
        if d != 0 { return d }
        r += 1
    }
    return 0
}

/// The index rotated 60° about its base cell: every digit turned by `turn` (one direction).
@inline(__always) func rotate60(_ h: UInt64, _ turn: (Int) -> Int) -> UInt64 {
    var h = h
    let res = h.h3Res
    var r = 1
    while r <= res { h.setH3Digit(r, turn(h.h3Digit(r))); r += 1 }
    return h
}

@inline(__always) func rotate60ccw(_ h: UInt64) -> UInt64 { rotate60(h, rotateDigit60ccw) }
@inline(__always) func rotate60cw(_ h: UInt64) -> UInt64 { rotate60(h, rotateDigit60cw) }

/// Rotation of a pentagon-based index that skips the deleted k-axis subsequence: digits turned
/// by `turn`, and once the first non-zero digit lands on the k axis (1), the whole index turned
/// once more the same way (`again`), as h3's `_h3RotatePent60ccw`/`cw` do.
@inline(__always) func rotatePent60(_ h: UInt64, _ turn: (Int) -> Int, _ again: (UInt64) -> UInt64) -> UInt64 {
    var h = h
    var found = false
    let res = h.h3Res
    var r = 1
    while r <= res {
        h.setH3Digit(r, turn(h.h3Digit(r)))
        if !found && h.h3Digit(r) != 0 {
            found = true
            if leadingNonZeroDigit(h) == 1 { h = again(h) }
        }
        r += 1
    }
    return h
}

func rotatePent60ccw(_ h: UInt64) -> UInt64 { rotatePent60(h, rotateDigit60ccw, rotate60ccw) }
func rotatePent60cw(_ h: UInt64) -> UInt64 { rotatePent60(h, rotateDigit60cw, rotate60cw) }

@inline(__always) func faceIjkTableIndex(_ f: FaceIJK) -> Int {
    ((f.face * 3 + f.coord.i) * 3 + f.coord.j) * 3 + f.coord.k
}

/// lround(n / 7) as upstream computes it, `(double)n * M_ONESEVENTH` rounded half away from
/// zero: n / 7 is never within 1/14 of a half-integer, so integer arithmetic is exact.
@inline(__always) func roundDiv7(_ n: Int) -> Int {
    n >= 0 ? (n + 3) / 7 : -((3 - n) / 7)
}

/// Digit of an axial unit vector (7 if it is none).
@inline(__always) func axialDigit(_ da: Int, _ db: Int) -> Int {
    // axial (a, b) of digits 1...6: (-1,-1) (0,1) (-1,0) (1,0) (0,-1) (1,1)
    guard da >= -1 && da <= 1 && db >= -1 && db <= 1 else { return 7 }
    return axialDigitTable[(da + 1) * 3 + (db + 1)]
}

private let axialDigitTable: [Int] = [1, 3, 7, 5, 0, 2, 7, 4, 6]
/// Axial coordinates of the unit vector of each digit 0...6.
let axialUnitA: [Int] = [0, -1, 0, -1, 1, 0, 1]
let axialUnitB: [Int] = [0, -1, 1, 0, 0, -1, 1]

/// FaceIJK → index (0 if the input is out of range).
func faceIjkToH3(_ fijk: FaceIJK, _ res: Int) -> UInt64 {
    var h = H3_INIT
    h = (h & ~(15 << 59)) | (1 << 59)
    h.setH3Res(res)
    if res == 0 {
        if fijk.coord.i > 2 || fijk.coord.j > 2 || fijk.coord.k > 2 { return 0 }
        h.setH3BaseCell(Int(H3Tables.faceIjkBaseCell[faceIjkTableIndex(fijk)]))
        return h
    }
    // Walk up the aperture-7 hierarchy in axial coordinates (a, b) = (i - k, j - k):
    // normalisation never changes them, so this is the same integer arithmetic as
    // upstream's ijk version with fewer operations.
    var a = fijk.coord.i - fijk.coord.k
    var b = fijk.coord.j - fijk.coord.k
    var r = res - 1
    while r >= 0 {
        let la = a, lb = b
        let ca: Int, cb: Int
        if isClassIII(r + 1) {
            a = roundDiv7(3 * la - lb)
            b = roundDiv7(la + 2 * lb)
            ca = 2 * a + b           // downAp7
            cb = 3 * b - a
        } else {
            a = roundDiv7(2 * la + lb)
            b = roundDiv7(3 * lb - la)
            ca = 3 * a - b           // downAp7r
            cb = a + 2 * b
        }
        h.setH3Digit(r + 1, axialDigit(la - ca, lb - cb))
        r -= 1
    }
    var bc = FaceIJK(face: fijk.face, coord: CoordIJK(a, b, 0))
    bc.coord.normalize()
    if bc.coord.i > 2 || bc.coord.j > 2 || bc.coord.k > 2 { return 0 }
    let t = faceIjkTableIndex(bc)
    let baseCell = Int(H3Tables.faceIjkBaseCell[t])
    h.setH3BaseCell(baseCell)
    let numRots = Int(H3Tables.faceIjkBaseCellRot[t])
    if isBaseCellPentagon(baseCell) {
        // force rotation out of the missing k-axes subsequence
        if leadingNonZeroDigit(h) == 1 {
            let cw = H3Tables.baseCellCwOffset[baseCell]
            if Int(cw.0) == bc.face || Int(cw.1) == bc.face {
                h = rotate60cw(h)
            } else {
                h = rotate60ccw(h)
            }
        }
        for _ in 0..<numRots { h = rotatePent60ccw(h) }
    } else {
        for _ in 0..<numRots { h = rotate60ccw(h) }
    }
    return h
}

/// Index → FaceIJK on the face holding its centre. Assumes a valid base cell.
func h3ToFaceIjk(_ hIn: UInt64) -> FaceIJK {
    var h = hIn
    let baseCell = h.h3BaseCell
    if isBaseCellPentagon(baseCell) && leadingNonZeroDigit(h) == 5 { h = rotate60cw(h) }
    let home = H3Tables.baseCellHome[baseCell]
    var fijk = FaceIJK(face: home.face, coord: CoordIJK(Int(home.i), Int(home.j), Int(home.k)))
    let res0 = h.h3Res
    let possibleOverage = isBaseCellPentagon(baseCell) || !(res0 == 0 || (fijk.coord.i == 0 && fijk.coord.j == 0 && fijk.coord.k == 0))
    // Down the hierarchy in axial coordinates (see faceIjkToH3).
    var a = fijk.coord.i - fijk.coord.k, b = fijk.coord.j - fijk.coord.k
    var r = 1
    while r <= res0 {
        if isClassIII(r) {
            (a, b) = (2 * a + b, 3 * b - a)   // downAp7
        } else {
            (a, b) = (3 * a - b, a + 2 * b)   // downAp7r
        }
        let d = h.h3Digit(r)
        if d > 0 && d < 7 {
            a += axialUnitA[d]
            b += axialUnitB[d]
        }
        r += 1
    }
    fijk.coord = CoordIJK(a, b, 0)
    fijk.coord.normalize()
    if !possibleOverage { return fijk }
    let orig = fijk.coord
    var res = res0
    if isClassIII(res) {
        fijk.coord.downAp7r()
        res += 1
    }
    let pentLeading4 = isBaseCellPentagon(baseCell) && leadingNonZeroDigit(h) == 4
    if adjustOverageClassII(&fijk, res, pentLeading4, false) != .none {
        if isBaseCellPentagon(baseCell) {
            while adjustOverageClassII(&fijk, res, false, false) != .none {}
        }
        if res != res0 { fijk.coord.upAp7r() }
    } else if res != res0 {
        fijk.coord = orig
    }
    return fijk
}

// MARK: - Validity

@inline(__always) func isValidCellBits(_ h: UInt64) -> Bool {
    if h >> 56 != 0b0000_1000 { return false }
    let res = h.h3Res
    let bc = h.h3BaseCell
    if bc >= 122 { return false }
    // any digit 7 up to res?
    let mhi: UInt64 = 0b100100100100100100100100100100100100100100100
    let mlo: UInt64 = mhi >> 2
    let shift = UInt64(3 * (15 - res))
    var x = (h >> shift) << shift
    x = x & mhi & (~x &- mlo)
    if x != 0 { return false }
    // all digits after res are 7?
    if res < 15 {
        let s = UInt64(19 + 3 * res)
        if ((~h) << s) >> s != 0 { return false }
    }
    // deleted subsequence of a pentagon: first non-zero digit is 1
    if H3Tables.baseCellIsPentagon[bc] {
        let y = (h << 19) >> 19
        if y != 0 && (63 - y.leadingZeroBitCount) % 3 == 0 { return false }
    }
    return true
}

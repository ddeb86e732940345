// Public H3 v4 API: Uber's hexagonal grid, cell for cell equal to the C library 4.5.0.

import Geodesy
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum H3 {
    // MARK: Indexing

    @inline(__always) static func checkRes(_ res: Int) throws {
        guard res >= 0 && res <= 15 else { throw H3Error.invalidResolution(res) }
    }

    @inline(__always) static func checkCell(_ h: H3Index) throws {
        guard isValidCellBits(h.value) else { throw H3Error.invalidCell(h.description) }
    }

    /// The cell of resolution `res` containing the point.
    public static func latLngToCell(_ p: LatLng, res: Int) throws -> H3Index {
        try checkRes(res)
        guard p.lat.isFinite && p.lng.isFinite else { throw H3Error.invalidCoordinate(lat: p.lat, lng: p.lng) }
        let h = faceIjkToH3(vec3ToFaceIjk(latLngToVec3(p.lat, p.lng), res), res)
        guard h != 0 else { throw H3Error.failed("latLngToCell failed for (\(p.lat), \(p.lng))") }
        return H3Index(h)
    }

    /// Centre of the cell.
    public static func cellToLatLng(_ h: H3Index) throws -> LatLng {
        try checkCell(h)
        return vec3ToLatLng(faceIjkToVec3(h3ToFaceIjk(h.value), h.value.h3Res))
    }

    /// Boundary vertices, counter-clockwise, without repeating the first one. Same vertices as
    /// h3 (Class III face-crossing and pentagon distortion vertices included), each within
    /// ≈1e-14 rad of h3's (a faster vertex formula; see docs/H3.md).
    public static func cellToBoundary(_ h: H3Index) throws -> [LatLng] {
        try checkCell(h)
        var b = CellBoundary()
        boundary(h.value, &b)
        return b.array
    }

    /// Boundary into a fixed-size buffer (no allocation); `h` must be valid.
    public static func cellToBoundary(_ h: H3Index, into b: inout CellBoundary) throws {
        try checkCell(h)
        b = CellBoundary()
        boundary(h.value, &b)
    }

    /// `exact`: upstream's arithmetic step for step (bit-identical vertices, used for areas and
    /// size estimates); otherwise the faster vertex path, within ≈1e-16 rad of it.
    @inline(__always) static func boundary(_ h: UInt64, _ b: inout CellBoundary, exact: Bool = false) {
        let fijk = h3ToFaceIjk(h)
        if isPentagonBits(h) {
            faceIjkPentToCellBoundary(fijk, h.h3Res, &b, exact: exact)
        } else {
            faceIjkToCellBoundary(fijk, h.h3Res, &b, exact: exact)
        }
    }

    // MARK: Inspection

    public static func isValidCell(_ h: H3Index) -> Bool { isValidCellBits(h.value) }
    public static func getResolution(_ h: H3Index) -> Int { h.value.h3Res }
    public static func getBaseCellNumber(_ h: H3Index) -> Int { h.value.h3BaseCell }
    public static func isPentagon(_ h: H3Index) -> Bool { isPentagonBits(h.value) }
    public static func isResClassIII(_ h: H3Index) -> Bool { isClassIII(h.value.h3Res) }

    @inline(__always) static func isPentagonBits(_ h: UInt64) -> Bool {
        isBaseCellPentagon(h.h3BaseCell) && leadingNonZeroDigit(h) == 0
    }

    /// The 122 resolution-0 cells, in base cell order.
    public static func res0Cells() -> [H3Index] { (0..<122).map { H3Index(makeIndex(res: 0, baseCell: $0, digit: 0)) } }

    /// The 12 pentagons at a resolution, in base cell order.
    public static func pentagons(res: Int) throws -> [H3Index] {
        try checkRes(res)
        return (0..<122).filter { H3Tables.baseCellIsPentagon[$0] }.map { H3Index(makeIndex(res: res, baseCell: $0, digit: 0)) }
    }

    // MARK: Hierarchy

    public static func cellToParent(_ h: H3Index, res: Int) throws -> H3Index {
        try checkCell(h)
        try checkRes(res)
        let childRes = h.value.h3Res
        guard res <= childRes else { throw H3Error.resolutionMismatch(cell: h.description, res: res) }
        var p = h.value
        p.setH3Res(res)
        for r in stride(from: res + 1, through: childRes, by: 1) { p.setH3Digit(r, 7) }
        return H3Index(p)
    }

    /// Children at `res`, in the order h3 lists them (ascending digits; pentagons skip digit 1).
    public static func cellToChildren(_ h: H3Index, res: Int) throws -> [H3Index] {
        try checkCell(h)
        try checkRes(res)
        let parentRes = h.value.h3Res
        guard res >= parentRes else { throw H3Error.resolutionMismatch(cell: h.description, res: res) }
        let n = res - parentRes
        guard n <= 10 else {  // 7^11 ≈ 2e9 cells would not fit in memory
            throw H3Error.failed("cellToChildren: \(h) has too many children at resolution \(res)")
        }
        var pow7 = 1
        for _ in 0..<n { pow7 *= 7 }
        var out: [H3Index] = []
        let pent = isPentagonBits(h.value)
        out.reserveCapacity(pent ? 1 + 5 * (pow7 - 1) / 6 : pow7)
        var base = h.value
        base.setH3Res(res)
        func fill(_ cur: UInt64, _ r: Int, _ inPent: Bool) {
            if r > res { out.append(H3Index(cur)); return }
            for d in 0..<7 {
                if inPent && d == 1 { continue }
                var c = cur
                c.setH3Digit(r, d)
                fill(c, r + 1, inPent && d == 0)
            }
        }
        fill(base, parentRes + 1, pent)
        return out
    }

    // MARK: Areas

    /// Exact spherical area of the cell in km² (h3's cellAreaKm2).
    public static func cellAreaKm2(_ h: H3Index) throws -> Double {
        try cellAreaRads2(h) * (EARTH_RADIUS_KM_H3 * EARTH_RADIUS_KM_H3)
    }

    public static func cellAreaRads2(_ h: H3Index) throws -> Double {
        try checkCell(h)
        return cellAreaRads2Bits(h.value)
    }

    public static func getHexagonAreaAvgKm2(res: Int) throws -> Double {
        try checkRes(res)
        return hexagonAreaAvgKm2[res]
    }

    public static func getHexagonEdgeLengthAvgKm(res: Int) throws -> Double {
        try checkRes(res)
        return hexagonEdgeLengthAvgKm[res]
    }

    /// Number of cells at a resolution: 2 + 120·7^res.
    public static func getNumCells(res: Int) throws -> Int64 {
        try checkRes(res)
        var p: Int64 = 1
        for _ in 0..<res { p *= 7 }
        return 2 + 120 * p
    }

    public static func greatCircleDistanceRads(_ a: LatLng, _ b: LatLng) -> Double {
        let sinLat = sin((b.lat - a.lat) * 0.5)
        let sinLng = sin((b.lng - a.lng) * 0.5)
        let A = sinLat * sinLat + cos(a.lat) * cos(b.lat) * sinLng * sinLng
        return 2 * atan2(A.squareRoot(), (1 - A).squareRoot())
    }

    public static func greatCircleDistanceKm(_ a: LatLng, _ b: LatLng) -> Double {
        greatCircleDistanceRads(a, b) * EARTH_RADIUS_KM_H3
    }
}

// Tables of latLng.c (H3 4.5.0, Apache-2.0).
let hexagonAreaAvgKm2: [Double] = [
    4.357449416078383e+06, 6.097884417941332e+05, 8.680178039899720e+04,
    1.239343465508816e+04, 1.770347654491307e+03, 2.529038581819449e+02,
    3.612906216441245e+01, 5.161293359717191e+00, 7.373275975944177e-01,
    1.053325134272067e-01, 1.504750190766435e-02, 2.149643129451879e-03,
    3.070918756316060e-04, 4.387026794728296e-05, 6.267181135324313e-06,
    8.953115907605790e-07,
]

let hexagonEdgeLengthAvgKm: [Double] = [
    1281.256011, 483.0568391, 182.5129565, 68.97922179,
    26.07175968, 9.854090990, 3.724532667, 1.406475763,
    0.531414010, 0.200786148, 0.075863783, 0.028663897,
    0.010830188, 0.004092010, 0.001546100, 0.000584169,
]

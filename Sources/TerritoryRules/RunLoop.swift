import Foundation
import H3

/// A valid run's loop and the cells it claims, without GEOS: its kept fixes closed back to the
/// first, in a plane where it is one piece (`continuous`), and the resolution-`res` cells whose
/// centre the loop winds around (a non-zero winding number: both lobes of a figure-eight, a lap
/// run twice, exactly what make-valid's polygons hold). The night makes the polygons with
/// GEOS's make-valid and fills them with H3; for a loop that does not cross itself the cells
/// are the same, for one that does they may differ by a cell at a crossing (measured in
/// TerritoryRulesTests).
public struct RunLoop: Sendable {
    /// The closed ring, longitudes continuous (past 180 across ±180°; through the pole for a lap
    /// around one).
    public var lon: [Double]
    public var lat: [Double]

    /// The loop of a run's kept fixes; nil when fewer than three distinct fixes remain.
    public init?(_ run: Run, kept: [Int]) {
        guard let first = kept.first else { return nil }
        var lon = kept.map { run.lon[$0] }, lat = kept.map { run.lat[$0] }
        if lon.last != run.lon[first] || lat.last != run.lat[first] { lon.append(run.lon[first]); lat.append(run.lat[first]) }
        guard lon.count >= 4 else { return nil }
        (self.lon, self.lat) = Self.continuous(lon: lon, lat: lat)
    }

    /// A closed ring with longitudes made continuous: a step across ±180° keeps going
    /// (179.99 → 180.01, not −179.99), and a ring that crosses is written eastwards (no longitude
    /// below −180, some above 180). A ring that circles a pole (its longitudes run a whole turn)
    /// is closed through that pole: after its last fix it goes to the pole and back along the
    /// first fix's meridian — in the plane, the region between the ring and the pole. Any other
    /// ring is returned as it is.
    public static func continuous(lon: [Double], lat: [Double]) -> (lon: [Double], lat: [Double]) {
        guard lon.indices.dropFirst().contains(where: { abs(lon[$0] - lon[$0 - 1]) > 180 }) else { return (lon, lat) }
        var turns = [0.0], t = 0.0
        for i in lon.indices.dropFirst() {
            let d = lon[i] - lon[i - 1]
            if d > 180 { t -= 360 } else if d < -180 { t += 360 }
            turns.append(t)
        }
        let shift = zip(lon, turns).map { $0 + $1 }.min()! < -180 ? 360.0 : 0
        var x = zip(lon, turns).map { $0 + ($1 + shift) }, y = lat
        if t != 0 {
            let pole = lat.reduce(0.0, +) >= 0 ? 90.0 : -90.0
            let last = x.removeLast(); y.removeLast()
            x += [last, x[0], x[0]]; y += [pole, pole, y[0]]
        }
        return (x, y)
    }

    /// Whether the ring was closed through a pole (`continuous`).
    public var circlesPole: Bool { lat.contains { abs($0) == 90 } }

    /// The claimed cells, sorted.
    public func cells(res: Int) throws -> [UInt64] {
        if circlesPole { return try Self.polarCells(rings: [(lon, lat)], res: res, winding: true) }
        // Candidates: the cells whose centre lies in the ring's bounding box (H3's fill of four
        // corners, which takes a box across ±180° as a jump); kept where the ring winds around
        // the centre.
        var west = lon[0], east = lon[0], south = lat[0], north = lat[0]
        for i in lon.indices { west = min(west, lon[i]); east = max(east, lon[i]); south = min(south, lat[i]); north = max(north, lat[i]) }
        func corner(_ x: Double, _ y: Double) -> LatLng { LatLng(latDegrees: y, lngDegrees: x > 180 ? x - 360 : x) }
        let box = GeoPolygon(outer: [corner(west, south), corner(east, south), corner(east, north), corner(west, north)], holes: [])
        let candidates = try H3.polygonToCells(box, res: res)
        var centres: [(x: Double, y: Double)] = []
        centres.reserveCapacity(candidates.count)
        for c in candidates {
            let centre = try H3.cellToLatLng(c)
            var x = centre.lngDegrees
            if x < west - 1 { x += 360 }
            centres.append((x, centre.latDegrees))
        }
        let w = Self.windings(centres, lon, lat)
        var out: [UInt64] = []
        for (k, c) in candidates.enumerated() where w[k] != 0 { out.append(c.value) }
        return out.sorted()
    }

    /// `winding` around each of `points`, in one pass over the ring: each edge is tested against
    /// the points whose latitude its own span reaches (a binary search in the points sorted by
    /// latitude), a few of a loop's candidate centres instead of every one of them. The edges
    /// left out add 0 (`crossing`), so each sum is `winding`'s.
    static func windings(_ points: [(x: Double, y: Double)], _ lon: [Double], _ lat: [Double]) -> [Int] {
        let order = points.indices.sorted { points[$0].y < points[$1].y }
        let ys = order.map { points[$0].y }
        var w = [Int](repeating: 0, count: points.count)
        guard !ys.isEmpty else { return w }
        for i in 0..<(lon.count - 1) {
            let lo = min(lat[i], lat[i + 1]), hi = max(lat[i], lat[i + 1])
            guard lo <= ys[ys.count - 1], hi >= ys[0] else { continue }
            var a = 0, b = ys.count
            while a < b { let m = (a + b) / 2; if ys[m] < lo { a = m + 1 } else { b = m } }
            while a < ys.count, ys[a] <= hi {
                let p = order[a]
                w[p] += crossing(i, points[p].x, points[p].y, lon, lat)
                a += 1
            }
        }
        return w
    }

    /// How many times the closed ring winds around (x, y) (counter-clockwise positive).
    static func winding(_ x: Double, _ y: Double, _ lon: [Double], _ lat: [Double]) -> Int {
        var w = 0
        for i in 0..<(lon.count - 1) { w += crossing(i, x, y, lon, lat) }
        return w
    }

    /// What edge i (from point i to i + 1) adds to the winding around (x, y): ±1 when it
    /// crosses the ray from (x, y) to +x going up (down) with the point on its left (right).
    /// Only an edge with min(y0, y1) ≤ y < max(y0, y1) can.
    @inline(__always) static func crossing(_ i: Int, _ x: Double, _ y: Double, _ lon: [Double], _ lat: [Double]) -> Int {
        let x0 = lon[i], y0 = lat[i], x1 = lon[i + 1], y1 = lat[i + 1]
        let side = (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0)
        if y0 <= y { if y1 > y && side > 0 { return 1 } } else if y1 <= y && side < 0 { return -1 }
        return 0
    }

    /// The cells of a region closed through a pole (`continuous`), which H3's polygon fill
    /// cannot take: the cells near the pole whose centre lies inside, tested in the pole's
    /// azimuthal plane (colatitude as the radius), where the ring is an ordinary ring around the
    /// origin. `rings`: an outer ring and holes (even-odd), or with `winding` one ring whose
    /// non-zero winding counts.
    public static func polarCells(rings: [(lon: [Double], lat: [Double])], res: Int, winding: Bool = false) throws -> [UInt64] {
        guard let outer = rings.first else { return [] }
        let north = outer.lat.contains { $0 == 90 }
        func plane(_ lat: Double, _ lon: Double) -> (Double, Double) {
            let rho = north ? 90 - lat : 90 + lat, a = lon * .pi / 180
            return (rho * sin(a), rho * cos(a))
        }
        let projected = rings.map { r -> (x: [Double], y: [Double]) in
            let q = zip(r.lat, r.lon).filter { abs($0.0) < 90 }.map { plane($0.0, $0.1) }
            return (q.map(\.0) + [q[0].0], q.map(\.1) + [q[0].1])
        }
        let reach = zip(projected[0].x, projected[0].y).reduce(0.0) { max($0, ($1.0 * $1.0 + $1.1 * $1.1).squareRoot()) } * 111_700
        let k = Int(reach / (1000 * (try H3.getHexagonEdgeLengthAvgKm(res: res)) * 1.5)) + 2
        let centre = try H3.latLngToCell(LatLng(latDegrees: north ? 90 : -90, lngDegrees: 0), res: res)
        var out: [UInt64] = []
        for cell in try H3.gridDisk(centre, k: k) {
            let c = try H3.cellToLatLng(cell)
            let (x, y) = plane(c.latDegrees, c.lngDegrees)
            let inside = winding ? Self.winding(x, y, projected[0].x, projected[0].y) != 0
                : projected.reduce(false) { $0 != (Self.winding(x, y, $1.x, $1.y) != 0) }
            if inside { out.append(cell.value) }
        }
        return out.sorted()
    }
}

/// What the app shows for one run before upload: the verdict with every reason, and for a
/// valid loop the loop and its cells.
public struct RunResult: Sendable {
    public var verdict: Verdict
    public var loop: RunLoop?
    public var cells: [UInt64]

    public init(_ run: Run, rules: Rules = Rules(), resolution: Int = 9) throws {
        verdict = rules.judge(run)
        loop = verdict.valid ? RunLoop(run, kept: verdict.kept) : nil
        cells = try loop?.cells(res: resolution) ?? []
    }
}

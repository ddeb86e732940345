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
        let rows = EdgeRows(lon: lon, lat: lat, south: south, north: north)
        var out: [UInt64] = []
        for c in try H3.polygonToCells(box, res: res) {
            let centre = try H3.cellToLatLng(c)
            var x = centre.lngDegrees
            if x < west - 1 { x += 360 }
            if rows.winding(x, centre.latDegrees, lon, lat) != 0 { out.append(c.value) }
        }
        return out.sorted()
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

    /// The ring's edges by horizontal band, so a point is tested against the edges whose
    /// latitudes reach its own — a few, not the whole ring (a run's thousand fixes, for each of
    /// hundreds of candidate cells). The winding is the same sum: the edges left out add 0.
    struct EdgeRows {
        let south: Double, scale: Double, count: Int
        /// Band b's edges are `edges[start[b]..<start[b + 1]]`.
        let start: [Int32]
        let edges: [Int32]

        init(lon: [Double], lat: [Double], south: Double, north: Double) {
            let n = lon.count - 1
            let count = max(1, n / 4), scale = north > south ? Double(count) / (north - south) : 0
            (self.count, self.south, self.scale) = (count, south, scale)
            func band(_ y: Double) -> Int { Self.band(y, south: south, scale: scale, count: count) }
            var start = [Int32](repeating: 0, count: count + 2)
            // Each edge's first and last band, then the bands' edges (counted, then placed).
            var bands = [Int32](repeating: 0, count: 2 * n)
            var edges: [Int32] = []
            start.withUnsafeMutableBufferPointer { start in
                bands.withUnsafeMutableBufferPointer { bands in
                    var y0 = lat[0]
                    for i in 0..<n {
                        let y1 = lat[i + 1]
                        let lo = band(min(y0, y1)), hi = band(max(y0, y1))
                        bands[2 * i] = Int32(truncatingIfNeeded: lo); bands[2 * i + 1] = Int32(truncatingIfNeeded: hi)
                        var b = lo
                        repeat { start[b + 2] &+= 1; b += 1 } while b <= hi
                        y0 = y1
                    }
                    for b in 0...count { start[b + 1] &+= start[b] }
                    let total = Int(start[count + 1])
                    edges = [Int32](unsafeUninitializedCapacity: total) { out, filled in
                        for i in 0..<n {
                            var b = Int(bands[2 * i])
                            let hi = Int(bands[2 * i + 1])
                            repeat {
                                out[Int(start[b + 1])] = Int32(truncatingIfNeeded: i)
                                start[b + 1] &+= 1
                                b += 1
                            } while b <= hi
                        }
                        filled = total
                    }
                }
            }
            self.start = start
            self.edges = edges
        }

        /// The band of latitude y (monotonic in y; outside the ring's range, the first or last).
        @inline(__always) func band(_ y: Double) -> Int { Self.band(y, south: south, scale: scale, count: count) }

        @inline(__always) static func band(_ y: Double, south: Double, scale: Double, count: Int) -> Int {
            let v = (y - south) * scale
            guard v >= 0 else { return 0 }
            return v < Double(count) ? min(count - 1, Int(v)) : count - 1
        }

        func winding(_ x: Double, _ y: Double, _ lon: [Double], _ lat: [Double]) -> Int {
            let b = band(y)
            var w = 0
            for k in Int(start[b])..<Int(start[b + 1]) { w += RunLoop.crossing(Int(edges[k]), x, y, lon, lat) }
            return w
        }
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

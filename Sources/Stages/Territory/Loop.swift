import GeoGEOS
import GeoModel
import GeoPROJ
import H3

/// The loop a valid run encloses: its kept fixes, closed back to the first, made valid by
/// GEOS. A path that crosses itself becomes its lobes (a figure-eight is two polygons that
/// touch at the crossing, never a bow-tie); a lap run twice is one polygon; a path with no
/// area (out and back along one street) encloses nothing.
public enum Loop {
    public static func polygons(_ run: Run, kept: [Int], geos: GEOSContext) throws -> [Polygon] {
        var ring = kept.map { Point(run.lon[$0], run.lat[$0]) }
        guard let first = ring.first else { return [] }
        if ring.last != first { ring.append(first) }
        guard ring.count >= 4 else { return [] }
        if let simple = simpleRing(ring) { return [Polygon(rings: [simple])] }
        return try madeValid(ring, geos: geos)
    }

    /// GEOS's make-valid (the structure method, a zero buffer) of a closed ring.
    static func madeValid(_ ring: Ring, geos: GEOSContext) throws -> [Polygon] {
        let g = try geos.polygon(Polygon(rings: [ring]))
        let valid = try g.makeValid()
        // Parts with area, largest first (the one runs.loop_polygon keeps); ties by first
        // vertex, so the order never depends on GEOS's. Planar area in degrees is enough to
        // order a few km of loop.
        func area(_ p: Polygon) -> Double {
            p.rings.enumerated().reduce(0.0) { acc, r in
                var a = 0.0
                for (u, v) in zip(r.element, r.element.dropFirst()) { a += u.x * v.y - v.x * u.y }
                return acc + (r.offset == 0 ? abs(a) : -abs(a)) / 2
            }
        }
        return try valid.polygons().map { ($0, area($0)) }
            .filter { $0.1 > 0 }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : ($0.0.exterior[0].x, $0.0.exterior[0].y) < ($1.0.exterior[0].x, $1.0.exterior[0].y) }
            .map(\.0)
    }

    /// What make-valid returns for a closed ring that does not touch or cross itself, without
    /// asking GEOS (about a third of a night's loops; two zero buffers of 1,000 vertices each
    /// are the stage's largest cost): the ring without repeated consecutive points, clockwise
    /// (a zero buffer's shell), from the same first point. Nil when the ring is not certainly
    /// simple — a pair of segments that meet, cross or nearly do, a spike back along the last
    /// segment, no area — and GEOS decides. `LoopTests` checks this against GEOS.
    static func simpleRing(_ ring: Ring) -> Ring? {
        var pts: Ring = []
        pts.reserveCapacity(ring.count)
        for p in ring where pts.last != p { pts.append(p) }
        let n = pts.count - 1  // segments; pts[n] == pts[0]
        guard n >= 3, pts[n] == pts[0] else { return nil }
        let x0 = pts[0].x, y0 = pts[0].y
        // Near-zero determinants count as touching: only clear answers skip GEOS.
        @inline(__always) func orient(_ p: Point, _ q: Point, _ r: Point) -> Int {
            let a = (q.x - p.x) * (r.y - p.y), b = (q.y - p.y) * (r.x - p.x)
            let d = a - b
            if abs(d) <= 1e-9 * (abs(a) + abs(b)) { return 0 }
            return d > 0 ? 1 : -1
        }
        var area2 = 0.0
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for i in 0..<n {
            let a = pts[i], b = pts[i + 1]
            area2 += (a.x - x0) * (b.y - y0) - (b.x - x0) * (a.y - y0)
            minX = min(minX, a.x); maxX = max(maxX, a.x); minY = min(minY, a.y); maxY = max(maxY, a.y)
            // A turn straight back (collinear, reversing) overlaps the previous segment.
            let c = pts[i + 2 > n ? 1 : i + 2]
            if orient(a, b, c) == 0 && (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) <= 0 { return nil }
        }
        let diag2 = (maxX - minX) * (maxX - minX) + (maxY - minY) * (maxY - minY)
        guard diag2 > 0, abs(area2) > 1e-9 * diag2 else { return nil }
        // Sweep along x: each segment against those whose x-range starts within its own.
        struct Seg { var lox, hix, loy, hiy: Double; var i: Int }
        var segs = (0..<n).map { i -> Seg in
            let a = pts[i], b = pts[i + 1]
            return Seg(lox: min(a.x, b.x), hix: max(a.x, b.x), loy: min(a.y, b.y), hiy: max(a.y, b.y), i: i)
        }
        segs.sort { $0.lox < $1.lox }
        for s in 0..<n {
            let u = segs[s]
            var t = s + 1
            while t < n, segs[t].lox <= u.hix {
                let v = segs[t]
                t += 1
                if v.loy > u.hiy || v.hiy < u.loy { continue }
                let d = abs(u.i - v.i)
                if d == 1 || d == n - 1 { continue }  // neighbours share a point (checked above)
                let a = pts[u.i], b = pts[u.i + 1], c = pts[v.i], e = pts[v.i + 1]
                let o1 = orient(a, b, c), o2 = orient(a, b, e), o3 = orient(c, e, a), o4 = orient(c, e, b)
                if o1 == 0 || o2 == 0 || o3 == 0 || o4 == 0 { return nil }
                if o1 != o2 && o3 != o4 { return nil }
            }
        }
        return area2 > 0 ? pts.reversed() : pts
    }

    /// The resolution-`res` cells whose centre lies inside one of the polygons (H3's own
    /// containment, the same as h3-py's polygon_to_cells), sorted and without repeats.
    public static func cells(_ polygons: [Polygon], res: Int) throws -> [UInt64] {
        var out = Set<UInt64>()
        for p in polygons {
            func loop(_ r: Ring) -> [LatLng] {
                var pts = r
                if pts.count > 1 && pts.first == pts.last { pts.removeLast() }
                return pts.map { LatLng(latDegrees: $0.y, lngDegrees: $0.x) }
            }
            let gp = GeoPolygon(outer: loop(p.exterior), holes: p.holes.map(loop))
            for c in try H3.polygonToCells(gp, res: res) { out.insert(c.value) }
        }
        return out.sorted()
    }
}


import Foundation
import GeoGEOS
import GeoModel
import GeoPROJ
import H3
import TerritoryRules

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
        // Made valid in a plane where the loop is in one piece: across ±180° its longitudes
        // run on past 180 (the SQL stores it so: one valid polygon, PostGIS's geography area).
        ring = continuous(ring)
        switch shape(ring) {
        case .simple(let simple): return [Polygon(rings: [simple])]
        case .oneSided: return try madeValid(ring, geos: geos, oneSided: true)
        case .unsure: return try madeValid(ring, geos: geos)
        }
    }

    /// GEOS's make-valid (the structure method) of a closed ring. That method is two zero
    /// buffers of the ring, one for the regions it winds around in the sense of its area and one
    /// for those it winds around the other way (a figure-eight's second lobe), combined; when
    /// the second is empty the result is the first exactly. `oneSided`: the caller proved there
    /// is no region of the other sense (`shape`), so only the first is computed.
    static func madeValid(_ ring: Ring, geos: GEOSContext, oneSided: Bool = false) throws -> [Polygon] {
        let g = try geos.polygon(Polygon(rings: [ring]))
        let valid = try oneSided ? g.zeroBuffer() : g.makeValid()
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

    enum Shape: Equatable {
        /// The ring touches and crosses nothing: this is what make-valid returns, without
        /// asking GEOS (about a third of a night's loops; two zero buffers of 1,000 vertices
        /// each are the stage's largest cost): the ring without repeated consecutive points,
        /// clockwise (a zero buffer's shell), from the same first point. Not when the ring is
        /// not certainly simple — a pair of segments that meet, cross or nearly do, a spike
        /// back along the last segment, no area — and GEOS decides. `LoopTests` checks this
        /// against GEOS.
        case simple(Ring)
        /// It only crosses itself, cleanly, and winds around no region against the sense of its
        /// area: make-valid is its zero buffer alone.
        case oneSided
        /// Anything else: make-valid decides.
        case unsure
    }

    /// At most this many crossings are analysed (each costs a pass over the ring).
    static let maxCrossings = 64

    static func shape(_ ring: Ring) -> Shape {
        var pts: Ring = []
        pts.reserveCapacity(ring.count)
        for p in ring where pts.last != p { pts.append(p) }
        let n = pts.count - 1  // segments; pts[n] == pts[0]
        guard n >= 3, pts[n] == pts[0] else { return .unsure }
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
            if orient(a, b, c) == 0 && (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) <= 0 { return .unsure }
        }
        let diag2 = (maxX - minX) * (maxX - minX) + (maxY - minY) * (maxY - minY)
        guard diag2 > 0, abs(area2) > 1e-9 * diag2 else { return .unsure }
        // Sweep along x: each segment against those whose x-range starts within its own.
        let segs = sortedSegments(pts, n, minX: minX, maxX: maxX)
        var crossings: [(Int, Int)] = []
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
                if o1 == 0 || o2 == 0 || o3 == 0 || o4 == 0 { return .unsure }
                if o1 != o2 && o3 != o4 {
                    crossings.append((u.i, v.i))
                    if crossings.count > maxCrossings { return .unsure }
                }
            }
        }
        if crossings.isEmpty { return .simple(area2 > 0 ? pts.reversed() : pts) }

        // Only clean crossings: every region the ring bounds has a crossing on its border (a
        // border without one would be the whole ring, which does cross), and around a crossing
        // the four regions wind w-1, w, w, w+1 times, where w is what the ring's other segments
        // wind around that point. So the ring winds the wrong way nowhere exactly when, at
        // every crossing, w-1 ≥ 0 (a counter-clockwise area) or w+1 ≤ 0 (a clockwise one).
        // w is counted along a ray to +x from the crossing, in floating point, so anything
        // closer to the crossing than `tol` (a micrometre) makes the ring unsure.
        let tol = 1e-11
        for (i, j) in crossings {
            let a = pts[i], b = pts[i + 1], c = pts[j], e = pts[j + 1]
            // Segments nearly along the ray would cross it far from the crossing point.
            let dyi = b.y - a.y, dyj = e.y - c.y
            guard abs(dyi) >= 1e-3 * abs(b.x - a.x), abs(dyj) >= 1e-3 * abs(e.x - c.x) else { return .unsure }
            let den = (b.x - a.x) * (e.y - c.y) - (b.y - a.y) * (e.x - c.x)
            let t = ((c.x - a.x) * (e.y - c.y) - (c.y - a.y) * (e.x - c.x)) / den
            let x = Point(a.x + t * (b.x - a.x), a.y + t * dyi)
            // Winding of a point just right of x along the ray, from the other segments.
            var w = 0
            for k in 0..<n where k != i && k != j {
                let p = pts[k], q = pts[k + 1]
                if abs(p.y - x.y) < tol || abs(q.y - x.y) < tol { return .unsure }
                let up = p.y < x.y && q.y > x.y, down = q.y < x.y && p.y > x.y
                guard up || down else { continue }
                let d = (q.x - p.x) * (x.y - p.y) - (q.y - p.y) * (x.x - p.x)
                // d / |pq| is x's distance to the segment's line.
                if d * d <= tol * tol * ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)) { return .unsure }
                if up && d > 0 { w += 1 } else if down && d < 0 { w -= 1 }
            }
            // That point lies left (+1) of a segment going down, right (-1) of one going up.
            let side = (dyi > 0 ? -1 : 1) + (dyj > 0 ? -1 : 1)
            let w0 = w - side / 2
            if area2 > 0 ? w0 - 1 < 0 : w0 + 1 > 0 { return .unsure }
        }
        return .oneSided
    }

    /// A segment's bounding box and its index (segment i runs from point i to i + 1).
    struct Seg { var lox, hix, loy, hiy: Double; var i: Int }

    /// The most segments a bucket of `sortedSegments` sorts by insertion.
    static let maxBucket: Int32 = 64

    /// The ring's `n` segments in order of their least x, for `shape`'s sweep: a counting sort
    /// into n buckets of x, each bucket then sorted by insertion (a bucket holds a segment or
    /// two; a comparison sort was a third of `shape`). Segments with the same least x may come
    /// in any order: the sweep tests the same pairs whatever their order. A ring with more than
    /// `maxBucket` segments in one bucket (a long stop, or a hostile run's thousands of fixes
    /// inside a bucket's width) is sorted by comparison: insertion there is quadratic.
    static func sortedSegments(_ pts: Ring, _ n: Int, minX: Double, maxX: Double) -> [Seg] {
        var segs: [Seg] = []
        segs.reserveCapacity(n)
        var bucket = [Int32](repeating: 0, count: n + 1)
        let scale = maxX > minX ? Double(n) / (maxX - minX) : 0
        @inline(__always) func slot(_ x: Double) -> Int { min(n - 1, Int((x - minX) * scale)) }
        var crowded = false
        for i in 0..<n {
            let a = pts[i], b = pts[i + 1]
            let s = Seg(lox: min(a.x, b.x), hix: max(a.x, b.x), loy: min(a.y, b.y), hiy: max(a.y, b.y), i: i)
            segs.append(s)
            let k = slot(s.lox) + 1
            bucket[k] += 1
            if bucket[k] > maxBucket { crowded = true }
        }
        if crowded {
            segs.sort { $0.lox < $1.lox }
            return segs
        }
        for k in 0..<n { bucket[k + 1] += bucket[k] }
        let starts = bucket
        return [Seg](unsafeUninitializedCapacity: n) { out, count in
            for s in segs {
                let k = slot(s.lox)
                var j = Int(bucket[k])
                bucket[k] += 1
                // Insertion within the bucket.
                let start = Int(starts[k])
                while j > start, out[j - 1].lox > s.lox { out[j] = out[j - 1]; j -= 1 }
                out[j] = s
            }
            count = n
        }
    }

    /// `RunLoop.continuous` (TerritoryRules) on a ring of points.
    static func continuous(_ ring: Ring) -> Ring {
        // Most rings cross nothing, and `RunLoop.continuous` returns them as they are.
        guard ring.indices.dropFirst().contains(where: { abs(ring[$0].x - ring[$0 - 1].x) > 180 }) else { return ring }
        let (x, y) = RunLoop.continuous(lon: ring.map(\.x), lat: ring.map(\.y))
        return zip(x, y).map { Point($0, $1) }
    }

    /// A polygon of the continuous plane back in −180…180 for H3 (whose own polygons cross
    /// ±180° as a jump).
    static func wrapped(_ r: Ring) -> Ring { r.map { $0.x > 180 ? Point($0.x - 360, $0.y) : $0 } }

    /// Area (m²) of a loop: in a local plane scaled by WGS 84's radii of curvature at its mean
    /// latitude — within 0.1 % of the geodesic area for a loop a few km across, and a thousand
    /// times cheaper than the geodesic polygon area on a 1,000-vertex loop — except near the
    /// poles or over many degrees of longitude, where the geodesic area (PROJ) is used. A ring
    /// closed through a pole is measured without its pole points: the geodesic polygon area
    /// counts the cap a ring circles.
    public static func area(_ p: Polygon) -> Double {
        var minX = Double.infinity, maxX = -Double.infinity, maxLat = 0.0
        for q in p.exterior { minX = min(minX, q.x); maxX = max(maxX, q.x); maxLat = max(maxLat, abs(q.y)) }
        guard maxLat > 80 || maxX - minX > 1 else { return localArea(p) }
        func ring(_ r: Ring) -> Double { abs(Geodesic.wgs84.ringArea(wrapped(r).filter { abs($0.y) < 90 })) }
        return p.rings.enumerated().reduce(0.0) { $0 + ($1.offset == 0 ? 1 : -1) * ring($1.element) }
    }

    static func localArea(_ p: Polygon) -> Double {
        let ring = p.exterior
        guard ring.count >= 4 else { return 0 }
        let lat0 = ring.reduce(0.0) { $0 + $1.y } / Double(ring.count) * .pi / 180
        let e2 = Ellipsoid.wgs84.e2, a = Ellipsoid.wgs84.a
        let w = (1 - e2 * sin(lat0) * sin(lat0)).squareRoot()
        let m = a * (1 - e2) / (w * w * w), n = a / w
        let kx = n * cos(lat0) * .pi / 180, ky = m * .pi / 180
        func shoelace(_ r: Ring) -> Double {
            var s = 0.0
            for (u, v) in zip(r, r.dropFirst()) { s += (u.x - r[0].x) * (v.y - r[0].y) - (v.x - r[0].x) * (u.y - r[0].y) }
            return abs(s) / 2 * kx * ky
        }
        return p.rings.enumerated().reduce(0.0) { $0 + ($1.offset == 0 ? 1 : -1) * shoelace($1.element) }
    }

    /// The resolution-`res` cells whose centre lies inside one of the polygons (H3's own
    /// containment, the same as h3-py's polygon_to_cells), sorted and without repeats.
    public static func cells(_ polygons: [Polygon], res: Int) throws -> [UInt64] {
        var out = Set<UInt64>()
        for p in polygons {
            if p.exterior.contains(where: { abs($0.y) == 90 }) {
                out.formUnion(try RunLoop.polarCells(rings: p.rings.map { ($0.map(\.x), $0.map(\.y)) }, res: res))
                continue
            }
            func loop(_ r: Ring) -> [LatLng] {
                var pts = wrapped(r)
                if pts.count > 1 && pts.first == pts.last { pts.removeLast() }
                return pts.map { LatLng(latDegrees: $0.y, lngDegrees: $0.x) }
            }
            let gp = GeoPolygon(outer: loop(p.exterior), holes: p.holes.map(loop))
            for c in try H3.polygonToCells(gp, res: res) { out.insert(c.value) }
        }
        return out.sorted()
    }
}


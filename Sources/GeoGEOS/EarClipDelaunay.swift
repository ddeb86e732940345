import GeoModel
import Geodesy

/// The constrained Delaunay triangulation GEOS 3.11 computes (`GEOSConstrainedDelaunayTriangulation`:
/// JTS's ear clipping, then Delaunay edge flips scan after scan), for a polygon without holes,
/// in Swift: the same decisions in the same order, so the same triangles in the same order
/// with the same corners, without building GEOS geometries for the input and for every
/// triangle (two thirds of the call's cost). `EarClipDelaunayTests` compares it with GEOS
/// on every hole-free polygon of the 1:50m map units and on tile-like shapes. Rings with holes or repeated vertices are left to
/// GEOS (nil), and so is a ring GEOS would give up on (no ear found).
public enum EarClipDelaunay {
    /// Triangles of the closed, valid `ring` (first point repeated last) as corner points,
    /// three per triangle, in GEOS's order; nil when GEOS must do it.
    public static func triangulate(ring: [Point]) -> [Point]? {
        let n = ring.count - 1
        guard n >= 3, ring[0] == ring[n] else { return nil }
        // GEOS normalises the polygon first: the shell starts at its smallest vertex (x, then
        // y) and runs clockwise.
        var m = 0
        for i in 1..<n where ring[i].x < ring[m].x || (ring[i].x == ring[m].x && ring[i].y < ring[m].y) { m = i }
        var v = [Point](repeating: Point(0, 0), count: n)
        for k in 0..<n { v[k] = ring[(m + k) % n] }
        if isCCW(v) { v = [v[0]] + v[1...].reversed() }
        var clipper = EarClipper(v)
        guard var tris = clipper.compute() else { return nil }
        DelaunayImprover.improve(&tris, v)
        var out: [Point] = []
        out.reserveCapacity(tris.corners.count)
        for c in tris.corners { out.append(v[Int(c)]) }
        return out
    }

    // MARK: predicates, as GEOS computes them

    /// GEOS's `Orientation::index(p1, p2, q)`: 1 counter-clockwise, −1 clockwise, 0 collinear.
    /// Its floating-point filter, then the exact sign where the filter cannot decide (GEOS uses
    /// double-double there, which is exact for these differences and products but the last
    /// term of each product; both agree unless the three points are collinear to 1e-30).
    @inline(__always) static func orientation(_ p1: Point, _ p2: Point, _ q: Point) -> Int {
        let detleft = (p1.x - q.x) * (p2.y - q.y)
        let detright = (p1.y - q.y) * (p2.x - q.x)
        let det = detleft - detright
        let detsum: Double
        if detleft > 0 {
            if detright <= 0 { return sign(det) }
            detsum = detleft + detright
        } else if detleft < 0 {
            if detright >= 0 { return sign(det) }
            detsum = -detleft - detright
        } else {
            return sign(det)
        }
        let bound = 1e-15 * detsum
        if det >= bound || -det >= bound { return sign(det) }
        return exactOrientation(p1, p2, q)
    }

    @inline(__always) static func sign(_ x: Double) -> Int { x < 0 ? -1 : (x > 0 ? 1 : 0) }

    /// The exact sign of (p2 − p1) × (q − p2): every difference split into two doubles
    /// (two-sum), every product into two (fused multiply-add), their sum as an expansion.
    static func exactOrientation(_ p1: Point, _ p2: Point, _ q: Point) -> Int {
        func diff(_ a: Double, _ b: Double) -> (Double, Double) {
            let s = a - b, bb = s - a, aa = s - bb
            return (s, (a - aa) - (b + bb))
        }
        let dx1 = diff(p2.x, p1.x), dy1 = diff(p2.y, p1.y), dx2 = diff(q.x, p2.x), dy2 = diff(q.y, p2.y)
        var terms: [Double] = []
        terms.reserveCapacity(16)
        func product(_ a: Double, _ b: Double, _ s: Double) {
            let p = a * b
            terms.append(s * p)
            terms.append(s * (-p).addingProduct(a, b))
        }
        for a in [dx1.0, dx1.1] { for b in [dy2.0, dy2.1] { product(a, b, 1) } }
        for a in [dy1.0, dy1.1] { for b in [dx2.0, dx2.1] { product(a, b, -1) } }
        // Shewchuk's grow-expansion with zero elimination: the last component carries the sign.
        var e: [Double] = []
        e.reserveCapacity(32)
        for t in terms {
            var q = t
            var h: [Double] = []
            h.reserveCapacity(e.count + 1)
            for x in e {
                let s = q + x, bv = s - q, av = s - bv
                let err = (q - av) + (x - bv)
                if err != 0 { h.append(err) }
                q = s
            }
            if q != 0 { h.append(q) }
            e = h
        }
        return sign(e.last ?? 0)
    }

    /// GEOS's `Orientation::isCCW` of a ring given without its closing point.
    static func isCCW(_ v: [Point]) -> Bool {
        let n = v.count
        func at(_ i: Int) -> Point { v[i % n] }
        var upHi = v[0], upLow = Point(.nan, .nan)
        var prevY = upHi.y
        var iUpHi = 0
        for i in 1...n {
            let py = at(i).y
            if py > prevY && py >= upHi.y { iUpHi = i; upHi = at(i); upLow = at(i - 1) }
            prevY = py
        }
        if iUpHi == 0 { return false }
        var iDownLow = iUpHi
        repeat { iDownLow = (iDownLow + 1) % n } while iDownLow != iUpHi && at(iDownLow).y == upHi.y
        let downLow = at(iDownLow)
        let downHi = at(iDownLow > 0 ? iDownLow - 1 : n - 1)
        if upHi == downHi {
            if upLow == upHi || downLow == upHi || upLow == downLow { return false }
            return orientation(upLow, upHi, downLow) == 1
        }
        return downHi.x - upHi.x < 0
    }

    /// The in-circle determinant's six products and three lifts, in precision T, in GEOS's
    /// order of operations (each difference, then each product).
    @inline(__always) static func inCircleTerms<T: BinaryFloatingPoint>(_ a: Point, _ b: Point, _ c: Point, _ p: Point, _: T.Type)
        -> (bdxcdy: T, cdxbdy: T, alift: T, cdxady: T, adxcdy: T, blift: T, adxbdy: T, bdxady: T, clift: T) {
        let px = T(p.x), py = T(p.y)
        let adx = T(a.x) - px, ady = T(a.y) - py
        let bdx = T(b.x) - px, bdy = T(b.y) - py
        let cdx = T(c.x) - px, cdy = T(c.y) - py
        return (bdx * cdy, cdx * bdy, adx * adx + ady * ady,
                cdx * ady, adx * cdy, bdx * bdx + bdy * bdy,
                adx * bdy, bdx * ady, cdx * cdx + cdy * cdy)
    }

    /// GEOS's `TrianglePredicate::isInCircleNormalized` (computed in x87 extended precision).
    /// First Shewchuk's filter in double: where it decides, the sign is exact, and GEOS's
    /// extended-precision comparison (error under 1e-18 of the same permanent) agrees with it.
    @inline(__always) static func isInCircle(_ a: Point, _ b: Point, _ c: Point, _ p: Point) -> Bool {
        let t = inCircleTerms(a, b, c, p, Double.self)
        let det = t.alift * (t.bdxcdy - t.cdxbdy) + t.blift * (t.cdxady - t.adxcdy) + t.clift * (t.adxbdy - t.bdxady)
        let permanent = (abs(t.bdxcdy) + abs(t.cdxbdy)) * t.alift + (abs(t.cdxady) + abs(t.adxcdy)) * t.blift
            + (abs(t.adxbdy) + abs(t.bdxady)) * t.clift
        // Shewchuk's bound for this evaluation is (10 + 96ε)ε·permanent ≈ 1.11e-15·permanent.
        let bound = 2e-15 * permanent
        if det > bound { return true }
        if -det > bound { return false }
        return isInCircleExtended(a, b, c, p)
    }

    /// GEOS's computation itself, in `long double`.
    static func isInCircleExtended(_ a: Point, _ b: Point, _ c: Point, _ p: Point) -> Bool {
        let t = inCircleTerms(a, b, c, p, Float80.self)
        return (t.alift * t.bdxcdy + t.blift * t.cdxady + t.clift * t.adxbdy) > (t.alift * t.cdxbdy + t.blift * t.adxcdy + t.clift * t.bdxady)
    }

    // MARK: ear clipping

    /// Triangles as vertex indexes, three corners each, and each edge's neighbour (edge k of
    /// triangle t runs from corner k to corner k + 1; −1: none).
    struct Tris {
        var corners: [Int32] = []
        var adjacent: [Int32] = []
        var count: Int { corners.count / 3 }
    }

    /// JTS's `PolygonEarClipper` as GEOS 3.11 runs it (flat corners not skipped).
    struct EarClipper {
        let v: [Point]
        var next: [Int32]
        var removed: [Bool]
        var size: Int
        /// The vertices in a uniform grid over their box (about two a cell), as index lists
        /// per cell; removed vertices stay and are skipped when met.
        let originX: Double, originY: Double, scaleX: Double, scaleY: Double
        let columns: Int, rows: Int
        var cellStart: [Int32]
        var cellItems: [Int32]

        init(_ v: [Point]) {
            self.v = v
            let n = v.count
            next = (0..<n).map { Int32(($0 + 1) % n) }
            removed = [Bool](repeating: false, count: n)
            size = n
            var box = BoundingBox.empty
            for p in v { box.extend(p) }
            let side = max(1, Int(Double(n / 2).squareRoot()))
            columns = side; rows = side
            originX = box.minX; originY = box.minY
            scaleX = box.maxX > box.minX ? Double(side) / (box.maxX - box.minX) : 0
            scaleY = box.maxY > box.minY ? Double(side) / (box.maxY - box.minY) : 0
            // Counting sort of the vertices by cell.
            var start = [Int32](repeating: 0, count: side * side + 1)
            var cellOf = [Int32](repeating: 0, count: n)
            for i in 0..<n {
                let c = Self.cell(v[i].x, originX, scaleX, side) + side * Self.cell(v[i].y, originY, scaleY, side)
                cellOf[i] = Int32(c)
                start[c + 1] += 1
            }
            for c in 0..<(side * side) { start[c + 1] += start[c] }
            var fill = start
            var items = [Int32](repeating: 0, count: n)
            for i in 0..<n {
                let c = Int(cellOf[i])
                items[Int(fill[c])] = Int32(i)
                fill[c] += 1
            }
            cellStart = start
            cellItems = items
        }

        @inline(__always) static func cell(_ x: Double, _ origin: Double, _ scale: Double, _ count: Int) -> Int {
            min(count - 1, max(0, Int((x - origin) * scale)))
        }

        mutating func compute() -> Tris? {
            var out = Tris()
            out.corners.reserveCapacity(3 * (v.count - 2))
            var c0 = 0, c1 = 1, c2 = 2
            var scans = 0
            while true {
                let a = v[c0], b = v[c1], c = v[c2]
                if EarClipDelaunay.orientation(a, b, c) != -1 {
                    // Not convex. GEOS drops a corner with repeated points, which distinct
                    // vertices never make.
                    scans += 1
                } else if isValidEar(c1, a, b, c) {
                    out.corners.append(Int32(c0)); out.corners.append(Int32(c1)); out.corners.append(Int32(c2))
                    // Remove the apex; the corner moves on to the vertex after it.
                    next[c0] = next[c1]
                    removed[c1] = true
                    size -= 1
                    c1 = Int(next[c0]); c2 = Int(next[c1])
                    scans = 0
                }
                if scans > 2 * size { return nil }
                if size < 3 { return out }
                c0 = Int(next[c0]); c1 = Int(next[c0]); c2 = Int(next[c1])
            }
        }

        /// No other remaining vertex lies in the closed triangle (GEOS's `Triangle::intersects`
        /// for a clockwise corner: outside only strictly to the left of an edge).
        func isValidEar(_ apex: Int, _ a: Point, _ b: Point, _ c: Point) -> Bool {
            let minX = min(a.x, b.x, c.x), maxX = max(a.x, b.x, c.x)
            let minY = min(a.y, b.y, c.y), maxY = max(a.y, b.y, c.y)
            // Every cell the corner's box touches (a vertex in the box is in one of them).
            let x0 = Self.cell(minX, originX, scaleX, columns), x1 = Self.cell(maxX, originX, scaleX, columns)
            let y0 = Self.cell(minY, originY, scaleY, rows), y1 = Self.cell(maxY, originY, scaleY, rows)
            for cy in y0...y1 {
                for cx in x0...x1 {
                    let cell = cy * columns + cx
                    for k in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                        let i = Int(cellItems[k])
                        if i == apex || removed[i] { continue }
                        let p = v[i]
                        if p.x < minX || p.x > maxX || p.y < minY || p.y > maxY { continue }
                        if p == a || p == c { continue }
                        // (p == b cannot happen: the vertices are distinct.)
                        if EarClipDelaunay.orientation(a, b, p) == 1 { continue }
                        if EarClipDelaunay.orientation(b, c, p) == 1 { continue }
                        if EarClipDelaunay.orientation(c, a, p) == 1 { continue }
                        return false
                    }
                }
            }
            return true
        }
    }

    // MARK: Delaunay flips

    /// JTS's `TriDelaunayImprover`: scans of every triangle but the last, each edge in turn,
    /// flipping non-Delaunay pairs, until a scan flips nothing (at most 200 scans).
    enum DelaunayImprover {
        static func improve(_ t: inout Tris, _ v: [Point]) {
            buildAdjacency(&t)
            let n = t.count
            guard n > 1 else { return }
            // An edge found Delaunay (or not convex) stays so until one of its two triangles
            // changes: a flip of it, or of a neighbour (which changes who it faces). Such
            // edges are not asked again; asking would answer the same, so the flips are GEOS's.
            var modified = [Int](repeating: 0, count: n)
            var clean = [Int](repeating: -1, count: 3 * n)
            var generation = 0
            v.withUnsafeBufferPointer { vp in
            t.corners.withUnsafeMutableBufferPointer { cp in
            t.adjacent.withUnsafeMutableBufferPointer { ap in
            modified.withUnsafeMutableBufferPointer { mp in
            clean.withUnsafeMutableBufferPointer { kp in
                let s = Scan(v: vp.baseAddress!, c: cp.baseAddress!, a: ap.baseAddress!)
                let m = mp.baseAddress!, cl = kp.baseAddress!
                for _ in 0..<200 {
                    var flips = 0
                    for i in 0..<(n - 1) {
                        for k in 0..<3 {
                            let other = Int(s.a[3 * i + k])
                            if other < 0 { continue }
                            let since = cl[3 * i + k]
                            if since >= m[i] && since >= m[other] { continue }
                            if let (a1, a2) = s.improve(i, k, other) {
                                flips += 1
                                generation += 1
                                m[i] = generation; m[other] = generation
                                if a1 >= 0 { m[a1] = generation }
                                if a2 >= 0 { m[a2] = generation }
                            } else {
                                // The same edge seen from the other triangle gives the same answer.
                                cl[3 * i + k] = generation
                                let t = Int32(i)
                                cl[3 * other + (s.a[3 * other] == t ? 0 : (s.a[3 * other + 1] == t ? 1 : 2))] = generation
                            }
                        }
                    }
                    if flips == 0 { return }
                }
            }
            }
            }
            }
            }
        }

        /// Each shared edge's two triangles (the edge runs opposite ways in them): an open
        /// addressing table of directed edges waiting for their twin.
        static func buildAdjacency(_ t: inout Tris) {
            let n = t.count
            t.adjacent = [Int32](repeating: -1, count: 3 * n)
            var size = 16
            while size < 6 * n { size <<= 1 }
            let mask = size - 1
            var keys = [UInt64](repeating: .max, count: size)
            var owner = [Int32](repeating: 0, count: size)
            @inline(__always) func slot(_ key: UInt64) -> Int {
                var h = key &* 0x9E37_79B9_7F4A_7C15
                h ^= h >> 29
                return Int(truncatingIfNeeded: h) & mask
            }
            for i in 0..<n {
                for k in 0..<3 {
                    let a = UInt64(UInt32(t.corners[3 * i + k])), b = UInt64(UInt32(t.corners[3 * i + (k + 1) % 3]))
                    // The twin b→a, stored by the triangle met first?
                    let twin = b << 32 | a
                    var j = slot(twin)
                    var found: Int32 = -1
                    while keys[j] != .max {
                        if keys[j] == twin { found = owner[j]; keys[j] = .max - 1; break }
                        j = (j + 1) & mask
                    }
                    if found >= 0 {
                        t.adjacent[3 * i + k] = found
                        // In triangle `found` the edge starts at b.
                        for kk in 0..<3 where t.corners[3 * Int(found) + kk] == Int32(b) { t.adjacent[3 * Int(found) + kk] = Int32(i) }
                    } else {
                        let key = a << 32 | b
                        var j = slot(key)
                        while keys[j] != .max && keys[j] != .max - 1 { j = (j + 1) & mask }
                        keys[j] = key; owner[j] = Int32(i)
                    }
                }
            }
        }

        @inline(__always) static func nextIndex(_ i: Int) -> Int { i == 2 ? 0 : i + 1 }
        @inline(__always) static func prevIndex(_ i: Int) -> Int { i == 0 ? 2 : i - 1 }

        /// One scan's view of the vertices, corners and neighbours.
        struct Scan {
            let v: UnsafePointer<Point>
            let c: UnsafeMutablePointer<Int32>
            let a: UnsafeMutablePointer<Int32>

            /// Flips edge k of triangle `tri` (shared with `other`) when their quadrilateral is
            /// convex and not Delaunay; then returns the two neighbours whose neighbour changed.
            @inline(__always) func improve(_ tri: Int, _ k: Int, _ other: Int) -> (Int, Int)? {
                let t = Int32(tri)
                let k1 = a[3 * other] == t ? 0 : (a[3 * other + 1] == t ? 1 : 2)
                let adj0 = v[Int(c[3 * tri + k])], adj1 = v[Int(c[3 * tri + nextIndex(k)])]
                let opp0 = v[Int(c[3 * tri + prevIndex(k)])], opp1 = v[Int(c[3 * other + prevIndex(k1)])]
                // GEOS asks "convex?" (the new edge opp0–opp1 inside the quadrilateral) before
                // "Delaunay?" (neither opposite vertex inside the other's circumcircle); both
                // are pure, so the usual answer (Delaunay) is found first and alone.
                if !(isInCircle(adj0, opp0, adj1, opp1) || isInCircle(adj1, opp1, adj0, opp0)) { return nil }
                if EarClipDelaunay.orientation(opp0, adj0, opp1) != EarClipDelaunay.orientation(opp1, adj1, opp0) { return nil }
                return flip(tri, k, other, k1)
            }

            /// GEOS's `Tri::flip`: this triangle becomes (opp1, opp0, adj0), the other (opp0, opp1, adj1).
            @inline(__always) func flip(_ tri: Int, _ k: Int, _ other: Int, _ k1: Int) -> (Int, Int) {
                let adj0 = c[3 * tri + k], adj1 = c[3 * tri + nextIndex(k)]
                let opp0 = c[3 * tri + prevIndex(k)], opp1 = c[3 * other + prevIndex(k1)]
                let a0 = a[3 * tri + prevIndex(k)], a1 = a[3 * tri + nextIndex(k)]
                let a2 = a[3 * other + nextIndex(k1)], a3 = a[3 * other + prevIndex(k1)]
                c[3 * tri] = opp1; c[3 * tri + 1] = opp0; c[3 * tri + 2] = adj0
                c[3 * other] = opp0; c[3 * other + 1] = opp1; c[3 * other + 2] = adj1
                a[3 * tri] = Int32(other); a[3 * tri + 1] = a0; a[3 * tri + 2] = a2
                if a2 >= 0 { replace(Int(a2), other, tri) }
                a[3 * other] = Int32(tri); a[3 * other + 1] = a3; a[3 * other + 2] = a1
                if a1 >= 0 { replace(Int(a1), tri, other) }
                return (Int(a1), Int(a2))
            }

            /// In `tri`'s neighbours, the first `old` becomes `new`.
            @inline(__always) func replace(_ tri: Int, _ old: Int, _ new: Int) {
                for k in 0..<3 where a[3 * tri + k] == Int32(old) {
                    a[3 * tri + k] = Int32(new)
                    return
                }
            }
        }
    }
}

import Foundation
import Geodesy
import Parallelism

/// Writes the lookup index (format in IndexFormat.swift) from country polygons at full
/// detail and a list of cities. Pure Swift, so the pipeline's stage stays a thin reader of
/// its input files; the app only ever reads the result.
///
/// Country membership is the planar point-in-polygon test on longitude/latitude, as GeoJSON
/// polygons are defined (RFC 7946) and as GEOS answers it. The 12-nautical-mile rule is the
/// great-circle distance to the nearest boundary edge (edges taken as great-circle arcs).
public struct LookupIndexBuilder: Sendable {
    public struct Country: Sendable {
        public var code: String
        /// Every ring of every polygon (outer rings and holes alike: membership is by
        /// crossing parity, so orientation does not matter), as lon/lat coordinates.
        public var rings: [[Coordinate]]
        public init(code: String, rings: [[Coordinate]]) { self.code = code; self.rings = rings }
    }

    public struct City: Sendable {
        public var name: String
        public var countryCode: String?
        public var coordinate: Coordinate
        public var population: Int
        public init(name: String, countryCode: String?, coordinate: Coordinate, population: Int) {
            self.name = name; self.countryCode = countryCode; self.coordinate = coordinate; self.population = population
        }
    }

    public struct Parameters: Sendable {
        /// A cell with more border edges than this is split in four.
        public var maxEdgesPerLeaf = 32
        /// Deepest split below the 1° roots (10 → cells of 1/1024°, about 110 m).
        public var maxDepth = 10
        /// Deepest split of open-sea cells where the buffer's edge or two coasts' equidistant
        /// line passes (3 → 1/8°, about 14 km); deeper means fewer distance searches at
        /// query time but a bigger file.
        public var seaMaxDepth = 3
        public var coastBufferKm = 22.224
        /// Root rows built at once; the rows' nodes are concatenated in row order, so the
        /// bytes do not depend on it.
        public var threads = 2
        public init() {}
    }

    public struct Statistics: Sendable {
        public var nodes = 0, leaves = 0, uniformNodes = 0, seaDistanceNodes = 0
        public var edges = 0, leafWords = 0, bytes = 0
        public init() {}
    }

    let countries: [Country]
    let cities: [City]
    let parameters: Parameters
    public private(set) var statistics = Statistics()

    public init(countries: [Country], cities: [City], parameters: Parameters = Parameters()) {
        self.countries = countries.sorted { $0.code < $1.code }
        self.cities = cities
        self.parameters = parameters
    }

    // MARK: - Edges

    /// Border edges in micro-degrees, each stored once with the countries whose boundary it
    /// is (two for a shared border, one for a coast). A country that has an edge twice
    /// (two of its own rings touching) cancels out, as the crossing parity would.
    struct Edges {
        var ax: [Int64] = [], ay: [Int64] = [], bx: [Int64] = [], by: [Int64] = []
        var ownerA: [UInt16] = [], ownerB: [UInt16] = []
        var va: [Vec3] = [], vb: [Vec3] = []
        var count: Int { ax.count }
    }

    static func micro(_ d: Double) -> Int64 { Int64((d * 1e6).rounded()) }

    func makeEdges() throws -> Edges {
        // An open-addressing table on the undirected edge (two packed endpoints); each edge's
        // owners are kept inline (a shared border has two), more only in `extra`. Same result
        // as a dictionary of owner lists: edges in order of first appearance, owners with an
        // odd count, sorted.
        var total = 0
        for c in countries { for r in c.rings { total += r.count } }
        var bits = 4
        while (1 << bits) < total + total / 2 { bits += 1 }
        let capacity = 1 << bits, slotMask = capacity - 1
        // a slot holds 32 bits of the key's hash and the edge + 1 (0: empty), 8 bytes; the
        // keys themselves are checked only when the hash bits agree
        var slots = [UInt64](repeating: 0, count: capacity)
        var keyP: [Int64] = [], keyQ: [Int64] = []
        var gx0: [Int64] = [], gy0: [Int64] = [], gx1: [Int64] = [], gy1: [Int64] = []
        var gva: [Vec3] = [], gvb: [Vec3] = []
        var own0: [UInt16] = [], own1: [UInt16] = []
        var extra: [Int: [UInt16]] = [:]
        let none = IndexFormat.noCountry16
        for (ci, country) in countries.enumerated() {
            let c16 = UInt16(ci)
            for ring in country.rings {
                guard ring.count >= 2 else { continue }
                var pts = ring.map { (Self.micro($0.longitude), Self.micro($0.latitude)) }
                if pts.first! != pts.last! { pts.append(pts[0]) }
                var va: Vec3? = nil
                for i in 0..<(pts.count - 1) {
                    let a = pts[i], b = pts[i + 1]
                    if a == b { continue }
                    let pa = (a.0 + 200_000_000) << 29 | (a.1 + 100_000_000)
                    let pb = (b.0 + 200_000_000) << 29 | (b.1 + 100_000_000)
                    let p = min(pa, pb), q = max(pa, pb)
                    var mix = UInt64(bitPattern: p) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: q)
                    mix = (mix ^ (mix >> 31)) &* 0xBF58_476D_1CE4_E5B9
                    var h = Int(truncatingIfNeeded: mix >> UInt64(64 - bits))
                    let tag = mix & 0xFFFF_FFFF
                    var k = -1
                    while slots[h] != 0 {
                        if slots[h] >> 32 == tag {
                            let j = Int(slots[h] & 0xFFFF_FFFF) - 1
                            if keyP[j] == p && keyQ[j] == q { k = j; break }
                        }
                        h = (h + 1) & slotMask
                    }
                    if k < 0 {
                        slots[h] = tag << 32 | UInt64(gx0.count + 1)
                        keyP.append(p); keyQ.append(q)
                        gx0.append(a.0); gy0.append(a.1); gx1.append(b.0); gy1.append(b.1)
                        // each vertex's vector once (the same values as per edge end)
                        let vA = va ?? Sphere.vector(latitude: Double(a.1) / 1e6, longitude: Double(a.0) / 1e6)
                        let vB = Sphere.vector(latitude: Double(b.1) / 1e6, longitude: Double(b.0) / 1e6)
                        gva.append(vA); gvb.append(vB)
                        own0.append(c16); own1.append(none)
                        va = vB
                        continue
                    }
                    va = nil
                    if var list = extra[k] {
                        if let at = list.firstIndex(of: c16) { list.remove(at: at) } else { list.append(c16) }
                        extra[k] = list
                    } else if own0[k] == c16 {
                        own0[k] = own1[k]; own1[k] = none
                    } else if own1[k] == c16 {
                        own1[k] = none
                    } else if own0[k] == none {
                        own0[k] = c16
                    } else if own1[k] == none {
                        own1[k] = c16
                    } else {
                        extra[k] = [own0[k], own1[k], c16]
                    }
                }
            }
        }
        var e = Edges()
        let n = gx0.count
        e.ax.reserveCapacity(n); e.ay.reserveCapacity(n); e.bx.reserveCapacity(n); e.by.reserveCapacity(n)
        e.ownerA.reserveCapacity(n); e.ownerB.reserveCapacity(n); e.va.reserveCapacity(n); e.vb.reserveCapacity(n)
        func emit(_ k: Int, _ a: UInt16, _ b: UInt16) {
            e.ax.append(gx0[k]); e.ay.append(gy0[k]); e.bx.append(gx1[k]); e.by.append(gy1[k])
            e.ownerA.append(a); e.ownerB.append(b)
            e.va.append(gva[k]); e.vb.append(gvb[k])
        }
        for k in 0..<n {
            if !extra.isEmpty, let list = extra[k] {
                let o = list.sorted()
                var i = 0
                while i < o.count { emit(k, o[i], i + 1 < o.count ? o[i + 1] : none); i += 2 }
                continue
            }
            // own0 is empty only when own1 is too
            let x = own0[k], y = own1[k]
            if x == none { continue }
            if y == none { emit(k, x, none) } else { emit(k, min(x, y), max(x, y)) }
        }
        return e
    }

    // MARK: - Exact predicates (micro-degrees, Int64: products stay below 2^57)

    typealias P = (x: Int64, y: Int64)

    @inline(__always) static func orient(_ a: P, _ b: P, _ c: P) -> Int64 {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// Does the walk r → p cross edge a–b? The rule the reader uses too: a vertex on the
    /// line r–p counts as right of it, and p on the edge counts as right of the edge
    /// directed from its lexicographically smaller end (south of an east–west edge, east
    /// of a south–north one).
    @inline(__always) static func crosses(_ r: P, _ p: P, _ a: P, _ b: P) -> Bool {
        if (orient(r, p, a) > 0) == (orient(r, p, b) > 0) { return false }
        let (s, t) = (a.x, a.y) < (b.x, b.y) ? (a, b) : (b, a)
        return (orient(s, t, r) > 0) != (orient(s, t, p) > 0)
    }

    static func toggle(_ set: inout [UInt16], _ c: UInt16) {
        if c == IndexFormat.noCountry16 { return }
        if let i = set.firstIndex(of: c) { set.remove(at: i) } else { set.append(c); set.sort() }
    }

    // MARK: - Grid of edges (for gathering a cell's edges and the coasts near a point)

    struct Grid {
        static let perDegree = 2
        static let cols = 360 * perDegree, rows = 180 * perDegree
        var start: [Int32] = []
        var items: [Int32] = []
        var minX: [Int64] = [], maxX: [Int64] = [], minY: [Int64] = [], maxY: [Int64] = []

        init(_ e: Edges) {
            let n = e.count
            minX.reserveCapacity(n); maxX.reserveCapacity(n); minY.reserveCapacity(n); maxY.reserveCapacity(n)
            for i in 0..<n {
                minX.append(min(e.ax[i], e.bx[i])); maxX.append(max(e.ax[i], e.bx[i]))
                minY.append(min(e.ay[i], e.by[i])); maxY.append(max(e.ay[i], e.by[i]))
            }
            var counts = [Int32](repeating: 0, count: Self.cols * Self.rows + 1)
            func cellRange(_ i: Int) -> (ClosedRange<Int>, ClosedRange<Int>) {
                let c0 = Self.col(minX[i]), c1 = Self.col(maxX[i])
                let r0 = Self.row(minY[i]), r1 = Self.row(maxY[i])
                return (c0...c1, r0...r1)
            }
            for i in 0..<n { let (cs, rs) = cellRange(i); for r in rs { for c in cs { counts[r * Self.cols + c + 1] += 1 } } }
            for k in 1..<counts.count { counts[k] += counts[k - 1] }
            start = counts
            var fill = counts
            items = [Int32](repeating: 0, count: Int(counts.last!))
            for i in 0..<n {
                let (cs, rs) = cellRange(i)
                for r in rs { for c in cs { let k = r * Self.cols + c; items[Int(fill[k])] = Int32(i); fill[k] += 1 } }
            }
        }

        static func col(_ x: Int64) -> Int { min(cols - 1, max(0, Int((Double(x) / 1e6 + 180) * Double(perDegree)))) }
        static func row(_ y: Int64) -> Int { min(rows - 1, max(0, Int((Double(y) / 1e6 + 90) * Double(perDegree)))) }

        /// Edges whose bounding box meets the box (micro-degrees, lon0 ≤ lon1 within ±180°).
        func query(lon0: Int64, lon1: Int64, lat0: Int64, lat1: Int64, stamp: inout [Int32], mark: Int32, into out: inout [Int32]) {
            for r in Self.row(lat0)...Self.row(lat1) {
                for c in Self.col(lon0)...Self.col(lon1) {
                    let k = r * Self.cols + c
                    for j in Int(start[k])..<Int(start[k + 1]) {
                        let i = Int(items[j])
                        if stamp[i] == mark { continue }
                        if maxX[i] < lon0 || minX[i] > lon1 || maxY[i] < lat0 || minY[i] > lat1 { continue }
                        stamp[i] = mark
                        out.append(Int32(i))
                    }
                }
            }
        }
    }

    // MARK: - Building

    struct Rect {
        var lon0, lat0, w, h: Double
        func child(_ q: Int) -> Rect {
            Rect(lon0: q & 1 == 0 ? lon0 : lon0 + w / 2, lat0: q & 2 == 0 ? lat0 : lat0 + h / 2, w: w / 2, h: h / 2)
        }
        func micro(_ fx: Double, _ fy: Double) -> P { (LookupIndexBuilder.micro(lon0 + fx * w), LookupIndexBuilder.micro(lat0 + fy * h)) }
        func local(_ x: Int64, _ y: Int64) -> (Double, Double) {
            ((Double(x) / 1e6 - lon0) / w * IndexFormat.localScale, (Double(y) / 1e6 - lat0) / h * IndexFormat.localScale)
        }
    }

    /// Candidate reference points, as fractions of the cell; odd offsets keep them off the
    /// round-degree lines many borders follow.
    static let candidates: [(Double, Double)] = [
        (0.5123457, 0.4876543), (0.3123457, 0.6876543), (0.6876543, 0.3123457), (0.2876543, 0.2123457),
        (0.7123457, 0.7876543), (0.1876543, 0.8123457), (0.8123457, 0.1876543), (0.4123457, 0.1123457),
        (0.5876543, 0.8876543), (0.1123457, 0.4876543), (0.8876543, 0.5123457), (0.0876543, 0.0912345),
        (0.9123457, 0.9087655), (0.0876543, 0.9087655), (0.9123457, 0.0912345),
    ]

    /// One worker's state. The edges, grid and caps are shared read-only (copy-on-write
    /// arrays); the scratch, and the nodes and leaf words of the row being built, are its own.
    /// Payloads are local to the row (an internal node indexes `nodes`, a leaf `words`);
    /// `build` rebases them when it concatenates the rows in order.
    final class State {
        let e: Edges
        let grid: Grid
        let caps: CapTree
        var nodes: [UInt32] = []
        var words: [UInt16] = []
        var stamp: [Int32]
        var mark: Int32 = 0
        var stats = Statistics()
        /// owners already listed by `node` (cleared after each use)
        var seen: [Bool]
        init(e: Edges, grid: Grid, caps: CapTree, countries: Int) {
            self.e = e; self.grid = grid; self.caps = caps
            stamp = [Int32](repeating: -1, count: e.count)
            seen = [Bool](repeating: false, count: countries + 1)
        }
    }

    /// One row of roots: their values and the nodes and leaf words below them (local payloads).
    struct Row {
        var roots: [UInt32], nodes: [UInt32], words: [UInt16], stats: Statistics
    }

    public mutating func build(progress: (@Sendable (String) -> Void)? = nil) throws -> [UInt8] {
        guard countries.count < Int(IndexFormat.noCountry16) else { throw LookupIndexError("too many countries (\(countries.count))") }
        for (i, c) in countries.enumerated() where i > 0 && countries[i - 1].code == c.code {
            throw LookupIndexError("country code \(c.code) appears twice")
        }
        let e = try makeEdges()
        progress?("\(e.count) border edges from \(countries.count) countries")
        // the cap tree on one core, the grid and the roots' statuses on the other
        var grid: Grid? = nil, caps: CapTree? = nil, rootStatus: [[UInt16]] = []
        if parameters.threads >= 2 {
            let builder = self
            let (c, g) = try Parallel.both({ CapTree(va: e.va, vb: e.vb, ownerA: e.ownerA, ownerB: e.ownerB) },
                                           { (Grid(e), builder.rootStatuses(e)) })
            caps = c; (grid, rootStatus) = g
        } else {
            caps = CapTree(va: e.va, vb: e.vb, ownerA: e.ownerA, ownerB: e.ownerB); grid = Grid(e); rootStatus = rootStatuses(e)
        }
        progress?("root cells classified")
        let rows = try buildRows(e: e, grid: grid!, caps: caps!, rootStatus: rootStatus, progress: progress)
        // Concatenate in row order: the same nodes, in the same order, as one depth-first
        // pass over the rows appends.
        var nodes = [UInt32](repeating: 0, count: IndexFormat.rootCount)
        var words: [UInt16] = []
        var s = Statistics()
        for (r, row) in rows.enumerated() {
            let nodeBase = UInt32(nodes.count), wordBase = words.count
            guard nodes.count + row.nodes.count <= Int(IndexFormat.payloadMask) else { throw LookupIndexError("too many nodes") }
            func rebase(_ v: UInt32) throws -> UInt32 {
                switch v >> IndexFormat.kindShift {
                case IndexFormat.kindInternal: return v + nodeBase
                case IndexFormat.kindLeaf:
                    let offset = Int(v & IndexFormat.payloadMask) + wordBase
                    guard offset <= Int(IndexFormat.payloadMask) else { throw LookupIndexError("leaf data too large") }
                    return IndexFormat.kindLeaf << IndexFormat.kindShift | UInt32(offset)
                default: return v
                }
            }
            for (c, v) in row.roots.enumerated() { nodes[r * IndexFormat.rootColumns + c] = try rebase(v) }
            for v in row.nodes { nodes.append(try rebase(v)) }
            words.append(contentsOf: row.words)
            s.uniformNodes += row.stats.uniformNodes; s.seaDistanceNodes += row.stats.seaDistanceNodes; s.leaves += row.stats.leaves
        }
        s.nodes = nodes.count; s.edges = e.count; s.leafWords = words.count
        let bytes = try write(nodes: nodes, words: words)
        s.bytes = bytes.count
        statistics = s
        return bytes
    }

    /// Builds the root rows on `parameters.threads` workers (`Parallel.map`, one `State` per
    /// worker); the first error by row order is rethrown.
    func buildRows(e: Edges, grid: Grid, caps: CapTree, rootStatus: [[UInt16]], progress: (@Sendable (String) -> Void)?) throws -> [Row] {
        let count = IndexFormat.rootRows
        let workers = max(1, min(parameters.threads, count))
        let done = Locked(0)
        let countries = countries.count
        return try Parallel.map(Array(0..<count), workers: workers, makeState: { State(e: e, grid: grid, caps: caps, countries: countries) }) { r, st in
            let row = try buildRow(st, row: r, rootStatus: rootStatus)
            done.withLock { n in
                n += 1
                if n % 30 == 0 { progress?("\(n) of \(count) root rows built (\(workers) threads)") }
            }
            return row
        }
    }

    func buildRow(_ st: State, row: Int, rootStatus: [[UInt16]]) throws -> Row {
        st.nodes = []; st.words = []; st.stats = Statistics()
        var roots = [UInt32](repeating: 0, count: IndexFormat.rootColumns)
        for col in 0..<IndexFormat.rootColumns {
            let rect = Rect(lon0: Double(col) - 180, lat0: Double(row) - 90, w: 1, h: 1)
            let known = rect.micro(Self.candidates[0].0, Self.candidates[0].1)
            st.mark += 1
            var gathered: [Int32] = []
            st.grid.query(lon0: Self.micro(rect.lon0), lon1: Self.micro(rect.lon0 + 1), lat0: Self.micro(rect.lat0), lat1: Self.micro(rect.lat0 + 1),
                          stamp: &st.stamp, mark: st.mark, into: &gathered)
            let inside = gathered.filter { clip(st.e, Int($0), rect) != nil }.sorted()
            roots[col] = try node(st, rect: rect, depth: 0, known: known, status: rootStatus[row * IndexFormat.rootColumns + col], edges: inside)
        }
        let r = Row(roots: roots, nodes: st.nodes, words: st.words, stats: st.stats)
        st.nodes = []; st.words = []
        return r
    }

    /// Which countries contain each root's reference point: a ray to the east along the
    /// row, counting crossings per country (exact, with the half-open rule on y). The
    /// reference points of a row share y, so an edge crossing the row is crossed by the rays
    /// of a prefix of the columns (those whose point lies left of it, found by bisection
    /// with the exact predicate): per row, one sweep from the east toggles each edge's owners
    /// where its prefix starts.
    func rootStatuses(_ e: Edges) -> [[UInt16]] {
        var out = [[UInt16]](repeating: [], count: IndexFormat.rootCount)
        var rowEdges = [[Int32]](repeating: [], count: IndexFormat.rootRows)
        let fy = Self.candidates[0].1
        for i in 0..<e.count {
            let y0 = min(e.ay[i], e.by[i]), y1 = max(e.ay[i], e.by[i])
            let r0 = max(0, Int(floor(Double(y0) / 1e6 + 90 - fy)) - 1), r1 = min(IndexFormat.rootRows - 1, Int(floor(Double(y1) / 1e6 + 90 - fy)) + 1)
            if r0 > r1 { continue }
            for r in r0...r1 {
                let y = Self.micro(Double(r) - 90 + fy)
                if (e.ay[i] > y) != (e.by[i] > y) { rowEdges[r].append(Int32(i)) }
            }
        }
        let cols = IndexFormat.rootColumns
        var starts = [[UInt16]](repeating: [], count: cols + 1)
        for r in 0..<IndexFormat.rootRows {
            let points = (0..<cols).map { c in Rect(lon0: Double(c) - 180, lat0: Double(r) - 90, w: 1, h: 1).micro(Self.candidates[0].0, Self.candidates[0].1) }
            for k in 0...cols { starts[k].removeAll(keepingCapacity: true) }
            for i32 in rowEdges[r] {
                let i = Int(i32)
                var a: P = (e.ax[i], e.ay[i]), b: P = (e.bx[i], e.by[i])
                if a.y > b.y { swap(&a, &b) }
                // the edge goes upward; its crossing with the row lies east of p ⇔ p is left
                // of it, which holds for the columns before the first k where it fails
                var lo = 0, hi = cols
                while lo < hi { let m = (lo + hi) / 2; if Self.orient(a, b, points[m]) > 0 { lo = m + 1 } else { hi = m } }
                starts[lo].append(e.ownerA[i]); starts[lo].append(e.ownerB[i])
            }
            var status: [UInt16] = []
            for c in stride(from: cols - 1, through: 0, by: -1) {
                for o in starts[c + 1] { Self.toggle(&status, o) }
                out[r * cols + c] = status
            }
        }
        return out
    }

    /// The part of edge i inside the closed cell, in the cell's local units, or nil
    /// (Liang–Barsky against the sides in the order left, right, bottom, top).
    @inline(__always) func clip(_ e: Edges, _ i: Int, _ rect: Rect) -> (Double, Double, Double, Double)? {
        let (x0, y0) = rect.local(e.ax[i], e.ay[i]), (x1, y1) = rect.local(e.bx[i], e.by[i])
        var t0 = 0.0, t1 = 1.0
        let dx = x1 - x0, dy = y1 - y0
        let s = IndexFormat.localScale
        @inline(__always) func side(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return !(q < 0) }
            let t = q / p
            if p < 0 { if t > t1 { return false }; if t > t0 { t0 = t } } else { if t < t0 { return false }; if t < t1 { t1 = t } }
            return true
        }
        guard side(-dx, x0), side(dx, s - x0), side(-dy, y0), side(dy, s - y0) else { return nil }
        return (x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy)
    }

    func statusAt(_ st: State, from known: P, status: [UInt16], to p: P, edges: [Int32]) -> [UInt16] {
        var s = status
        let e = st.e
        for i32 in edges {
            let i = Int(i32)
            if Self.crosses(known, p, (e.ax[i], e.ay[i]), (e.bx[i], e.by[i])) {
                Self.toggle(&s, e.ownerA[i]); Self.toggle(&s, e.ownerB[i])
            }
        }
        return s
    }

    typealias Piece = (i: Int, x0: Double, y0: Double, x1: Double, y1: Double)

    /// Smallest distance (local units) from a point to the cell's clipped edges.
    func margin(_ p: (Double, Double), _ clipped: [Piece]) -> Double {
        var best = Double.infinity
        for (_, x0, y0, x1, y1) in clipped {
            let dx = x1 - x0, dy = y1 - y0
            let l2 = dx * dx + dy * dy
            var t = l2 > 0 ? ((p.0 - x0) * dx + (p.1 - y0) * dy) / l2 : 0
            t = min(1, max(0, t))
            let qx = x0 + t * dx - p.0, qy = y0 + t * dy - p.1
            best = min(best, (qx * qx + qy * qy).squareRoot())
        }
        return best
    }

    enum Sea { case open, owned(UInt16), nearest }

    /// Which country the cell's sea points belong to under the coast-buffer rule, if one
    /// answer holds for all of them (bounds by the distance from the centre ± half-diagonal).
    ///
    /// The answer depends only on the nearest coast (distance `best`, lowest country on a
    /// tie) and, when that is near enough for the cell to be owned, on whether another
    /// country's coast comes within best + 2·half. Two searches of the cap tree find them: a
    /// nearest-edge search whose limit falls to the best distance so far, then a search within
    /// best + 2·half that skips the nearest country's own coasts (whole subtrees of them) and
    /// stops at the first other country. The tree skips only edges farther
    /// than the limit (by a margin far above rounding) and every edge it hands out is measured
    /// exactly, so the decisions are those of measuring every edge within reach (the scan this
    /// replaced, kept in the tests), at a cost that follows the edges near the cell rather than
    /// all edges within 22 km. Candidates are the edges whose lon/lat box meets the search box,
    /// as the grid gave them to the scan.
    func classifySea(_ st: State, _ rect: Rect) -> Sea {
        let cLat = rect.lat0 + rect.h / 2, cLon = rect.lon0 + rect.w / 2
        let c = Sphere.vector(latitude: cLat, longitude: cLon)
        // the corners as Sphere.vector makes them, with the cos and sin of each of their two
        // latitudes and two longitudes taken once
        func trig(_ deg: Double) -> (cos: Double, sin: Double) { let r = deg * Sphere.degrees; return (cos(r), sin(r)) }
        let south = trig(rect.lat0 + 0.0 * rect.h), north = trig(rect.lat0 + 1.0 * rect.h)
        let west = trig(rect.lon0 + 0.0 * rect.w), east = trig(rect.lon0 + 1.0 * rect.w)
        var half = 0.0
        for (lat, lon) in [(south, west), (south, east), (north, west), (north, east)] {
            half = max(half, Sphere.angle(c, Vec3(lat.cos * lon.cos, lat.cos * lon.sin, lat.sin)))
        }
        half = half * 1.001 + 1e-9
        let d = parameters.coastBufferKm / Sphere.earthRadiusKm
        let reach = d + half
        let reachDeg = reach / Sphere.degrees * 1.01 + 1e-6
        let lat0 = max(-90, cLat - reachDeg), lat1 = min(90, cLat + reachDeg)
        let maxAbs = max(abs(lat0), abs(lat1))
        // the longitude ranges of the search box (a second one where it wraps at ±180°)
        var box0 = (Self.micro(-180), Self.micro(180)), box1 = box0
        if !(maxAbs >= 89.9 || reachDeg / cos(maxAbs * Sphere.degrees) >= 180) {
            let span = reachDeg / cos(maxAbs * Sphere.degrees)
            let l0 = cLon - span, l1 = cLon + span
            box0 = (Self.micro(max(-180, l0)), Self.micro(min(180, l1)))
            box1 = box0
            if l0 < -180 { box1 = (Self.micro(l0 + 360), Self.micro(180)) }
            if l1 > 180 { box1 = (Self.micro(-180), Self.micro(l1 - 360)) }
        }
        let mLat0 = Self.micro(lat0), mLat1 = Self.micro(lat1)
        let e = st.e, g = st.grid
        // the edges the decision may use: their lon/lat box meets the search box
        func candidate(_ i: Int) -> Bool {
            if g.maxY[i] < mLat0 || g.minY[i] > mLat1 { return false }
            return !(g.maxX[i] < box0.0 || g.minX[i] > box0.1) || !(g.maxX[i] < box1.0 || g.minX[i] > box1.1)
        }
        // A cell wider than the buffer cannot be owned (best + half > d): the answer is
        // `nearest` as soon as one coast has best − half ≤ d, else `open`.
        if half > d {
            var near = false
            st.caps.search(c, limit: reach) { i in
                guard candidate(i) else { return reach }
                let dist = Sphere.angleToArc(c, e.va[i], e.vb[i])
                if dist <= reach && !(dist - half > d) { near = true; return -1 }
                return reach
            }
            return near ? .nearest : .open
        }
        // 1. The nearest coast within reach; at an equal distance the lowest country index.
        var best = Double.infinity, bestOwner = IndexFormat.noCountry16
        st.caps.search(c, limit: reach) { i in
            if candidate(i) {
                let dist = Sphere.angleToArc(c, e.va[i], e.vb[i])
                if dist <= reach {
                    let o = min(e.ownerA[i], e.ownerB[i])
                    if dist < best { best = dist; bestOwner = o } else if dist == best { bestOwner = min(bestOwner, o) }
                }
            }
            return min(reach, best)
        }
        guard bestOwner != IndexFormat.noCountry16 else { return .open }
        if best - half > d { return .open }
        if !(best + half <= d) { return .nearest }
        // 2. Owned, unless another country's coast comes within best + 2·half.
        var other = false
        let limit = min(reach, best + 2 * half)
        st.caps.search(c, limit: limit, skipping: bestOwner) { i in
            guard candidate(i) else { return limit }
            let dist = Sphere.angleToArc(c, e.va[i], e.vb[i])
            if dist <= reach && !(dist - half > best + half) {
                let a = e.ownerA[i], b = e.ownerB[i]
                if a != bestOwner || (b != IndexFormat.noCountry16 && b != bestOwner) { other = true; return -1 }
            }
            return limit
        }
        return other ? .nearest : .owned(bestOwner)
    }

    func node(_ st: State, rect: Rect, depth: Int, known: P, status: [UInt16], edges: [Int32]) throws -> UInt32 {
        let p = parameters
        if edges.isEmpty {
            if let first = status.first { st.stats.uniformNodes += 1; return IndexFormat.kindUniform << 30 | UInt32(first) }
            switch classifySea(st, rect) {
            case .open: st.stats.uniformNodes += 1; return IndexFormat.kindUniform << 30 | IndexFormat.noCountry
            case .owned(let c): st.stats.uniformNodes += 1; return IndexFormat.kindUniform << 30 | UInt32(c)
            case .nearest:
                if depth >= p.seaMaxDepth { st.stats.seaDistanceNodes += 1; return IndexFormat.kindSeaDistance << 30 }
                return try split(st, rect: rect, depth: depth, known: known, status: status, edges: edges)
            }
        }
        if edges.count > p.maxEdgesPerLeaf && depth < p.maxDepth {
            return try split(st, rect: rect, depth: depth, known: known, status: status, edges: edges)
        }
        // the countries involved: the status and every edge's owners, each once
        var involved: [UInt16] = []
        func add(_ c: UInt16) { if c != IndexFormat.noCountry16 && !st.seen[Int(c)] { st.seen[Int(c)] = true; involved.append(c) } }
        for c in status { add(c) }
        for i in edges { add(st.e.ownerA[Int(i)]); add(st.e.ownerB[Int(i)]) }
        for c in involved { st.seen[Int(c)] = false }
        if involved.count > IndexFormat.maxCountriesPerLeaf && depth < p.maxDepth {
            return try split(st, rect: rect, depth: depth, known: known, status: status, edges: edges)
        }
        guard involved.count <= IndexFormat.maxCountriesPerLeaf else {
            throw LookupIndexError("cell at \(rect.lat0)°, \(rect.lon0)° has \(involved.count) countries at the deepest level")
        }
        return try leaf(st, rect: rect, known: known, status: status, edges: edges, countries: involved.sorted())
    }

    func split(_ st: State, rect: Rect, depth: Int, known: P, status: [UInt16], edges: [Int32]) throws -> UInt32 {
        let first = st.nodes.count
        st.nodes.append(contentsOf: [0, 0, 0, 0])
        for q in 0..<4 {
            let r = rect.child(q)
            let childEdges = edges.filter { clip(st.e, Int($0), r) != nil }
            // a point of the child off every edge, so its status is exact
            var k = r.micro(Self.candidates[0].0, Self.candidates[0].1)
            for (fx, fy) in Self.candidates {
                let cand = r.micro(fx, fy)
                let onEdge = edges.contains { i32 in
                    let i = Int(i32)
                    let a: P = (st.e.ax[i], st.e.ay[i]), b: P = (st.e.bx[i], st.e.by[i])
                    return Self.orient(a, b, cand) == 0 && min(a.x, b.x) <= cand.x && cand.x <= max(a.x, b.x) && min(a.y, b.y) <= cand.y && cand.y <= max(a.y, b.y)
                }
                if !onEdge { k = cand; break }
            }
            let s = edges.isEmpty ? status : statusAt(st, from: known, status: status, to: k, edges: edges)
            st.nodes[first + q] = try node(st, rect: r, depth: depth + 1, known: k, status: s, edges: childEdges)
        }
        return IndexFormat.kindInternal << 30 | UInt32(first)
    }

    func leaf(_ st: State, rect: Rect, known: P, status: [UInt16], edges: [Int32], countries: [UInt16]) throws -> UInt32 {
        // the edges clipped to the cell, once (the margins and the pieces read them)
        var clipped: [Piece] = []
        clipped.reserveCapacity(edges.count)
        for i32 in edges {
            let i = Int(i32)
            if let (x0, y0, x1, y1) = clip(st.e, i, rect) { clipped.append((i, x0, y0, x1, y1)) }
        }
        // reference point: the first candidate at least 4 local units from every edge (so
        // rounding to local units cannot move it across one), else the farthest
        var ref = rect.micro(Self.candidates[0].0, Self.candidates[0].1)
        var bestMargin = -1.0
        for (fx, fy) in Self.candidates {
            let cand = rect.micro(fx, fy)
            let m = margin(rect.local(cand.x, cand.y), clipped)
            if m > bestMargin { bestMargin = m; ref = cand }
            if m >= 4 { break }
        }
        let refStatus = statusAt(st, from: known, status: status, to: ref, edges: edges)
        func bit(_ c: UInt16) -> UInt16 { c == IndexFormat.noCountry16 ? 0 : UInt16(1) << UInt16(countries.firstIndex(of: c)!) }
        var mode = IndexFormat.seaNearest, owner = IndexFormat.noCountry16
        switch classifySea(st, rect) {
        case .open: mode = IndexFormat.seaOpen
        case .owned(let c): mode = IndexFormat.seaOwned; owner = c
        case .nearest: break
        }
        func q(_ v: Double) -> UInt16 { UInt16(min(IndexFormat.localScale, max(0, v.rounded()))) }
        var pieces: [(mask: UInt16, last: Int, pts: [(UInt16, UInt16)])] = []
        for (i, x0, y0, x1, y1) in clipped {
            let a = (q(x0), q(y0)), b = (q(x1), q(y1))
            if a == b { continue }
            let mask = bit(st.e.ownerA[i]) | bit(st.e.ownerB[i])
            if let l = pieces.last, l.last == i - 1, l.mask == mask, l.pts.last! == a, l.pts.count < 60000 {
                pieces[pieces.count - 1].pts.append(b); pieces[pieces.count - 1].last = i
            } else {
                pieces.append((mask, i, [a, b]))
            }
        }
        let (ru, rv) = rect.local(ref.x, ref.y)
        let offset = st.words.count
        st.words.append(UInt16(countries.count) | mode << 8)
        st.words.append(owner)
        st.words.append(q(ru)); st.words.append(q(rv))
        st.words.append(contentsOf: countries)
        st.words.append(refStatus.reduce(0) { $0 | bit($1) })
        st.words.append(UInt16(pieces.count))
        for pc in pieces {
            st.words.append(pc.mask); st.words.append(UInt16(pc.pts.count))
            for (u, v) in pc.pts { st.words.append(u); st.words.append(v) }
        }
        st.stats.leaves += 1
        return IndexFormat.kindLeaf << 30 | UInt32(offset)
    }

    // MARK: - Writing

    func write(nodes: [UInt32], words: [UInt16]) throws -> [UInt8] {
        var strings: [UInt8] = []
        func addString(_ s: String) -> (UInt32, UInt32) {
            let b = Array(s.utf8); let o = strings.count; strings.append(contentsOf: b); return (UInt32(o), UInt32(b.count))
        }
        let codes = countries.map { addString($0.code) }
        let codeIndex = Dictionary(uniqueKeysWithValues: countries.enumerated().map { ($0.element.code, UInt16($0.offset)) })
        func cityCell(_ c: Coordinate) -> Int {
            let row = min(IndexFormat.cityRows - 1, max(0, Int((c.latitude + 90) / IndexFormat.cityCellDegrees)))
            let col = min(IndexFormat.cityColumns - 1, max(0, Int((c.longitude + 180) / IndexFormat.cityCellDegrees)))
            return row * IndexFormat.cityColumns + col
        }
        for c in cities {
            guard c.coordinate.latitude.isFinite, c.coordinate.longitude.isFinite, abs(c.coordinate.latitude) <= 90, abs(c.coordinate.longitude) <= 180 else {
                throw LookupIndexError("city \(c.name): coordinate out of range (\(c.coordinate.latitude), \(c.coordinate.longitude))", in: .cities)
            }
            guard c.name.utf8.count <= 65535, !c.name.isEmpty else { throw LookupIndexError("city name empty or too long: \(c.name.prefix(40))", in: .cities) }
        }
        let sorted = cities.sorted {
            let a = cityCell($0.coordinate), b = cityCell($1.coordinate)
            if a != b { return a < b }
            if $0.population != $1.population { return $0.population > $1.population }
            if $0.name != $1.name { return $0.name < $1.name }
            return ($0.coordinate.latitude, $0.coordinate.longitude) < ($1.coordinate.latitude, $1.coordinate.longitude)
        }
        var w = ByteWriter()
        w.bytes = IndexFormat.magic
        w.u32(0)  // length, patched below
        w.u32(UInt32(countries.count)); w.u32(UInt32(nodes.count)); w.u32(UInt32(words.count)); w.u32(UInt32(sorted.count))
        let stringsCountAt = w.bytes.count
        w.u32(0)
        w.f64(parameters.coastBufferKm)
        w.u32(0)  // hash
        while w.bytes.count < IndexFormat.headerSize { w.u8(0) }
        for (o, l) in codes { w.u32(o); w.u32(l) }
        var starts = [UInt32](repeating: 0, count: IndexFormat.cityCellCount + 1)
        for c in sorted {
            let (o, l) = addString(c.name)
            w.i32(Int32(Self.micro(c.coordinate.latitude))); w.i32(Int32(Self.micro(c.coordinate.longitude)))
            w.u32(UInt32(clamping: max(0, c.population))); w.u32(o); w.u16(UInt16(l))
            w.u16(c.countryCode.flatMap { codeIndex[$0] } ?? IndexFormat.noCountry16)
            starts[cityCell(c.coordinate) + 1] += 1
        }
        for k in 1..<starts.count { starts[k] += starts[k - 1] }
        for s in starts { w.u32(s) }
        for n in nodes { w.u32(n) }
        for v in words { w.u16(v) }
        w.align4()
        w.bytes.append(contentsOf: strings)
        w.align4()
        w.put(u32: UInt32(strings.count), at: stringsCountAt)
        w.put(u32: UInt32(w.bytes.count), at: 8)
        let hash = w.bytes.withUnsafeBytes { IndexFormat.checksum(UnsafeRawBufferPointer(rebasing: $0[IndexFormat.headerSize...])) }
        w.put(u32: hash, at: 40)
        return w.bytes
    }
}

import Foundation
import Geodesy

/// A bounding-volume tree of spherical caps over the border edges, for the coast searches of
/// the index builder: "every edge whose great-circle arc may lie within `limit` radians of
/// p", with a limit the caller may lower as it finds nearer edges. A search costs about the
/// edges near p and the depth of the tree, where the 0.5° grid it replaces handed out every
/// edge of the grid cells under a 22 km box, a number that grows with the border's detail.
///
/// Caps are conservative (radii inflated, comparisons with a margin), so an edge is skipped
/// only if its true distance exceeds the limit by more than `slack`; the caller measures
/// every edge it is handed exactly, so its decisions are those of a scan of all edges (see
/// `LookupIndexBuilder.classifySea`).
struct CapTree {
    /// Extra angle (radians, ≈ 6 mm) added to every limit: covers the rounding of the cap
    /// arithmetic and of the caller's distances, many orders of magnitude below it.
    static let slack = 1e-9
    static let bucket = 8

    struct Cap {
        var x, y, z: Double
        var radius, cosR, sinR: Double
    }

    /// A node covers either sorted edges first..<end (a leaf, `left` < 0) or two children.
    /// `owner`: the one country whose coast every edge below is (no other owner), else `mixed`.
    struct Node {
        var cap: Cap
        var left: Int32, right: Int32
        var first: Int32, end: Int32
        var owner: UInt16
    }
    static let mixed: UInt16 = 0xFFFE

    /// Per sorted position: the edge, its cap, and its owner if it has only one (else `mixed`).
    private(set) var edge: [Int32] = []
    private(set) var caps: [Cap] = []
    private(set) var solo: [UInt16] = []
    /// nodes[0] is the root.
    private(set) var nodes: [Node] = []

    /// The centre of an edge's cap and the edge, permuted as the tree is split.
    struct Item { var x, y, z: Double; var edge: Int32 }

    /// Splits the edges at the median of their midpoints along the widest of x, y, z (a k-d
    /// tree on the unit sphere: no seam at the antimeridian or the poles), down to buckets of
    /// at most `bucket` edges; each node's cap encloses its children's. `ownerA`/`ownerB` as
    /// in the builder's edges (`ownerB` 0xFFFF for a coast).
    init(va: [Vec3], vb: [Vec3], ownerA: [UInt16], ownerB: [UInt16]) {
        let n = va.count
        guard n > 0 else { return }
        var edgeCaps: [Cap] = []
        edgeCaps.reserveCapacity(n)
        var items: [Item] = []
        items.reserveCapacity(n)
        for i in 0..<n {
            let c = Self.edgeCap(va[i], vb[i])
            edgeCaps.append(c)
            items.append(Item(x: c.x, y: c.y, z: c.z, edge: Int32(i)))
        }
        nodes.reserveCapacity(2 * (n / Self.bucket + 1))
        let own = (0..<n).map { ownerB[$0] == IndexFormat.noCountry16 ? ownerA[$0] : Self.mixed }
        items.withUnsafeMutableBufferPointer { items in
            edgeCaps.withUnsafeBufferPointer { ec in
                own.withUnsafeBufferPointer { own in
                    _ = build(items, ec, own, 0, n)
                }
            }
        }
        edge = items.map { $0.edge }
        caps = edge.map { edgeCaps[Int($0)] }
        solo = edge.map { own[Int($0)] }
    }

    private mutating func build(_ items: UnsafeMutableBufferPointer<Item>, _ ec: UnsafeBufferPointer<Cap>, _ own: UnsafeBufferPointer<UInt16>,
                                _ lo: Int, _ hi: Int) -> Int32 {
        let me = nodes.count
        if hi - lo <= Self.bucket {
            var owner = own[Int(items[lo].edge)]
            for k in (lo + 1)..<hi where own[Int(items[k].edge)] != owner { owner = Self.mixed }
            nodes.append(Node(cap: Self.around(items, ec, lo, hi), left: -1, right: -1, first: Int32(lo), end: Int32(hi), owner: owner))
            return Int32(me)
        }
        nodes.append(Node(cap: ec[0], left: -1, right: -1, first: Int32(lo), end: Int32(hi), owner: Self.mixed))
        var lx = Double.infinity, ly = Double.infinity, lz = Double.infinity
        var ux = -Double.infinity, uy = -Double.infinity, uz = -Double.infinity
        for k in lo..<hi {
            let c = items[k]
            lx = min(lx, c.x); ux = max(ux, c.x); ly = min(ly, c.y); uy = max(uy, c.y); lz = min(lz, c.z); uz = max(uz, c.z)
        }
        let axis = ux - lx >= uy - ly && ux - lx >= uz - lz ? 0 : (uy - ly >= uz - lz ? 1 : 2)
        // a whole number of buckets on the left
        let buckets = (hi - lo + Self.bucket - 1) / Self.bucket
        let mid = lo + (buckets + 1) / 2 * Self.bucket
        Self.select(items, lo, hi, mid, axis)
        let l = build(items, ec, own, lo, mid), r = build(items, ec, own, mid, hi)
        nodes[me].left = l; nodes[me].right = r
        nodes[me].cap = Self.enclosing(nodes[Int(l)].cap, nodes[Int(r)].cap)
        nodes[me].owner = nodes[Int(l)].owner == nodes[Int(r)].owner ? nodes[Int(l)].owner : Self.mixed
        return Int32(me)
    }

    /// Reorders items[lo..<hi] so that items[k] is the one of rank k − lo by (coordinate,
    /// edge index), smaller ones before it and larger ones after (quickselect).
    private static func select(_ items: UnsafeMutableBufferPointer<Item>, _ lo: Int, _ hi: Int, _ k: Int, _ axis: Int) {
        @inline(__always) func key(_ c: Item) -> Double { axis == 0 ? c.x : (axis == 1 ? c.y : c.z) }
        @inline(__always) func less(_ a: Item, _ b: Item) -> Bool {
            let ka = key(a), kb = key(b)
            return ka < kb || (ka == kb && a.edge < b.edge)
        }
        var l = lo, r = hi - 1
        while l < r {
            let a = items[l], b = items[(l + r) / 2], c = items[r]
            let pivot = less(a, b) ? (less(b, c) ? b : (less(a, c) ? c : a)) : (less(a, c) ? a : (less(b, c) ? c : b))
            var i = l, j = r
            while i <= j {
                while less(items[i], pivot) { i += 1 }
                while less(pivot, items[j]) { j -= 1 }
                if i <= j { items.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { r = j } else if k >= i { l = i } else { return }
        }
    }

    static func make(_ x: Double, _ y: Double, _ z: Double, radius r: Double) -> Cap {
        let r = r.isFinite ? min(Double.pi, r * (1 + 1e-12) + 1e-12) : Double.pi
        let (c, s) = cosSin(r)
        return Cap(x: x, y: y, z: z, radius: r, cosR: c, sinR: s)
    }

    /// cos and sin; below 0.05 rad (320 km) by their Taylor series, whose next terms are
    /// under 1e-19 there (the cap test allows 1e-14), without a call into libm.
    @inline(__always) static func cosSin(_ a: Double) -> (Double, Double) {
        guard a < 0.05 else { return (cos(a), sin(a)) }
        let a2 = a * a
        let c = 1 - a2 / 2 * (1 - a2 / 12 * (1 - a2 / 30 * (1 - a2 / 56)))
        let s = a * (1 - a2 / 6 * (1 - a2 / 20 * (1 - a2 / 42 * (1 - a2 / 72))))
        return (c, s)
    }

    /// Every point of the shorter arc a–b is within half its length, asin(|a − b| / 2), of its
    /// midpoint; for the short edges of real borders asin(x) ≤ x (1 + x²/4) (x ≤ 0.1) bounds it
    /// without a call into libm.
    static func edgeCap(_ a: Vec3, _ b: Vec3) -> Cap {
        let s = Vec3(a.x + b.x, a.y + b.y, a.z + b.z)
        let l = Sphere.norm(s)
        if !(l > 1e-6) { return make(a.x, a.y, a.z, radius: .pi) }
        let dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z
        let x = (dx * dx + dy * dy + dz * dz).squareRoot() / 2
        let r = x <= 0.1 ? x * (1 + x * x / 4) : asin(min(1, x))
        return make(s.x / l, s.y / l, s.z / l, radius: r)
    }

    /// Upper bound of the angle between unit vectors a and b: 2 asin(|a − b| / 2), and
    /// asin(x) ≤ x (1 + x²/4) for x ≤ 0.1.
    @inline(__always) static func angleBound(_ a: Cap, _ b: Cap) -> Double {
        let dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z
        let x = (dx * dx + dy * dy + dz * dz).squareRoot() / 2
        return 2 * (x <= 0.1 ? x * (1 + x * x / 4) : asin(min(1, x)))
    }

    /// A cap around a bucket's edges: centred on the mean of their centres.
    static func around(_ items: UnsafeMutableBufferPointer<Item>, _ ec: UnsafeBufferPointer<Cap>, _ lo: Int, _ hi: Int) -> Cap {
        var sx = 0.0, sy = 0.0, sz = 0.0
        for k in lo..<hi {
            let c = ec[Int(items[k].edge)]
            if c.radius >= Double.pi { return make(c.x, c.y, c.z, radius: .pi) }
            sx += c.x; sy += c.y; sz += c.z
        }
        let l = (sx * sx + sy * sy + sz * sz).squareRoot()
        if !(l > 1e-6) { return make(1, 0, 0, radius: .pi) }
        let centre = Cap(x: sx / l, y: sy / l, z: sz / l, radius: 0, cosR: 1, sinR: 0)
        var r = 0.0
        for k in lo..<hi {
            let c = ec[Int(items[k].edge)]
            r = max(r, angleBound(centre, c) + c.radius)
        }
        return make(centre.x, centre.y, centre.z, radius: r)
    }

    /// The smallest cap holding both: its centre on the great circle through theirs.
    static func enclosing(_ p: Cap, _ q: Cap) -> Cap {
        if p.radius >= Double.pi || q.radius >= Double.pi { return make(p.x, p.y, p.z, radius: .pi) }
        let pv = Vec3(p.x, p.y, p.z), qv = Vec3(q.x, q.y, q.z)
        let theta = Sphere.angle(pv, qv)
        if theta + q.radius <= p.radius { return p }
        if theta + p.radius <= q.radius { return q }
        let r = (theta + p.radius + q.radius) / 2
        if theta < 1e-6 || theta > 3 || r >= 3 {
            // (nearly) the same or opposite centres: p's centre, radius to cover q
            return make(p.x, p.y, p.z, radius: theta + q.radius)
        }
        let t = r - p.radius, st = sin(theta)
        let wp = sin(theta - t) / st, wq = sin(t) / st
        var c = Vec3(wp * p.x + wq * q.x, wp * p.y + wq * q.y, wp * p.z + wq * q.z)
        let l = Sphere.norm(c)
        c = Vec3(c.x / l, c.y / l, c.z / l)
        // measured, not assumed: the radius that covers both from the centre as computed
        let need = max(Sphere.angle(c, pv) + p.radius, Sphere.angle(c, qv) + q.radius)
        return make(c.x, c.y, c.z, radius: need)
    }

    /// The limit as the cap test uses it: cos and sin of (limit + slack).
    struct Limit {
        var angle = 0.0, cosA = 1.0, sinA = 0.0
        init(_ limit: Double) {
            angle = limit + CapTree.slack
            (cosA, sinA) = CapTree.cosSin(angle)
        }
    }

    /// Is every point of the cap farther than the limit from p? angle(p, centre) > limit +
    /// radius ⇔ p·centre < cos(limit + radius) while limit + radius < π; the 1e-14 covers
    /// the rounding of both sides (so a cap is kept whenever in doubt).
    @inline(__always) static func beyond(_ c: Cap, _ p: Vec3, _ l: Limit) -> Bool {
        if c.radius + l.angle >= 3.14 { return false }
        let d = p.x * c.x + p.y * c.y + p.z * c.z
        return d < l.cosA * c.cosR - l.sinA * c.sinR - 1e-14
    }

    /// Calls `visit` with every edge whose cap comes within the current limit of p, nearer
    /// nodes first, except the edges that are the coast of `skipping` alone; `visit` returns
    /// the new limit, never larger than the one before, or a negative number to stop the search.
    func search(_ p: Vec3, limit: Double, skipping: UInt16 = IndexFormat.noCountry16, _ visit: (Int) -> Double) {
        guard !nodes.isEmpty else { return }
        var current = limit
        var lim = Limit(limit)
        var stack: [Int32] = [0]
        stack.reserveCapacity(96)
        nodes.withUnsafeBufferPointer { node in
            caps.withUnsafeBufferPointer { cap in
                edge.withUnsafeBufferPointer { edge in
                    solo.withUnsafeBufferPointer { solo in
                        while let j = stack.popLast() {
                            let nd = node[Int(j)]
                            if nd.owner == skipping || Self.beyond(nd.cap, p, lim) { continue }
                            if nd.left < 0 {
                                for s in Int(nd.first)..<Int(nd.end) {
                                    if solo[s] == skipping || Self.beyond(cap[s], p, lim) { continue }
                                    let next = visit(Int(edge[s]))
                                    if next < 0 { return }
                                    if next < current { current = next; lim = Limit(next) }
                                }
                                continue
                            }
                            let a = node[Int(nd.left)].cap, b = node[Int(nd.right)].cap
                            let da = p.x * a.x + p.y * a.y + p.z * a.z, db = p.x * b.x + p.y * b.y + p.z * b.z
                            // the nearer child is popped first
                            if da >= db { stack.append(nd.right); stack.append(nd.left) } else { stack.append(nd.left); stack.append(nd.right) }
                        }
                    }
                }
            }
        }
    }
}

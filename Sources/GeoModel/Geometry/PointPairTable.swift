import Geodesy

/// Ids for ordered pairs of points (edges), by the points' bit patterns, with open
/// addressing: hashing four Doubles through `Hasher` costs several hundred instructions a
/// pair, more than the work around most of these lookups. Unlike `VertexTable`, 0.0 and −0.0
/// are different here (the geodesic areas solve an edge as written); callers that want them
/// to be the same point pass `zeroNormalized` points.
public struct PointPairTable: Sendable {
    // Inlinable across modules: a call per edge is the cost being saved.
    @usableFromInline var slots: [Int32]
    @usableFromInline var mask: Int
    /// The pairs by id.
    public var pairs: [(Point, Point)] { stored }
    @usableFromInline var stored: [(Point, Point)] = []

    @inlinable public init(capacity: Int) {
        slots = openAddressingSlots(capacity: capacity)
        mask = slots.count - 1
        stored.reserveCapacity(capacity)
    }

    public var count: Int { stored.count }

    /// The point with −0.0 made 0.0 (so that bit equality is Double equality).
    @inlinable @inline(__always) public static func zeroNormalized(_ p: Point) -> Point { Point(p.x == 0 ? 0 : p.x, p.y == 0 ? 0 : p.y) }

    /// The segment a–b, either way round, as one key: its ends ordered (x, then y) and
    /// zero-normalised.
    @inlinable @inline(__always) public static func undirected(_ a: Point, _ b: Point) -> (Point, Point) {
        (a.x, a.y) < (b.x, b.y) ? (zeroNormalized(a), zeroNormalized(b)) : (zeroNormalized(b), zeroNormalized(a))
    }

    @inlinable @inline(__always) static func same(_ p: Point, _ q: Point) -> Bool {
        p.x.bitPattern == q.x.bitPattern && p.y.bitPattern == q.y.bitPattern
    }

    @inlinable @inline(__always) func slot(_ a: Point, _ b: Point) -> Int {
        var h = a.x.bitPattern &* 0x9E37_79B9_7F4A_7C15 ^ (a.y.bitPattern &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 29) ^ b.x.bitPattern) &* 0x94D0_49BB_1331_11EB ^ (b.y.bitPattern &* 0x9E37_79B9_7F4A_7C15)
        h ^= h >> 31
        return Int(truncatingIfNeeded: h) & mask
    }

    /// The id of a→b, adding it if new (`inserted`).
    @inlinable @inline(__always) public mutating func insert(_ a: Point, _ b: Point) -> (id: Int32, inserted: Bool) {
        if stored.count * 2 >= slots.count { grow() }
        var i = slot(a, b)
        while true {
            let s = slots[i]
            if s < 0 {
                slots[i] = Int32(stored.count)
                stored.append((a, b))
                return (Int32(stored.count - 1), true)
            }
            let e = stored[Int(s)]
            if Self.same(e.0, a) && Self.same(e.1, b) { return (s, false) }
            i = (i + 1) & mask
        }
    }

    /// The id of a→b if present.
    @inlinable @inline(__always) public func find(_ a: Point, _ b: Point) -> Int32? {
        var i = slot(a, b)
        while true {
            let s = slots[i]
            if s < 0 { return nil }
            let e = stored[Int(s)]
            if Self.same(e.0, a) && Self.same(e.1, b) { return s }
            i = (i + 1) & mask
        }
    }

    @usableFromInline mutating func grow() {
        let old = stored
        self = PointPairTable(capacity: max(16, old.count * 2))
        for e in old { _ = insert(e.0, e.1) }
    }
}

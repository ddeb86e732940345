import GeoModel
import Geodesy

/// Ids for ordered pairs of points (edges), by the points' bit patterns, with open
/// addressing: hashing four Doubles through `Hasher` costs several hundred instructions a
/// pair, more than the work around most of these lookups. Callers that want 0.0 and −0.0 to
/// be the same point pass `zeroNormalized` points.
struct PointPairTable {
    private var slots: [Int32]
    private var mask: Int
    /// The pairs by id.
    private(set) var pairs: [(Point, Point)] = []

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        pairs.reserveCapacity(capacity)
    }

    var count: Int { pairs.count }

    /// The point with −0.0 made 0.0 (so that bit equality is Double equality).
    @inline(__always) static func zeroNormalized(_ p: Point) -> Point { Point(p.x == 0 ? 0 : p.x, p.y == 0 ? 0 : p.y) }

    /// The segment a–b, either way round, as one key: its ends ordered (x, then y) and
    /// zero-normalised.
    @inline(__always) static func undirected(_ a: Point, _ b: Point) -> (Point, Point) {
        (a.x, a.y) < (b.x, b.y) ? (zeroNormalized(a), zeroNormalized(b)) : (zeroNormalized(b), zeroNormalized(a))
    }

    @inline(__always) static func same(_ p: Point, _ q: Point) -> Bool {
        p.x.bitPattern == q.x.bitPattern && p.y.bitPattern == q.y.bitPattern
    }

    @inline(__always) func slot(_ a: Point, _ b: Point) -> Int {
        var h = a.x.bitPattern &* 0x9E37_79B9_7F4A_7C15 ^ (a.y.bitPattern &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 29) ^ b.x.bitPattern) &* 0x94D0_49BB_1331_11EB ^ (b.y.bitPattern &* 0x9E37_79B9_7F4A_7C15)
        h ^= h >> 31
        return Int(truncatingIfNeeded: h) & mask
    }

    /// The id of a→b, adding it if new (`inserted`).
    @inline(__always) mutating func insert(_ a: Point, _ b: Point) -> (id: Int32, inserted: Bool) {
        if pairs.count * 2 >= slots.count { grow() }
        var i = slot(a, b)
        while true {
            let s = slots[i]
            if s < 0 {
                slots[i] = Int32(pairs.count)
                pairs.append((a, b))
                return (Int32(pairs.count - 1), true)
            }
            let e = pairs[Int(s)]
            if Self.same(e.0, a) && Self.same(e.1, b) { return (s, false) }
            i = (i + 1) & mask
        }
    }

    /// The id of a→b if present.
    @inline(__always) func find(_ a: Point, _ b: Point) -> Int32? {
        var i = slot(a, b)
        while true {
            let s = slots[i]
            if s < 0 { return nil }
            let e = pairs[Int(s)]
            if Self.same(e.0, a) && Self.same(e.1, b) { return s }
            i = (i + 1) & mask
        }
    }

    private mutating func grow() {
        let old = pairs
        self = PointPairTable(capacity: max(16, old.count * 2))
        for e in old { _ = insert(e.0, e.1) }
    }
}

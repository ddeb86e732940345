import Geodesy

/// Exact-position → vertex id (0, 1, … in order of first sight), by open addressing on the
/// coordinates' bit patterns; 0.0 and -0.0 are one position, as for Point's `==`. The world's
/// arc graph and the globe's triangulations look up every vertex, so this is their hot loop:
/// Swift's Dictionary with a Hashable Point (SipHash) is several times slower here.
public struct VertexTable: Sendable {
    // Inlinable across modules: a call per vertex is the cost being saved.
    @usableFromInline var slots: [Int32]
    @usableFromInline var mask: Int
    /// The positions by id.
    public var points: [Point] { stored }
    @usableFromInline var stored: [Point] = []

    @inlinable public init(capacity: Int) {
        slots = openAddressingSlots(capacity: capacity)
        mask = slots.count - 1
        stored.reserveCapacity(capacity)
    }

    @inlinable @inline(__always) static func hash(_ p: Point) -> Int {
        // 0.0 and -0.0 are the same position.
        let x = (p.x == 0 ? 0 : p.x).bitPattern, y = (p.y == 0 ? 0 : p.y).bitPattern
        var h = x &* 0x9E37_79B9_7F4A_7C15 ^ (y &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 31
        return Int(truncatingIfNeeded: h)
    }

    /// The id of `p`, adding it if new. The table doubles when half full.
    @inlinable @inline(__always) public mutating func id(_ p: Point) -> Int32 {
        if stored.count * 2 >= slots.count { grow() }
        var i = Self.hash(p) & mask
        while true {
            let s = slots[i]
            if s < 0 {
                let id = Int32(stored.count)
                slots[i] = id
                stored.append(p)
                return id
            }
            if stored[Int(s)] == p { return s }
            i = (i + 1) & mask
        }
    }

    @usableFromInline mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        mask = slots.count - 1
        for (id, p) in stored.enumerated() {
            var i = Self.hash(p) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(id)
        }
    }

    /// The id of `p`, nil when it was never added.
    @inlinable @inline(__always) public func existing(_ p: Point) -> Int32? {
        var i = Self.hash(p) & mask
        while true {
            let s = slots[i]
            if s < 0 { return nil }
            if stored[Int(s)] == p { return s }
            i = (i + 1) & mask
        }
    }
}

/// Empty slots (−1) of an open-addressing table for `capacity` entries: a power of two, at
/// least 16 and twice the capacity, so that lookups stay short (VertexTable, PointPairTable).
@inlinable func openAddressingSlots(capacity: Int) -> [Int32] {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    return [Int32](repeating: -1, count: size)
}

import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ

/// Exact-position → vertex id, by open addressing on the coordinates' bit patterns (the
/// arc graph looks up every input vertex once, so this is its hot loop; Swift's Dictionary
/// with a Hashable Point is several times slower here).
struct VertexTable {
    private var slots: [Int32]
    private let mask: Int
    private(set) var points: [Point] = []

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        points.reserveCapacity(capacity)
    }

    @inline(__always) static func hash(_ p: Point) -> Int {
        // 0.0 and -0.0 are the same position.
        let x = (p.x == 0 ? 0 : p.x).bitPattern, y = (p.y == 0 ? 0 : p.y).bitPattern
        var h = x &* 0x9E37_79B9_7F4A_7C15 ^ (y &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 31
        return Int(truncatingIfNeeded: h)
    }

    /// The id of `p`, adding it if new.
    @inline(__always) mutating func id(_ p: Point) -> Int32 {
        var i = Self.hash(p) & mask
        while true {
            let s = slots[i]
            if s < 0 {
                let id = Int32(points.count)
                slots[i] = id
                points.append(p)
                return id
            }
            if points[Int(s)] == p { return s }
            i = (i + 1) & mask
        }
    }
}

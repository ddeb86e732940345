import Foundation

/// A uniform lon/lat grid over items (segments or points), stored as (cell, item) pairs
/// sorted by cell: no per-cell allocations, and a deterministic order.
struct GridIndex {
    let cellSize: Double
    private(set) var keys: [Int64] = []
    private(set) var items: [Int32] = []

    init(cellSize: Double) { self.cellSize = cellSize }

    @inline(__always) func cellX(_ x: Double) -> Int64 { Int64(((x + 180) / cellSize).rounded(.down)) }
    @inline(__always) func cellY(_ y: Double) -> Int64 { Int64(((y + 90) / cellSize).rounded(.down)) }
    @inline(__always) static func key(_ cx: Int64, _ cy: Int64) -> Int64 { cy << 32 | cx }

    /// Builds the index from one box per item.
    mutating func build(boxes: [BoundingBox]) {
        var pairs: [(Int64, Int32)] = []
        pairs.reserveCapacity(boxes.count * 2)
        for (i, b) in boxes.enumerated() {
            let x0 = cellX(b.minX), x1 = cellX(b.maxX), y0 = cellY(b.minY), y1 = cellY(b.maxY)
            for cy in y0...y1 { for cx in x0...x1 { pairs.append((GridIndex.key(cx, cy), Int32(i))) } }
        }
        pairs.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        keys = pairs.map(\.0)
        items = pairs.map(\.1)
    }

    /// The items of one cell (a range into `items`).
    func range(of key: Int64) -> Range<Int> {
        var lo = 0, hi = keys.count
        while lo < hi { let mid = (lo + hi) / 2; if keys[mid] < key { lo = mid + 1 } else { hi = mid } }
        var end = lo
        while end < keys.count && keys[end] == key { end += 1 }
        return lo..<end
    }

    /// Calls `body` with every group of items sharing a cell, and the cell's key.
    func forEachCell(_ body: (Int64, ArraySlice<Int32>) -> Void) {
        var i = 0
        while i < keys.count {
            var j = i + 1
            while j < keys.count && keys[j] == keys[i] { j += 1 }
            body(keys[i], items[i..<j])
            i = j
        }
    }
}

import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ

/// A uniform lon/lat grid over items (segments or points) in compressed rows: `start[cell]`
/// ..< `start[cell + 1]` index `items`. Built with a counting sort (no comparisons, no
/// per-cell allocations), items within a cell in increasing order: deterministic.
struct GridIndex {
    let cellSize: Double
    let columns: Int
    let rows: Int
    private(set) var start: [Int32] = []
    private(set) var items: [Int32] = []

    init(cellSize: Double) {
        self.cellSize = cellSize
        columns = Int((360 / cellSize).rounded(.up)) + 1
        rows = Int((180 / cellSize).rounded(.up)) + 1
    }

    @inline(__always) func cellX(_ x: Double) -> Int { min(max(Int(((x + 180) / cellSize).rounded(.down)), 0), columns - 1) }
    @inline(__always) func cellY(_ y: Double) -> Int { min(max(Int(((y + 90) / cellSize).rounded(.down)), 0), rows - 1) }
    @inline(__always) func cell(_ cx: Int, _ cy: Int) -> Int { cy * columns + cx }

    /// Builds the index from one box per item.
    mutating func build(boxes: [BoundingBox]) {
        let cells = columns * rows
        var count = [Int32](repeating: 0, count: cells + 1)
        for b in boxes {
            for cy in cellY(b.minY)...cellY(b.maxY) { for cx in cellX(b.minX)...cellX(b.maxX) { count[cell(cx, cy) + 1] += 1 } }
        }
        for i in 0..<cells { count[i + 1] += count[i] }
        start = count
        var fill = count
        items = [Int32](repeating: 0, count: Int(count[cells]))
        for (i, b) in boxes.enumerated() {
            for cy in cellY(b.minY)...cellY(b.maxY) {
                for cx in cellX(b.minX)...cellX(b.maxX) {
                    let c = cell(cx, cy)
                    items[Int(fill[c])] = Int32(i); fill[c] += 1
                }
            }
        }
    }

    /// The items of one cell (a range into `items`).
    @inline(__always) func range(of cell: Int) -> Range<Int> { Int(start[cell])..<Int(start[cell + 1]) }

    var cellCount: Int { columns * rows }

    /// Calls `body` with every cell of `cells` holding two or more items, in cell order.
    func forEachCell(in cells: Range<Int>, _ body: (Int, ArraySlice<Int32>) -> Void) {
        for c in cells where start[c + 1] - start[c] > 1 {
            body(c, items[Int(start[c])..<Int(start[c + 1])])
        }
    }
}

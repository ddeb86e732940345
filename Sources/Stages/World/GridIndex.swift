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
        // The boxes' cell ranges once, then counts, offsets and the fill through raw buffers:
        // the world stage builds a million-cell grid twice per topology round.
        let ranges = boxes.map { b in (x0: Int32(cellX(b.minX)), x1: Int32(cellX(b.maxX)), y0: Int32(cellY(b.minY)), y1: Int32(cellY(b.maxY))) }
        var count = [Int32](repeating: 0, count: cells + 1)
        let columns = self.columns
        count.withUnsafeMutableBufferPointer { cp in
            for r in ranges {
                for cy in Int(r.y0)...Int(r.y1) { for cx in Int(r.x0)...Int(r.x1) { cp[cy * columns + cx + 1] += 1 } }
            }
            for i in 0..<cells { cp[i + 1] += cp[i] }
        }
        start = count
        var fill = count
        var out = [Int32](repeating: 0, count: Int(count[cells]))
        fill.withUnsafeMutableBufferPointer { fp in
            out.withUnsafeMutableBufferPointer { op in
                for (i, r) in ranges.enumerated() {
                    for cy in Int(r.y0)...Int(r.y1) {
                        for cx in Int(r.x0)...Int(r.x1) {
                            let c = cy * columns + cx
                            op[Int(fp[c])] = Int32(i); fp[c] += 1
                        }
                    }
                }
            }
        }
        items = out
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

// The boundaries of the coarse cells the game's map shows zoomed out (ZoomMigration): the
// database has no H3, so the night writes, before its cells, the boundary of every coarse cell
// (resolutions 0–8) they fall in, as territory_hex.cell stores a cell (continuous across ±180°).

import GeoModel
import H3

extension TerritoryGame {
    /// The coarse resolutions the map keeps, finest first.
    public static let zoomResolutions = Array((0...8).reversed())

    /// The coarse cells (every resolution of `zoomResolutions`) that the resolution-9 `cells`
    /// fall in, sorted, each once.
    public static func zoomParents(of cells: some Sequence<UInt64>) -> [UInt64] {
        var level = Set<UInt64>()
        for c in cells { level.insert(H3Cell.parent(c, res: 8)) }
        var all = level
        for r in zoomResolutions.dropFirst() {
            level = Set(level.lazy.map { H3Cell.parent($0, res: r) })
            all.formUnion(level)
        }
        return all.sorted()
    }

    /// One coarse cell's row of `copy night_zoom_shapes (h3, cell) from stdin`: its index as
    /// the bigint territory_zoom keys it by (the 64 bits; bit 63 is always 0) and its boundary.
    public static func zoomShapeCopyRow(_ cell: UInt64) throws -> [UInt8] {
        var w = JSONWriter(reserve: 1200)
        w.raw("\(Int64(bitPattern: cell))\t")
        try w.cellEWKT(cell)
        w.raw("\n")
        return w.bytes
    }
}

import Foundation
import GeoModel
import H3

/// The H3 library's cell operations on the raw 64-bit ids the stage stores (its cells are
/// valid resolution-9 cells: produced by polygonToCells or checked on reading).
public enum H3Cell {
    /// The parent at `res` (the cell itself when `res` is not coarser).
    public static func parent(_ h: UInt64, res: Int) -> UInt64 { (try? H3.cellToParent(H3Index(h), res: res))?.value ?? h }
    /// Lower-case hexadecimal, as h3 and the game's `hex_id` write it.
    public static func hex(_ h: UInt64) -> String { H3Index(h).description }
}

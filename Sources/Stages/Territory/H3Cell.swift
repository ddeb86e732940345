import Foundation
import GeoModel
import GeoPROJ
import H3

/// The H3 library's cell operations on the raw 64-bit ids the stage stores (its cells are
/// valid resolution-9 cells: produced by polygonToCells or checked on reading).
public enum H3Cell {
    /// The parent at `res` (the cell itself when `res` is not coarser).
    public static func parent(_ h: UInt64, res: Int) -> UInt64 { (try? H3.cellToParent(H3Index(h), res: res))?.value ?? h }
    /// Lower-case hexadecimal, as h3 and the game's `hex_id` write it.
    public static func hex(_ h: UInt64) -> String { H3Index(h).description }

    /// The cell's boundary as a closed, counter-clockwise polygon (territory.geojson and the
    /// night's `cell` column).
    public static func polygon(_ cell: UInt64) throws -> Polygon {
        var ring = try H3.cellToBoundary(H3Index(cell)).map { Point($0.lngDegrees, $0.latDegrees) }
        if Geodesic.wgs84.ringArea(ring) < 0 { ring.reverse() }
        ring.append(ring[0])
        return Polygon(rings: [ring])
    }

    /// The boundary as territory_hex.cell stores it: one ring, continuous across ±180°.
    public static func storedRing(_ cell: UInt64) throws -> Ring { Loop.continuous(try polygon(cell).exterior) }
}

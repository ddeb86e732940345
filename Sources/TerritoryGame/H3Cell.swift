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
        if clockwise(ring) { ring.reverse() }
        ring.append(ring[0])
        return Polygon(rings: [ring])
    }

    /// Whether a cell's boundary (open, as H3 gives it) winds clockwise: whether its geodesic
    /// area (PROJ) is negative. A cell under a degree across and away from the poles is decided
    /// in the plane of its longitudes (unwrapped around the first vertex, scaled by the cosine
    /// of its latitude), where a ring of a few hundred metres whose area is far from zero —
    /// H3's cells: about 0.07 of the perimeter squared — has the orientation it has on the
    /// ellipsoid by a margin of many orders; anything else asks PROJ. The geodesic polygon
    /// area cost a night's outputs more than writing the cells.
    static func clockwise(_ ring: [Point]) -> Bool {
        planarClockwise(ring) ?? (Geodesic.wgs84.ringArea(ring) < 0)
    }

    /// `clockwise` decided in the cell's local plane; nil when that plane cannot decide (near
    /// a pole, over a degree across, nearly flat) and PROJ must.
    static func planarClockwise(_ ring: [Point]) -> Bool? {
        guard ring.count >= 3, abs(ring[0].y) < 85 else { return nil }
        let x0 = ring[0].x, y0 = ring[0].y, k = cos(y0 * .pi / 180)
        @inline(__always) func local(_ p: Point) -> (Double, Double) {
            var dx = p.x - x0
            if dx > 180 { dx -= 360 } else if dx < -180 { dx += 360 }
            return (dx * k, p.y - y0)
        }
        var area2 = 0.0, perimeter = 0.0
        for i in ring.indices {
            let (ax, ay) = local(ring[i]), (bx, by) = local(ring[i + 1 == ring.count ? 0 : i + 1])
            guard abs(ax) < 1, abs(ay) < 1 else { return nil }
            area2 += ax * by - bx * ay
            perimeter += ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
        }
        guard abs(area2) > 0.02 * perimeter * perimeter else { return nil }
        return area2 < 0
    }

    /// The boundary as territory_hex.cell stores it: one ring, continuous across ±180°.
    public static func storedRing(_ cell: UInt64) throws -> Ring { Loop.continuous(try polygon(cell).exterior) }
}

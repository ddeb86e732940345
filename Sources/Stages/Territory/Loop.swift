import GeoGEOS
import GeoModel
import GeoPROJ
import H3

/// The loop a valid run encloses: its kept fixes, closed back to the first, made valid by
/// GEOS. A path that crosses itself becomes its lobes (a figure-eight is two polygons that
/// touch at the crossing, never a bow-tie); a lap run twice is one polygon; a path with no
/// area (out and back along one street) encloses nothing.
public enum Loop {
    public static func polygons(_ run: Run, kept: [Int], geos: GEOSContext) throws -> [Polygon] {
        var ring = kept.map { Point(run.lon[$0], run.lat[$0]) }
        guard let first = ring.first else { return [] }
        if ring.last != first { ring.append(first) }
        guard ring.count >= 4 else { return [] }
        let g = try geos.polygon(Polygon(rings: [ring]))
        let valid = try g.makeValid()
        // Parts with area, largest first (the one runs.loop_polygon keeps); ties by first
        // vertex, so the order never depends on GEOS's. Planar area in degrees is enough to
        // order a few km of loop.
        func area(_ p: Polygon) -> Double {
            p.rings.enumerated().reduce(0.0) { acc, r in
                var a = 0.0
                for (u, v) in zip(r.element, r.element.dropFirst()) { a += u.x * v.y - v.x * u.y }
                return acc + (r.offset == 0 ? abs(a) : -abs(a)) / 2
            }
        }
        return try valid.polygons().map { ($0, area($0)) }
            .filter { $0.1 > 0 }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : ($0.0.exterior[0].x, $0.0.exterior[0].y) < ($1.0.exterior[0].x, $1.0.exterior[0].y) }
            .map(\.0)
    }

    /// The resolution-`res` cells whose centre lies inside one of the polygons (H3's own
    /// containment, the same as h3-py's polygon_to_cells), sorted and without repeats.
    public static func cells(_ polygons: [Polygon], res: Int) throws -> [UInt64] {
        var out = Set<UInt64>()
        for p in polygons {
            func loop(_ r: Ring) -> [LatLng] {
                var pts = r
                if pts.count > 1 && pts.first == pts.last { pts.removeLast() }
                return pts.map { LatLng(latDegrees: $0.y, lngDegrees: $0.x) }
            }
            let gp = GeoPolygon(outer: loop(p.exterior), holes: p.holes.map(loop))
            for c in try H3.polygonToCells(gp, res: res) { out.insert(c.value) }
        }
        return out.sorted()
    }
}


import GeoModel
import Geodesy

public enum Antimeridian {
    /// Joins the parts of one country that Natural Earth split at ±180° into continuous
    /// polygons: parts touching −180° (and not spanning the whole globe) move 360° east and
    /// are unioned with the parts they touch at +180°. Longitudes may then exceed 180°, which
    /// PROJ handles. Other parts keep their order; the joined parts take the first one's place.
    /// Returns each output polygon with the indexes of the input polygons it came from.
    public static func joinAcross180WithOrigins(_ polygons: [Polygon], context: GEOSContext) throws -> [(polygon: Polygon, origins: [Int])] {
        let unchanged = polygons.enumerated().map { (polygon: $1, origins: [$0]) }
        var east: [Int] = [], west: [Int] = []
        for (i, p) in polygons.enumerated() {
            var hasE = false, hasW = false, minX = Double.infinity, maxX = -Double.infinity
            for q in p.exterior {
                if q.x == 180 { hasE = true } else if q.x == -180 { hasW = true }
                minX = min(minX, q.x); maxX = max(maxX, q.x)
            }
            if hasE && minX > -180 { east.append(i) }
            if hasW && maxX < 180 { west.append(i) }
        }
        guard !east.isEmpty, !west.isEmpty else { return unchanged }
        var shifted = polygons
        for i in west { shifted[i] = Polygon(rings: shifted[i].rings.map { $0.map { Point($0.x + 360, $0.y) } }) }
        let group = (east + west).sorted()
        let merged = try unionOrKeep(group.map { shifted[$0] }, context: context)
        var out: [(polygon: Polygon, origins: [Int])] = []
        let inGroup = Set(group)
        for i in polygons.indices {
            if i == group[0] {
                for m in merged { out.append((polygon: m, origins: group)) }
            } else if !inGroup.contains(i) {
                out.append(unchanged[i])
            }
        }
        return out
    }

    /// Union of polygons that touch along a meridian; if GEOS refuses (invalid input), the
    /// inputs are repaired first, and if that fails too they are returned unchanged.
    public static func unionOrKeep(_ polygons: [Polygon], context: GEOSContext) throws -> [Polygon] {
        do {
            let u = try context.unaryUnion(polygons.map { try context.polygon($0) })
            return try u.polygons().map(RingMath.orientedForRFC7946)
        } catch {
            do {
                let u = try context.unaryUnion(polygons.map { try context.polygon($0).makeValid() })
                return try u.polygons().map(RingMath.orientedForRFC7946)
            } catch {
                return polygons
            }
        }
    }
}

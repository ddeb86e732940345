import Foundation
import GeoModel
import Geodesy

/// Which country holds a point, and how far a point lies from a country: the one answer the
/// cities and the highlights stages share. Polygon countries are GEOS prepared geometries
/// found through a 1° grid of their parts' bounding boxes, so a point is tested against the
/// one to three countries whose boxes cover its cell, not against all of them; a point
/// country is its point. Distances are great circles on the mean-radius sphere
/// (`Sphere.distanceKm`, haversine) from the point to the nearest point of the country's
/// geometry in lon/lat.
///
/// One GEOS context of its own: use an index from one thread at a time.
public final class CountryIndex {
    /// The countries in the order given; indices into this are the index's answers.
    public let ids: [String]
    /// Set for point countries.
    public let points: [Point?]
    private let byID: [String: Int]
    private let geos: GEOSContext
    private let geometry: [GEOSGeometry?]
    private let prepared: [GEOSPreparedGeometry?]
    /// 360 × 180 cells of 1°: the polygon countries whose parts' boxes touch each cell, in order.
    private let grid: [[Int32]]

    /// A point ready for the index's tests (its GEOS geometry made once).
    public struct Probe {
        public let point: Point
        let geometry: GEOSGeometry
    }

    /// `countries`: each id with its geometry (Point for a point country). `ref(i)` names the
    /// i-th country in errors (a GEOS failure on its geometry).
    public init(_ countries: [(id: String, geometry: Geometry)], file: String, ref: (Int) -> FeatureRef) throws {
        let geos = GEOSContext()
        self.geos = geos
        var geometry: [GEOSGeometry?] = [], prepared: [GEOSPreparedGeometry?] = [], points: [Point?] = []
        var grid = [[Int32]](repeating: [], count: 360 * 180)
        for (i, c) in countries.enumerated() {
            if case .point(let p) = c.geometry {
                points.append(p); geometry.append(nil); prepared.append(nil)
                continue
            }
            let g = try forFeature(file: file, ref(i)) { try geos.geometry(c.geometry) }
            points.append(nil)
            geometry.append(g)
            prepared.append(try forFeature(file: file, ref(i)) { try GEOSPreparedGeometry(g) })
            for part in c.geometry.polygons {
                guard let box = Geometry.polygon(part).boundingBox else { continue }
                let (c0, r0) = Self.cell(Point(box.minX, box.minY)), (c1, r1) = Self.cell(Point(box.maxX, box.maxY))
                for r in r0...r1 { for col in c0...c1 {
                    let k = r * 360 + col
                    if grid[k].last != Int32(i) { grid[k].append(Int32(i)) }
                } }
            }
        }
        ids = countries.map(\.id)
        self.points = points
        self.geometry = geometry
        self.prepared = prepared
        self.grid = grid
        var byID: [String: Int] = [:]
        for (i, id) in ids.enumerated() where byID[id] == nil { byID[id] = i }
        self.byID = byID
    }

    public var count: Int { ids.count }
    public func index(of id: String) -> Int? { byID[id] }
    public func isPoint(_ i: Int) -> Bool { points[i] != nil }

    public func probe(_ p: Point) throws -> Probe { Probe(point: p, geometry: try geos.point(p)) }

    static func cell(_ p: Point) -> (Int, Int) {
        (min(max(Int((p.x + 180).rounded(.down)), 0), 359), min(max(Int((p.y + 90).rounded(.down)), 0), 179))
    }

    /// The first polygon country (in the given order) holding the point, other than `excluding`.
    public func containing(_ q: Probe, excluding: Int? = nil) throws -> Int? {
        let (c, r) = Self.cell(q.point)
        for i in grid[r * 360 + c] where Int(i) != excluding {
            if try prepared[Int(i)]!.contains(q.geometry) { return Int(i) }
        }
        return nil
    }

    /// Whether polygon country `i` holds the point (false for a point country).
    public func contains(_ i: Int, _ q: Probe) throws -> Bool {
        guard let prepared = prepared[i] else { return false }
        let (c, r) = Self.cell(q.point)
        guard grid[r * 360 + c].contains(Int32(i)) else { return false }
        return try prepared.contains(q.geometry)
    }

    /// Kilometres from the point to country `i` (its polygons, or its point).
    public func distanceKm(_ q: Probe, to i: Int) throws -> Double {
        if let p = points[i] { return Sphere.distanceKm(q.point, p) }
        let (near, _) = try geometry[i]!.nearestPoints(q.geometry)
        return Sphere.distanceKm(q.point, near)
    }

    /// The nearest polygon country within `km` of the point, found among the grid cells that
    /// distance can reach (ties: the first in order).
    public func nearestPolygon(_ q: Probe, withinKm km: Double) throws -> (index: Int, km: Double)? {
        let p = q.point
        // Degrees on the mean-radius sphere (`Earth.kmPerDegree`, the sphere `distanceKm` measures
        // on), plus a cell of margin.
        let dLat = km / Earth.kmPerDegree + 1
        let cosLat = cos(min(abs(p.y) + dLat, 89.9) * .pi / 180)
        let dLon = min(km / (Earth.kmPerDegree * max(cosLat, 1e-6)) + 1, 180)
        let (c0, r0) = Self.cell(Point(p.x - dLon, p.y - dLat)), (c1, r1) = Self.cell(Point(p.x + dLon, p.y + dLat))
        var candidates = Set<Int32>()
        // Near the antimeridian the columns wrap round.
        let wraps = p.x - dLon < -180 || p.x + dLon > 180
        for r in r0...r1 {
            if wraps { for col in 0..<360 { candidates.formUnion(grid[r * 360 + col]) } }
            else { for col in c0...c1 { candidates.formUnion(grid[r * 360 + col]) } }
        }
        var best: (Int, Double)?
        for i in candidates.sorted() {
            let d = try distanceKm(q, to: Int(i))
            if d <= km, best == nil || d < best!.1 { best = (Int(i), d) }
        }
        return best
    }
}

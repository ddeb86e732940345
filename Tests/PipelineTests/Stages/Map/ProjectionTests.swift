import Foundation
import Testing
@testable import GeoModel
@testable import GeoGEOS
@testable import GeoPROJ
@testable import MapStage

/// The map projection on real Natural Earth slices: central meridians read from PROJ, rings cut
/// at the map's edge, parts split at ±180° joined again, Mercator clipped short of the poles.
@Suite struct ProjectionTests {
    func polygons(_ file: String, _ unit: String) throws -> [Polygon] {
        let f = try Slices.units(file, [unit])
        try #require(f.count == 1)
        return f[0].geometry.polygons
    }

    /// Longest projected edge as a share of the map's width.
    func longestEdge(_ polys: [Polygon], width: Double) -> Double {
        var worst = 0.0
        for p in polys { for r in p.rings { for i in 1..<r.count {
            worst = max(worst, hypot(r[i].x - r[i - 1].x, r[i].y - r[i - 1].y))
        } } }
        return worst / width
    }

    func mapWidth(_ map: MapProjection) throws -> Double {
        let outline = try #require(map.outline())
        var b = BoundingBox.empty
        for p in outline { b.extend(p) }
        return b.width
    }

    @Test func centralMeridianComesFromPROJ() throws {
        let ctx = PROJContext()
        #expect(try ProjectionInfo.centralMeridian(of: "EPSG:8857", context: ctx) == 0)
        #expect(abs(try ProjectionInfo.centralMeridian(of: "+proj=robin +lon_0=150", context: ctx) - 150) < 1e-9)
        #expect(abs(try ProjectionInfo.centralMeridian(of: "+proj=eqearth +lon_0=-30 +ellps=WGS84", context: ctx) + 30) < 1e-9)
        #expect(try ProjectionInfo.centralMeridian(of: "EPSG:3857", context: ctx) == 0)
        #expect(throws: PROJError.self) { try ProjectionInfo.centralMeridian(of: "EPSG:4326", context: ctx) }
        #expect(throws: PROJError.self) { try ProjectionInfo.centralMeridian(of: "+proj=nonsense", context: ctx) }
    }

    @Test func russiaIsCutAtTheEdgeOfAMapCentredOn30W() throws {
        let russia = try polygons(Repo.units10m, "RUS")
        let map = try MapProjection(crs: "+proj=eqearth +lon_0=-30", context: PROJContext(), geos: GEOSContext())
        #expect(abs(map.west - 150) < 1e-9)
        let pieces = try map.cut(russia)
        let projected = try map.project(pieces, what: "RUS")
        let width = try mapWidth(map)
        // Russia east of 150°E sits at the left edge of this map, the rest at the right.
        var box = BoundingBox.empty
        for p in projected { for q in p.exterior { box.extend(q) } }
        #expect(box.minX < -0.4 * width && box.maxX > 0.4 * width)
        // …but no ring is smeared across the map.
        #expect(longestEdge(projected, width: width) < 0.02)
        for p in projected {
            var b = BoundingBox.empty
            for q in p.exterior { b.extend(q) }
            #expect(b.width < 0.5 * width)
        }
        // Equal Earth is equal-area: the pieces keep Russia's area (PROJ's geodesic area, 0.5 %).
        let area = projected.reduce(0.0) { s, p in s + abs(RingMath.signedArea(p.exterior)) - p.holes.reduce(0.0) { $0 + abs(RingMath.signedArea($1)) } }
        let geodesic = Geodesic.wgs84.area(.multiPolygon(russia))
        #expect(abs(area / geodesic - 1) < 0.005)
    }

    @Test func fijiIsJoinedOnAPacificMapAndNotCutOnTheDefault() throws {
        let fiji = try polygons(Repo.units10m, "FJI")
        let pacific = try MapProjection(crs: "+proj=robin +lon_0=150", context: PROJContext(), geos: GEOSContext())
        let joined = try pacific.cut(fiji)
        #expect(joined.count < fiji.count)           // islands split at ±180° are one again
        let projected = try pacific.project(joined, what: "FJI")
        var box = BoundingBox.empty
        for p in projected { for q in p.exterior { box.extend(q) } }
        #expect(box.width < 0.03 * (try mapWidth(pacific)))

        let standard = try MapProjection(crs: "EPSG:8857", context: PROJContext(), geos: GEOSContext())
        #expect(standard.edgeIsAntimeridian)
        #expect(try standard.cut(fiji).count == fiji.count)
    }

    @Test func mercatorStopsShortOfThePoles() throws {
        let aq = try polygons(Repo.countries110m, "ATA")
        let map = try MapProjection(crs: "EPSG:3857", context: PROJContext(), geos: GEOSContext())
        #expect(map.maxLatitude < 85.06 && map.maxLatitude > 85.05)
        let projected = try map.project(try map.cut(aq), what: "ATA")
        for p in projected { for q in p.exterior { #expect(q.y.isFinite && abs(q.y) < 20_048_967) } }
        #expect(try MapProjection(crs: "EPSG:8857", context: PROJContext(), geos: GEOSContext()).maxLatitude == 90)
    }
}

import Foundation
import Testing
import GeoModel
import Geodesy
import GeoGEOS

/// The one country-at-point index (cities and highlights): containment through the grid,
/// overlaps answered in the given order, distances on the mean sphere.
@Suite struct CountryIndexTests {
    func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Geometry {
        .polygon(Polygon(rings: [[Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1), Point(x0, y0)]]))
    }

    @Test func containmentDistanceAndNearest() throws {
        let index = try CountryIndex([
            ("AA", square(0, 0, 2, 2)), ("BB", square(1, 1, 3, 3)),   // overlapping on [1,2]²
            ("CC", .point(Point(10, 0))), ("DD", square(179, -1, 180, 1)),
        ], file: "t.geojson") { FeatureRef(index: $0, name: nil) }
        #expect(index.count == 4 && index.index(of: "CC") == 2 && index.isPoint(2) && !index.isPoint(0))
        let inBoth = try index.probe(Point(1.5, 1.5))
        #expect(try index.containing(inBoth) == 0)
        #expect(try index.containing(inBoth, excluding: 0) == 1)
        #expect(try index.contains(1, inBoth) && !(try index.contains(2, inBoth)))
        let outside = try index.probe(Point(5, 0))
        #expect(try index.containing(outside) == nil)
        // Distances: to the point country's point, and to the nearest corner of AA (great circle).
        #expect(try index.distanceKm(outside, to: 2) == Sphere.distanceKm(Point(5, 0), Point(10, 0)))
        #expect(abs(try index.distanceKm(outside, to: 0) - 3 * Earth.kmPerDegree) < 1e-9)
        // The nearest polygon: BB's corner (3, 1), 2.24° away, before AA's edge at 3°.
        let near = try #require(try index.nearestPolygon(outside, withinKm: 400))
        #expect(near.index == 1 && near.km == Sphere.distanceKm(Point(5, 0), Point(3, 1)))
        #expect(try index.nearestPolygon(outside, withinKm: 240) == nil)
        // Across the antimeridian the candidate search wraps round (the nearest point itself
        // is GEOS' planar one: DD's west edge at 179°, 1.5° of great circle away).
        let west = try index.probe(Point(-179.5, 0))
        let wrapped = try #require(try index.nearestPolygon(west, withinKm: 200))
        #expect(wrapped.index == 3 && abs(wrapped.km - 1.5 * Earth.kmPerDegree) < 1e-6)
    }
}

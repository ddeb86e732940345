import Foundation
import Testing
import GeoModel
import Geodesy
import GeoPROJ

/// The countries' geodesic areas (edges solved once, shared borders once) against PROJ's
/// `geod_polygonarea` ring by ring (`Geodesic.area`): equal to the last bit.
@Suite struct GeodesicAreasTests {
    @Test func everyMapUnitOf1To10mEqualsPROJ() throws {
        let units = try GeoJSON.read(path: Repo.units10m)
        let polygons = units.map { $0.geometry.polygons }.filter { !$0.isEmpty }
        #expect(polygons.count > 250)
        let ours = GeodesicAreas.countries(polygons, threads: 2)
        var differing: [String] = []
        for (i, p) in polygons.enumerated() {
            let proj = p.reduce(0.0) { $0 + Geodesic.wgs84.area($1) }
            if ours[i] != proj { differing.append("\(i): \(ours[i]) vs \(proj)") }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
    }

    @Test func ringsAcrossTheMeridiansAndAroundThePole() {
        let rings: [Ring] = [
            // Around the south pole, crossing 0° and ±180° (Antarctica-like).
            [Point(-180, -80), Point(-90, -75), Point(0, -70), Point(90, -75), Point(180, -80), Point(180, -90), Point(-180, -90), Point(-180, -80)],
            // Across ±180° written with longitudes past 180.
            [Point(179, -17), Point(181, -17), Point(181, -16), Point(179, -16), Point(179, -17)],
            // Across 0°, clockwise, with a repeated vertex.
            [Point(-1, 50), Point(-1, 51), Point(2, 51), Point(2, 51), Point(2, 50), Point(-1, 50)],
        ]
        for r in rings {
            let ours = GeodesicAreas.countries([[Polygon(rings: [r])]], threads: 1)[0]
            #expect(ours == abs(Geodesic.wgs84.ringArea(r)))
        }
        // A polygon with a hole, and a neighbour sharing its border (the shared edges once).
        let outer: Ring = [Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10), Point(0, 0)]
        let hole: Ring = [Point(2, 2), Point(2, 4), Point(4, 4), Point(4, 2), Point(2, 2)]
        let east: Ring = [Point(10, 0), Point(20, 0), Point(20, 10), Point(10, 10), Point(10, 0)]
        let a = GeodesicAreas.countries([[Polygon(rings: [outer, hole])], [Polygon(rings: [east])]], threads: 2)
        #expect(a[0] == Geodesic.wgs84.area(Polygon(rings: [outer, hole])))
        #expect(a[1] == Geodesic.wgs84.area(Polygon(rings: [east])))
    }
}

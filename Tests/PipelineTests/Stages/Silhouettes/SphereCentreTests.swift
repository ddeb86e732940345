import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import SilhouettesStage

/// The centre each silhouette's projection is centred on, across ±180° and with holes.
@Suite struct SphereCentreTests {
    @Test func sphereCentreAveragesAcrossTheAntimeridian() throws {
        func square(_ x: Double, _ y: Double) -> Polygon {
            Polygon(rings: [[Point(x, y), Point(x + 0.5, y), Point(x + 0.5, y + 0.5), Point(x, y + 0.5), Point(x, y)]])
        }
        let c = try #require(SphereCentre.of([square(179.0, -17), square(-179.5, -17)]))
        #expect(abs(abs(c.x) - 180) < 0.01)
        #expect(abs(c.y + 16.75) < 0.01)
        // Holes count negatively: a hole in the east half moves the centre west.
        let ring: Ring = [Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10), Point(0, 0)]
        let hole: Ring = [Point(6, 2), Point(6, 8), Point(9, 8), Point(9, 2), Point(6, 2)]
        let withHole = try #require(SphereCentre.of([Polygon(rings: [ring, hole])]))
        #expect(withHole.x < 4.9)
        // Russia: the centre lies in Siberia, not near 0° as a lon/lat average of ±180° parts would give.
        let ru = try #require(SphereCentre.of(try ProjectionTests().polygons(Repo.units10m, "RUS")))
        #expect(ru.x > 80 && ru.x < 110 && ru.y > 55 && ru.y < 75)
    }
}

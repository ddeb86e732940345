import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import ReleaseStage

/// The border displacement the release stage reports (BoundaryDistance).
@Suite struct BoundaryDistanceTests {
    static func square(_ x: Double, _ y: Double, _ side: Double) -> Geometry {
        .polygon(Polygon(rings: [[Point(x, y), Point(x + side, y), Point(x + side, y + side), Point(x, y + side), Point(x, y)]]))
    }

    @Test func sameBoundaryIsZeroWhateverTheRingStart() {
        let a = Self.square(10, 40, 1)
        let b = Geometry.polygon(Polygon(rings: [[Point(11, 40), Point(11, 41), Point(10, 41), Point(10, 40), Point(11, 40)]]))
        #expect(BoundaryDistance.hausdorffKm(a, a) == 0)
        #expect(BoundaryDistance.hausdorffKm(a, b) == 0)
    }

    @Test func oneMovedVertexGivesItsDisplacement() {
        // A square's corner pulled 0.036° north (4.0 km): the largest displacement is that vertex's.
        let a = Self.square(10, 40, 1)
        let b = Geometry.polygon(Polygon(rings: [[Point(10, 40), Point(11, 40), Point(11, 41.036), Point(10, 41), Point(10, 40)]]))
        let d = BoundaryDistance.hausdorffKm(a, b)
        #expect(abs(d - 4.0) < 0.05, "got \(d) km")
        // The far side of a square moved 1° east: 1° of longitude at 40–41°N, about 84 km.
        let c = Self.square(11, 40, 1)
        let far = BoundaryDistance.hausdorffKm(a, c)
        #expect(far > 83 && far < 86, "got \(far) km")
    }

    @Test func pointCountriesMoveByTheirDistance() {
        let d = BoundaryDistance.hausdorffKm(.point(Point(7.4, 43.7)), .point(Point(7.4, 43.8)))
        #expect(abs(d - 11.12) < 0.02, "got \(d) km")
    }
}

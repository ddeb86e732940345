import Foundation
import Testing
@testable import GeoModel
@testable import GeoPROJ
@testable import SilhouettesStage

/// SphericalArea.authalicRingArea against PROJ's geodesic area (Karney): the bound the
/// silhouettes' decisions rely on (Silhouette.estimateMargin), and where it refuses.
@Suite struct SphericalAreaTests {
    func relativeError(_ ring: Ring, maxEdgeDegrees: Double = 20) throws -> Double {
        let estimate = try #require(SphericalArea.authalicRingArea(ring, maxEdgeDegrees: maxEdgeDegrees))
        let exact = abs(Geodesic.wgs84.ringArea(ring))
        return abs(estimate - exact) / exact
    }

    /// Boxes and triangles with edges up to 30° anywhere on the globe: within 3e-4.
    @Test func boxesAndTrianglesUpTo30Degrees() throws {
        var worst = 0.0
        for x0 in stride(from: -180.0, to: 180, by: 37) {
            for y0 in stride(from: -89.0, to: 60, by: 13) {
                for w in [1.0, 5, 15, 30] {
                    for h in [1.0, 5, 15, 30] {
                        let y1 = min(89.5, y0 + h), x1 = x0 + w
                        let box: Ring = [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1), Point(x0, y0)]
                        worst = max(worst, try relativeError(box, maxEdgeDegrees: 30))
                    }
                }
            }
        }
        worst = max(worst, try relativeError([Point(0, -30), Point(30, 0), Point(0, 0), Point(0, -30)], maxEdgeDegrees: 30))
        worst = max(worst, try relativeError([Point(0, 60), Point(30, 60), Point(15, 89), Point(0, 60)], maxEdgeDegrees: 30))
        #expect(worst < 3e-4)
        // The silhouettes decide on the estimate only farther than their margin from a threshold.
        #expect(Silhouette.estimateMargin >= 3 * worst)
    }

    /// Every ring of Natural Earth's 1:110m countries (its long edges: the worst real case).
    @Test func naturalEarth110m() throws {
        var worst = 0.0, rings = 0
        for f in try GeoJSON.read(path: Repo.countries110m) {
            for p in f.geometry.polygons {
                for r in p.rings {
                    guard SphericalArea.authalicRingArea(r) != nil else { continue }
                    worst = max(worst, try relativeError(r))
                    rings += 1
                }
            }
        }
        #expect(rings > 250)
        #expect(worst < 2e-4)
        #expect(Silhouette.estimateMargin >= 5 * worst)
    }

    /// Out of range: nil, so that the caller measures on the ellipsoid.
    @Test func refusesPolesAndLongEdges() {
        // Antarctica's shape at 1:110m: along the pole from +180 to −180.
        #expect(SphericalArea.authalicRingArea([Point(-180, -90), Point(-180, -80), Point(-90, -75), Point(0, -80), Point(90, -75),
                                                Point(180, -80), Point(180, -90), Point(-180, -90)]) == nil)
        // Around the north pole without touching it.
        let cap: Ring = stride(from: -180.0, through: 180, by: 10).map { Point($0, 80) }
        #expect(SphericalArea.authalicRingArea(cap) == nil)
        // An edge of 25°.
        #expect(SphericalArea.authalicRingArea([Point(0, 0), Point(25, 0), Point(25, 1), Point(0, 0)]) == nil)
        #expect(SphericalArea.authalicRingArea([Point(0, 0), Point(1, 0), Point(0, 0)]) == 0)
        // Across the antimeridian is fine: a 1° box there.
        let across = SphericalArea.authalicRingArea([Point(179.5, 0), Point(-179.5, 0), Point(-179.5, 1), Point(179.5, 1), Point(179.5, 0)])
        #expect(across.map { abs($0 / 1e6 - 12308.8) < 1 } == true)
    }
}

import Foundation
import Testing
@testable import Geodesy

@Suite struct SphereTests {
    @Test func haversineKnownDistance() {
        // Paris (48.8566, 2.3522) – London (51.5074, -0.1278): 343.5 km on the mean sphere.
        let d = Sphere.distanceKm(Point(latitude: 48.8566, longitude: 2.3522), Point(latitude: 51.5074, longitude: -0.1278))
        #expect(abs(d - 343.56) < 0.5)
    }

    @Test func oneRadiusAndOnePointType() {
        #expect(Sphere.earthRadiusKm == 6371.0088 && Earth.meanRadiusKm == 6371.0088)
        #expect(abs(Earth.kmPerDegree - 111.195) < 0.001)
        let p = Point(latitude: 10, longitude: 20)
        #expect(p.x == 20 && p.y == 10 && p == Point(20, 10))
        // A quarter of a great circle: the pole from the equator.
        let d = Sphere.distanceKm(Point(0, 0), Point(0, 90))
        #expect(abs(d - Earth.meanRadiusKm * Double.pi / 2) < 1e-9)
        #expect(abs(Sphere.angle(Sphere.vector(Point(0, 0)), Sphere.vector(Point(90, 0))) - Double.pi / 2) < 1e-15)
    }
}

import Foundation
import Testing
@testable import GeoLookup

@Suite struct SphereTests {
    @Test func haversineKnownDistance() {
        // Paris (48.8566, 2.3522) – London (51.5074, -0.1278): 343.5 km on the mean sphere.
        let d = Sphere.distanceKm(Coordinate(latitude: 48.8566, longitude: 2.3522), Coordinate(latitude: 51.5074, longitude: -0.1278))
        #expect(abs(d - 343.56) < 0.5)
    }
}

import Testing
@testable import H3

@Suite struct H3IndexTests {
    @Test func knownCell() throws {
        // San Francisco at res 9, as h3 4.5.0 gives it.
        let h = try H3.latLngToCell(LatLng(latDegrees: 37.7749, lngDegrees: -122.4194), res: 9)
        #expect(h.description == "89283082803ffff")
    }
}

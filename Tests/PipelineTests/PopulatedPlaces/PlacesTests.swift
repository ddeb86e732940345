import Foundation
import PopulatedPlaces
import Testing
@testable import GeoModel

/// The compact populated places the ingest stage writes read back as exactly the places of the
/// Natural Earth file (every field, bit for bit, in the same order).
@Suite struct PlacesCompactTests {
    @Test func compactReadsBackIdentically() throws {
        let full = try Places(path: "data/natural-earth/ne_10m_populated_places.geojson")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(getpid()).geojson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileIO.writeAtomically(full.encodeCompact(), to: path)
        let compact = try Places(path: path)
        #expect(compact.all.count == full.all.count)
        #expect(full.all.count > 7000)
        for (a, b) in zip(full.all, compact.all) {
            #expect(a.name == b.name && a.asciiName == b.asciiName && a.alternateNames == b.alternateNames)
            #expect(a.featureClass == b.featureClass && a.iso == b.iso && a.countryName == b.countryName)
            #expect(a.position.x.bitPattern == b.position.x.bitPattern && a.position.y.bitPattern == b.position.y.bitPattern, "\(a.name)")
            #expect(a.population.bitPattern == b.population.bitPattern, "\(a.name)")
        }
    }
}

import Foundation
import StageContract
import Testing
import GeoLookup
@testable import GeoModel
@testable import LookupStage

/// The lookup stage on a real slice: Taiwan and South Korea from the Natural Earth 1:10m map
/// units, with the real populated places.
enum LookupSlice {
    /// countries.geojson with TW and KR (written once per test run) and its index.
    static let files: (countries: String, index: String) = {
        let dir = temporaryDirectory()
        let units = try! GeoJSON.read(path: Repo.units10m)
        var out: [Feature] = []
        for (su, id) in [("TWN", "TW"), ("KOR", "KR")] {
            let f = units.first { $0.string("SU_A3") == su }!
            out.append(Feature(id: id, properties: JSONObject([("name", .string(f.string("NAME") ?? id))]), geometry: f.geometry))
        }
        let countries = dir + "/countries.geojson"
        try! GeoJSON.write(out, to: countries)
        var o = LookupStage.Options()
        o.input = countries
        o.places = Repo.neDir + "/ne_10m_populated_places.geojson"
        o.output = dir + "/lookup.bin"
        _ = try! LookupStage.run(o, log: StageLog(stage: "lookup", quiet: true))
        return (countries, o.output)
    }()
}

@Suite struct LookupStageTests {
    @Test func indexAnswersOnTheSlice() throws {
        let g = try GeoLookup(contentsOf: URL(fileURLWithPath: LookupSlice.files.index))
        #expect(g.countryCodes == ["KR", "TW"])
        #expect(g.country(at: 25.0358, 121.5683) == "TW")          // Taipei
        #expect(g.country(at: 37.5683, 126.9978) == "KR")          // Seoul
        #expect(g.country(at: 35.0, 125.0) == nil)                 // Yellow Sea, far from both
        #expect(g.nearestCity(to: 25.04, 121.56, within: 25)?.name == "Taipei")
        #expect(g.nearestCity(to: 25.04, 121.56, within: 25)?.countryCode == "TW")
        // cities of countries outside the slice keep no code
        #expect(g.nearestCity(to: 48.86, 2.35, within: 25)?.countryCode == nil)
    }

    @Test func refusesOptionsItCannotUse() {
        var o = LookupStage.Options()
        o.maxEdgesPerLeaf = 2
        #expect(throws: OptionsError.self) { try o.validate() }
        o = LookupStage.Options()
        o.coastBufferKm = -1
        #expect(throws: OptionsError.self) { try o.validate() }
        o = LookupStage.Options()
        o.threads = 0
        #expect(throws: OptionsError.self) { try o.validate() }
    }

    @Test func overBudgetWritesNothing() throws {
        var o = LookupStage.Options()
        o.input = LookupSlice.files.countries
        o.places = Repo.neDir + "/ne_10m_populated_places.geojson"
        o.output = temporaryDirectory() + "/lookup.bin"
        o.maxBytes = 1000
        #expect(throws: StageError.self) { _ = try LookupStage.run(o, log: StageLog(stage: "lookup", quiet: true)) }
        #expect(!FileManager.default.fileExists(atPath: o.output))
    }

    /// A bad place is blamed on the places file, not on the countries.
    @Test func aBadPlaceNamesThePlacesFile() throws {
        let dir = temporaryDirectory()
        var o = LookupStage.Options()
        o.input = LookupSlice.files.countries
        o.places = writeFile(dir, "places.geojson", """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"NAME":"","NAMEASCII":"","FEATURECLA":"Populated place","ISO_A2":"FR","ADM0NAME":"France","POP_MAX":1000},"geometry":{"type":"Point","coordinates":[2.35,48.85]}}]}
            """)
        o.output = dir + "/lookup.bin"
        let e = try #require(throws: StageError.self) { _ = try LookupStage.run(o, log: StageLog(stage: "lookup", quiet: true)) }
        #expect(e.message.hasPrefix(o.places + ": city name empty"))
        #expect(!FileManager.default.fileExists(atPath: o.output))
    }
}

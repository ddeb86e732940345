import Foundation
import PopulatedPlaces
import Testing
@testable import GeoModel
import Geodesy
@testable import HighlightsStage

/// Validation of the curated highlights and the city checks on real data.
@Suite struct HighlightsTests {
    let names = ["FR": "France", "CH": "Switzerland", "IT": "Italy"]
    let file = "data/test_highlights.json"

    func problems(_ json: String) -> [String] {
        do { _ = try HighlightsStage.load(bytes: Array(json.utf8), file: file, names: names); return [] }
        catch let e as HighlightsError { #expect(e.file == file); #expect(e.description.contains(file)); return e.problems }
        catch { Issue.record("unexpected error \(error)"); return [] }
    }

    let good = #"""
      "CH": {"cities": ["Zurich"], "attractions": ["Matterhorn"]},
      "IT": {"cities": ["Rome", "Florence"], "attractions": ["Colosseum"]}
    """#

    @Test func validFileLoadsSorted() throws {
        let e = try HighlightsStage.load(bytes: Array(("{\"FR\": {\"cities\": [\"Paris\"], \"attractions\": [\"Louvre\"]}," + good + "}").utf8), file: file, names: names)
        #expect(e.map(\.id) == ["CH", "FR", "IT"])
        let out = String(decoding: HighlightsStage.encode(e), as: UTF8.self)
        #expect(out.hasPrefix("{\n  \"CH\": {\n    \"cities\": [\n      \"Zurich\"\n    ],"))
        #expect(out.hasSuffix("}\n"))
    }

    @Test func duplicateCity() {
        let p = problems("{\"FR\": {\"cities\": [\"Paris\", \"Nice\", \"paris\"], \"attractions\": [\"Louvre\"]}," + good + "}")
        #expect(p.count == 1)
        #expect(p[0].contains("FR (France)") && p[0].contains("cities") && p[0].contains("twice"))
    }

    @Test func untrimmedAttraction() {
        let p = problems("{\"FR\": {\"cities\": [\"Paris\"], \"attractions\": [\"Louvre \"]}," + good + "}")
        #expect(p.count == 1)
        #expect(p[0].contains("FR (France)") && p[0].contains("\"Louvre \"") && p[0].contains("white space"))
    }

    @Test func sixCities() {
        let p = problems("{\"FR\": {\"cities\": [\"Paris\", \"Nice\", \"Lyon\", \"Lille\", \"Metz\", \"Caen\"], \"attractions\": [\"Louvre\"]}," + good + "}")
        #expect(p == ["FR (France): cities has 6 entries; 1 to 5 are allowed"])
    }

    @Test func unknownAndMissingKeys() {
        let p = problems("{\"XX\": {\"cities\": [\"Paris\"], \"attractions\": [\"Louvre\"]}," + good + "}")
        #expect(p.contains { $0.hasPrefix("XX: unknown key") })
        #expect(p.contains { $0.hasPrefix("FR (France): missing") })
    }

    /// The ASCII entries skip Foundation's trimming and normalisation: every problem is still seen.
    @Test func asciiEntriesAreCheckedAsOthers() {
        let p = HighlightsStage.check(list: "cities", [" Lyon", "Nice\t", "Pa\u{01}ris", "Me\u{7F}tz", "Caen  Nord", "   "], label: "FR")
        #expect(p.contains { $0.contains("\" Lyon\"") && $0.contains("white space") })
        #expect(p.contains { $0.contains("Nice\\t") && $0.contains("white space") })
        #expect(p.contains { $0.contains("control character") && $0.contains("Pa") })
        #expect(p.contains { $0.contains("control character") && $0.contains("Me") })
        #expect(p.contains { $0.contains("double space") })
        #expect(p.contains { $0.contains("empty entry") })
        #expect(p.count == 8, "\(p)")  // six entries are too many, each has a problem, the tab two
        #expect(HighlightsStage.check(list: "cities", ["Paris", "Saint-Étienne", "Lyon"], label: "FR").isEmpty)
        #expect(HighlightsStage.check(list: "cities", ["Paris", "PARIS"], label: "FR").count == 1)
    }

    @Test func emptyListNotNFCAndAllProblemsAtOnce() {
        let decomposed = "Ni\u{0301}mes"   // i + combining acute, not the precomposed í
        #expect(decomposed.unicodeScalars.count == 6)
        let p = problems("{\"FR\": {\"cities\": [\"\(decomposed)\", \"\"], \"attractions\": []}," + good + "}")
        #expect(p.contains { $0.contains("FR (France)") && $0.contains("NFC") })
        #expect(p.contains { $0.contains("FR (France)") && $0.contains("empty entry") })
        #expect(p.contains { $0 == "FR (France): attractions has 0 entries; 1 to 5 are allowed" })
    }

    @Test func nameKeysFold() {
        #expect(!HighlightsStage.keys("Québec City").isDisjoint(with: HighlightsStage.keys("Quebec")))
        #expect(!HighlightsStage.keys("Xi'an").isDisjoint(with: HighlightsStage.keys("Xian")))
        #expect(!HighlightsStage.keys("St. John's").isDisjoint(with: HighlightsStage.keys("Saint John's")))
        #expect(HighlightsStage.keys("Paris").isDisjoint(with: HighlightsStage.keys("Parish")))
    }

    /// Real populated places: Geneva located in Switzerland; Milan listed under Switzerland is
    /// inside Italy, an error; an unknown town is reported as not located.
    @Test func citiesAgainstRealPlaces() throws {
        let places = try Places(path: Repo.neDir + "/ne_10m_populated_places.geojson")
        func square(_ id: String, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Feature {
            let ring: Ring = [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1), Point(x0, y0)]
            var p = JSONObject(); p["name"] = .string(id)
            return Feature(id: id, properties: p, geometry: .polygon(Polygon(rings: [ring])))
        }
        // Rough boxes: Switzerland 5.9–10.5 E, 46.1–47.8 N; Italy south of 46.1 N.
        let world = [square("CH", 5.9, 46.1, 10.5, 47.8), square("IT", 6.6, 36.6, 18.5, 46.1)]
        let entries = [HighlightsStage.Entry(id: "CH", cities: ["Geneva", "Milan", "Nowhere-on-Earth"], attractions: ["x"]),
                       HighlightsStage.Entry(id: "IT", cities: ["Rome"], attractions: ["y"])]
        let r = try HighlightsStage.checkCities(entries, world: world, places: places, aliases: [:], options: .init())
        let by = Dictionary(uniqueKeysWithValues: r.map { ($0.city, $0.status) })
        #expect(by["Geneva"] == .inside)
        #expect(by["Rome"] == .inside)
        #expect(by["Nowhere-on-Earth"] == .notLocated)
        // Milan is an Italian place in NE, 48 km from the CH box: not taken for Switzerland.
        #expect(by["Milan"] == .notLocated)
        // Lugano (CH in NE, at 46.0 N) falls in IT's box, 11 km from CH's: within the 25 km
        // tolerance it is a simplified border; with a 5 km tolerance it is an error.
        let lugano = [HighlightsStage.Entry(id: "CH", cities: ["Lugano"], attractions: ["x"])]
        let near = try HighlightsStage.checkCities(lugano, world: world, places: places, aliases: [:], options: .init())
        guard case .nearBorder(let km) = near[0].status else { Issue.record("Lugano: \(near[0].status)"); return }
        #expect(km > 5 && km < 25 && near[0].alsoIn == "IT")
        var strict = HighlightsStage.CityOptions(); strict.coastalToleranceKm = 5
        #expect(try HighlightsStage.checkCities(lugano, world: world, places: places, aliases: [:], options: strict)[0].status == .inOtherCountry("IT"))
        let milanAlias = try HighlightsStage.checkCities([HighlightsStage.Entry(id: "CH", cities: ["Lucerne"], attractions: ["x"])],
                                                   world: world, places: places, aliases: ["CH\tLucerne": ["Luzern"]], options: .init())
        #expect(milanAlias[0].status == .inside && milanAlias[0].foundBy == "code+alias")
    }
}

/// The byte-level fast path of the city keys gives exactly Foundation's folding, on every name
/// of the Natural Earth populated places (and on the punctuation it rewrites).
@Suite struct HighlightsKeysTests {
    @Test func asciiKeysEqualFoundationFolding() throws {
        let places = try Places(path: "data/natural-earth/ne_10m_populated_places.geojson")
        var names = ["St. John's", "Xi'an", "Al-Aqabah (Aqaba)", "Mazar-e Sharif", "  A  ", "'", "`x`", "NEW YORK CITY", "la Paz", "St",
                     "City", "Saint", "saint city", "Al City", "El", "le-Mans city", "'s-Hertogenbosch", "Mc'Donald's City", "(", "--", "St.", "x'", "A`b'c d"]
        for p in places.all { names.append(p.name); if let a = p.asciiName { names.append(a) }; names += p.alternateNames }
        var ascii = 0, foldedToASCII = 0
        for n in names + ["São Tomé", "Xi’an", "Québec City", "Ａｌ Ａｉｎ"] {
            let folded = n.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            let foundation = HighlightsStage.foundationKeys(folded: folded)
            if let fast = HighlightsStage.asciiKeys(n) {
                ascii += 1
                #expect(fast == foundation, "\(n)")
            } else if HighlightsStage.asciiKeys(folded) != nil {
                foldedToASCII += 1
            }
            #expect(HighlightsStage.keys(n) == foundation, "\(n)")
        }
        #expect(ascii > 10_000 && foldedToASCII > 500)
        #expect(HighlightsStage.asciiKeys("Québec") == nil)
        #expect(HighlightsStage.keys("Québec City") == ["quebec city", "quebec"])
    }
}

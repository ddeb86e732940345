// Locating highlight cities in the Natural Earth populated places and checking them against
// the country polygons of world.geojson.

import Foundation
import GeoModel
import GeoGEOS
import Parallelism
import PopulatedPlaces

extension HighlightsStage {
    public struct CityOptions: Sendable {
        /// A located city outside its (simplified) polygon still passes within this distance.
        public var coastalToleranceKm: Double = 25
        /// A city of a point country passes within this distance of the country's point.
        public var pointRadiusKm: Double = 150
        public init() {}
    }

    public enum CityStatus: Sendable, Equatable {
        case inside
        case nearBorder(km: Double)       // outside the simplified polygon, within tolerance
        case nearPoint(km: Double)        // point country, within the radius
        case outside(km: Double)          // farther than the tolerance, in no other country
        case inOtherCountry(String)       // inside another country's polygon, beyond the tolerance: an error
        case notLocated
    }

    public struct CityResult: Sendable {
        public var id: String
        public var city: String
        public var place: Places.Place?
        /// How the place was found: "code" (its ISO code), "position" (the name anywhere,
        /// lying in this country), "alias" added when the name came from the alias table.
        public var foundBy: String
        public var status: CityStatus
        /// The other country whose polygon holds the city, if any.
        public var alsoIn: String? = nil
    }

    /// Names to try for a city, folded so that "Québec City" meets "Quebec", "Mazar-e Sharif"
    /// meets "Mazar e sharif", "Al Aqabah"… (only for comparison; nothing is rewritten).
    static func keys(_ name: String) -> Set<String> { asciiKeys(name) ?? foldedKeys(name) }

    /// `keys` through Foundation's folding, for any name. A name that folds to ASCII ("São Tomé"
    /// → "sao tome") has its keys cut on bytes (`asciiKeys` of the folded text: the same
    /// rewriting, without Foundation's eight replacements, two thirds of the cost).
    static func foldedKeys(_ name: String) -> Set<String> {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return asciiKeys(folded) ?? foundationKeys(folded: folded)
    }

    /// The keys of a folded name through Foundation's string replacements: right for every
    /// name, slow.
    static func foundationKeys(folded: String) -> Set<String> {
        var out: Set<String> = []
        // Apostrophes both dropped and spaced: "Xi'an" meets "Xian", "N'Djamena" "Ndjamena".
        for apostrophe in ["", " "] {
            var s = folded
            for ch in ["'", "’", "`"] { s = s.replacingOccurrences(of: ch, with: apostrophe) }
            for ch in ["-", ".", ",", "(", ")"] { s = s.replacingOccurrences(of: ch, with: " ") }
            let words = s.split(separator: " ").map(String.init)
            guard !words.isEmpty else { continue }
            out.formUnion(variants(words))
        }
        return out
    }

    /// `keys` for a name that is all ASCII (most Natural Earth names), on bytes: for ASCII,
    /// Foundation's case, diacritic and width folding is exactly lower-casing A–Z, and it costs
    /// a hundred times more (it was most of this stage's time). The words are joined and the
    /// variants cut from the joined bytes, Strings made only for the keys. Nil for any other name.
    static func asciiKeys(_ name: String) -> Set<String>? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        var apostrophe = false
        for b in name.utf8 {
            guard b < 0x80 else { return nil }
            if b == UInt8(ascii: "'") || b == UInt8(ascii: "`") { apostrophe = true }
            bytes.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
        }
        var out: Set<String> = []
        // Apostrophes both dropped and spaced, as in `keys` (the same words when there is none).
        for spaced in apostrophe ? [false, true] : [false] {
            // The words (split at the separators, empty ones dropped) joined by single spaces.
            var joined: [UInt8] = []
            joined.reserveCapacity(bytes.count)
            var wordCount = 0, firstEnd = 0, lastStart = 0
            var inWord = false
            for b in bytes {
                let separator: Bool
                switch b {
                case UInt8(ascii: "'"), UInt8(ascii: "`"): if !spaced { continue }; separator = true
                case 0x20, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "("), UInt8(ascii: ")"): separator = true
                default: separator = false
                }
                if separator {
                    if inWord { inWord = false; if wordCount == 1 { firstEnd = joined.count } }
                    continue
                }
                if !inWord {
                    if wordCount > 0 { joined.append(0x20) }
                    wordCount += 1
                    lastStart = joined.count
                    inWord = true
                }
                joined.append(b)
            }
            guard wordCount > 0 else { continue }
            if wordCount == 1 { firstEnd = joined.count }
            variants(joined, words: wordCount, firstEnd: firstEnd, lastStart: lastStart, into: &out)
        }
        return out
    }

    /// `variants` of the words joined by single spaces in `j` (`firstEnd`: where the first
    /// word ends, `lastStart`: where the last begins).
    static func variants(_ j: [UInt8], words: Int, firstEnd: Int, lastStart: Int, into out: inout Set<String>) {
        func text(_ parts: [ArraySlice<UInt8>]) -> String { String(decoding: parts.joined(), as: UTF8.self) }
        out.insert(String(decoding: j, as: UTF8.self))
        let first = j[0..<firstEnd], rest = j[firstEnd...]  // rest: "" or " word …"
        if words > 1 && j[lastStart...].elementsEqual("city".utf8) { out.insert(String(decoding: j[0..<(lastStart - 1)], as: UTF8.self)) }
        if words > 1 && articles.contains(where: { first.elementsEqual($0.utf8) }) { out.insert(String(decoding: j[(firstEnd + 1)...], as: UTF8.self)) }
        if first.elementsEqual("st".utf8) { out.insert(text([ArraySlice("saint".utf8), rest])) }
        if first.elementsEqual("saint".utf8) { out.insert(text([ArraySlice("st".utf8), rest])) }
    }

    static let articles = ["al", "an", "ad", "as", "ar", "el", "la", "le"]

    static func variants(_ words: [String]) -> Set<String> {
        var out: Set<String> = [words.joined(separator: " ")]
        if words.count > 1 && words.last == "city" { out.insert(words.dropLast().joined(separator: " ")) }
        if words.count > 1 && articles.contains(words[0]) { out.insert(words.dropFirst().joined(separator: " ")) }
        if words.first == "st" { out.insert((["saint"] + words.dropFirst()).joined(separator: " ")) }
        if words.first == "saint" { out.insert((["st"] + words.dropFirst()).joined(separator: " ")) }
        return out
    }

    static func keys(of place: Places.Place) -> Set<String> {
        var out = keys(place.name)
        if let a = place.asciiName { out.formUnion(keys(a)) }
        for alt in place.alternateNames { out.formUnion(keys(alt)) }
        return out
    }

    /// Locates every city of `entries` and checks where it lies. `aliases` maps (id, city) to
    /// the Natural Earth names to look for instead.
    public static func checkCities(_ entries: [Entry], world: [Feature], places: Places,
                                   aliases: [String: [String]], options: CityOptions, worldFile: String = "world.geojson") throws -> [CityResult] {
        // In id order: a city inside two other countries' polygons names the first by id.
        let countries = world.enumerated().compactMap { i, f in f.id.map { (i, $0, f.geometry) } }.sorted { $0.1 < $1.1 }
        let shapes = try CountryIndex(countries.map { ($0.1, $0.2) }, file: worldFile) {
            FeatureRef(index: countries[$0].0, name: world[countries[$0].0].string("name"), id: countries[$0].1)
        }
        // The names of 7,000+ places folded on both cores (pure work, no shared state); the
        // index is then filled in place order, so it is the same whatever the scheduling.
        let placeKeys = try Parallel.map(Array(places.all.indices), makeState: { () }) { i, _ in keys(of: places.all[i]) }
        var keyIndex: [String: [Int]] = [:]
        for (i, ks) in placeKeys.enumerated() {
            for key in ks { keyIndex[key, default: []].append(i) }
        }
        func best(_ indices: [Int]) -> Places.Place? {
            indices.map { places.all[$0] }.max { ($0.population, $1.name) < ($1.population, $0.name) }
        }
        var results: [CityResult] = []
        for e in entries {
            guard let shape = shapes.index(of: e.id) else { continue }
            for city in e.cities {
                let alias = aliases[e.id + "\t" + city]
                let wanted = (alias ?? [city]).reduce(into: Set<String>()) { $0.formUnion(keys($1)) }
                let matches = Set(wanted.flatMap { keyIndex[$0] ?? [] }).sorted()
                var place: Places.Place?
                var foundBy = ""
                if let p = best(matches.filter { places.all[$0].iso == e.id }) {
                    place = p; foundBy = "code"
                } else {
                    // Natural Earth's code can be missing (-99) or another country's: take the
                    // name anywhere if the place lies in (or next to) this country.
                    var near: [Int] = []
                    for i in matches {
                        let p = places.all[i]
                        let g = try shapes.probe(p.position)
                        if try shapes.contains(shape, g) { near.append(i); continue }
                        let tolerance = shapes.isPoint(shape) ? options.pointRadiusKm : options.coastalToleranceKm
                        if try shapes.distanceKm(g, to: shape) <= tolerance { near.append(i) }
                    }
                    if let p = best(near) { place = p; foundBy = "position" }
                }
                if alias != nil && place != nil { foundBy += "+alias" }
                guard let p = place else {
                    results.append(CityResult(id: e.id, city: city, place: nil, foundBy: "", status: .notLocated, alsoIn: nil)); continue
                }
                let g = try shapes.probe(p.position)
                let status: CityStatus
                var other: String?
                if shapes.isPoint(shape) {
                    let km = try shapes.distanceKm(g, to: shape)
                    status = km <= options.pointRadiusKm ? .nearPoint(km: km) : .outside(km: km)
                } else if try shapes.contains(shape, g) {
                    status = .inside
                } else {
                    // Within the tolerance of its own country, a city that falls in a neighbour's
                    // polygon is on a simplified border (Brazzaville on the Congo river); farther
                    // away it is listed under the wrong country.
                    let km = try shapes.distanceKm(g, to: shape)
                    other = try shapes.containing(g, excluding: shape).map { shapes.ids[$0] }
                    if km <= options.coastalToleranceKm { status = .nearBorder(km: km) }
                    else if let other { status = .inOtherCountry(other) }
                    else { status = .outside(km: km) }
                }
                results.append(CityResult(id: e.id, city: city, place: p, foundBy: foundBy, status: status, alsoIn: other))
            }
        }
        return results
    }

    /// Reads the alias table: id, city, the Natural Earth names to look for ("|"-separated),
    /// and a reason.
    public static func readAliases(_ path: String, names: [String: String]) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for (n, row) in try FileIO.readTSV(path).enumerated() {
            guard let id = row["id"], let city = row["city"], let place = row["place"], !id.isEmpty, !city.isEmpty, !place.isEmpty else {
                throw InputError(file: path, "row \(n + 1): needs id, city and place")
            }
            guard names[id] != nil else { throw InputError(file: path, "row \(n + 1): \(id) is not a country of the country set") }
            guard (row["reason"] ?? "").count > 0 else { throw InputError(file: path, "row \(n + 1) (\(id) \(city)): give a reason") }
            guard out[id + "\t" + city] == nil else { throw InputError(file: path, "row \(n + 1): \(id) \(city) appears twice") }
            out[id + "\t" + city] = place.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return out
    }
}

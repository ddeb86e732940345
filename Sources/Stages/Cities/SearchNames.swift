// What the city search ranks by (issue #33), decided here so the seed carries it: which other
// names are no names (codes), which are the names people use (common names), and which GeoNames
// entries are the same place listed twice (the search offers one of them).

import GeoModel
import Geodesy

extension CitiesStage {
    /// An airport code or an all-capital abbreviation ("MUN", "NYC", "HCMC", "NL_GM0796"): an
    /// other name without a single lower-case letter. It would outrank the city people mean
    /// ("mün" found Maturín, airport MUN, before Munich), so it is no name at all.
    public static func isCodeLike(_ name: String) -> Bool {
        // Most names hold an ASCII lower-case letter: decided without Unicode properties.
        if name.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) { return false }
        return !name.unicodeScalars.contains { $0.value >= 0x80 && $0.properties.isLowercase }
    }

    /// Reads common_names.tsv (scripts/data/geonames_common_names.py): GeoNames id → the other
    /// names of that city people use, '|'-separated.
    public static func readCommonNames(_ path: String) throws -> [Int64: [String]] {
        try readNamesByID(path, column: "common_names")
    }

    /// A table of GeoNames id → names ('|'-separated in `column`): every id positive and once,
    /// no name empty.
    static func readNamesByID(_ path: String, column: String) throws -> [Int64: [String]] {
        let table = try TSVTable.read(path, required: ["geonameid", column])
        var out: [Int64: [String]] = [:]
        for row in table.rows {
            let idText = table[row, "geonameid"]
            guard let id = Int64(idText), id > 0 else {
                throw InputError(file: path, "line \(row.line): the GeoNames id \(idText.debugDescription) is not a positive integer")
            }
            guard out[id] == nil else { throw InputError(file: path, "line \(row.line): the GeoNames id \(id) appears twice") }
            let names = table[row, column].split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard !names.isEmpty, names.allSatisfy({ !$0.allSatisfy(\.isWhitespace) }) else {
                throw InputError(file: path, "line \(row.line) (id \(id)): an empty name")
            }
            out[id] = names
        }
        return out
    }

    /// A city as the duplicate rule sees it.
    public struct PlaceKey: Sendable, Equatable {
        public var id: Int64
        /// Same name (plain, any case), same country, same first-level division.
        public var group: String
        public var point: Point
        public var population: Int64
        public init(id: Int64, group: String, point: Point, population: Int64) {
            self.id = id; self.group = group; self.point = point; self.population = population
        }
    }

    /// GeoNames lists some places twice (the city and its municipality, an old and a new
    /// entry): the same name in the same division within `withinKm`. Each such entry maps to
    /// the one the search offers instead: the most populous of its group (then the lowest id)
    /// that lies within `withinKm`. Twin towns across a border or a state line (Niagara Falls,
    /// Kansas City) are different divisions, so different places.
    public static func sameAs(_ places: [PlaceKey], withinKm: Double) -> [Int64: Int64] {
        var groups: [String: [PlaceKey]] = [:]
        for p in places { groups[p.group, default: []].append(p) }
        var out: [Int64: Int64] = [:]
        for members in groups.values where members.count > 1 {
            var kept: [PlaceKey] = []
            for p in members.sorted(by: { ($0.population, -$0.id) > ($1.population, -$1.id) }) {
                if let k = kept.first(where: { Sphere.distanceKm($0.point, p.point) <= withinKm }) {
                    out[p.id] = k.id
                } else {
                    kept.append(p)
                }
            }
        }
        return out
    }
}

// Issue #40: names in every script, abbreviations people use, the short forms of Mount and
// Saint, and what may follow a city in a query (the qualifiers).
extension CitiesStage {
    /// Reads script_names.tsv (scripts/data/geonames_cities.py): GeoNames id → the city's names
    /// in other scripts, '|'-separated.
    public static func readScriptNames(_ path: String) throws -> [Int64: [String]] {
        try readNamesByID(path, column: "script_names")
    }

    /// Reads region_codes.tsv (scripts/data/region_codes.py): "CC\tadmin1 code" → the ISO 3166-2
    /// code after the hyphen and the ISO name.
    public static func readRegionCodes(_ path: String) throws -> [String: (code: String, name: String)] {
        let table = try TSVTable.read(path, required: ["country_code", "admin1_code", "iso_code", "iso_name"])
        var out: [String: (code: String, name: String)] = [:]
        for row in table.rows {
            let key = table[row, "country_code"] + "\t" + table[row, "admin1_code"]
            let code = table[row, "iso_code"]
            guard !code.isEmpty, out[key] == nil else { throw InputError(file: path, "line \(row.line): no code, or the division appears twice") }
            out[key] = (code, table[row, "iso_name"])
        }
        return out
    }

    /// An abbreviation people use, not a code: a code-like other name (no lower-case letter)
    /// whose letters (2 to 5; dots and spaces dropped) are the initials of two or more
    /// consecutive capitalised words of one of `names` (the city's own name and its common
    /// names): NYC of "New York City", L.A. of "Los Angeles", DC of "Washington D. C.". An
    /// airport code (LAX, SFO, MUN) is the initials of no such words.
    public static func isAbbreviation(_ code: String, of names: [String]) -> Bool {
        let letters = code.unicodeScalars.filter { $0 != "." && $0 != " " }
        guard (2...5).contains(letters.count), letters.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A }) else { return false }
        let target = String(String.UnicodeScalarView(letters))
        for name in names {
            let initials = name.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "." })
                .compactMap(\.first).filter(\.isUppercase).map(String.init)
            guard initials.count >= letters.count else { continue }
            for start in 0...(initials.count - letters.count) where initials[start..<(start + letters.count)].joined() == target {
                return true
            }
        }
        return false
    }

    /// The forms people write for a name with Mount, Saint, Sainte or Fort: "Mt Pleasant",
    /// "St Albans", "Ste Foy", "Ft Worth" (the rule the ingest stage applies to Saint).
    public static func shortForms(_ name: String) -> [String] {
        let words = name.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let short = ["Mount": "Mt", "Saint": "St", "Sainte": "Ste", "Fort": "Ft"]
        guard words.contains(where: { short[$0] != nil }) else { return [] }
        return [words.map { short[$0] ?? $0 }.joined(separator: " ")]
    }

    /// One row of city_qualifiers: a name that may follow a city, the country it names and the
    /// admin part ('' for the whole country).
    public struct QualifierRow: Sendable, Hashable {
        public var name: String
        public var countryID: Int64
        public var admin: String
    }

    /// The qualifiers: each app country by its code, name and aliases (world.geojson); each
    /// first-level division by its name and ISO 3166-2 code and name; each territory of
    /// territories.tsv by its code and name. Sorted, without repeats.
    static func qualifierRows(_ inputs: Inputs, countryRows: [CountryRow]) -> [QualifierRow] {
        var rows = Set<QualifierRow>()
        var idOf: [String: Int64] = [:]
        for (c, r) in zip(inputs.locator.countries, countryRows) {
            idOf[c.code] = r.id
            for name in [c.code, c.name] + c.aliases where !name.isEmpty { rows.insert(QualifierRow(name: name, countryID: r.id, admin: "")) }
        }
        for (key, admin) in inputs.admin1 {
            let cc = String(key.prefix(2))
            guard let id = idOf[cc] else { continue }
            rows.insert(QualifierRow(name: admin, countryID: id, admin: admin))
            if let iso = inputs.regionCodes[key] {
                rows.insert(QualifierRow(name: iso.code, countryID: id, admin: admin))
                rows.insert(QualifierRow(name: iso.name, countryID: id, admin: admin))
            }
        }
        for (code, t) in inputs.territories {
            guard let id = idOf[t.sovereign] else { continue }
            rows.insert(QualifierRow(name: code, countryID: id, admin: t.name))
            rows.insert(QualifierRow(name: t.name, countryID: id, admin: t.name))
        }
        return rows.sorted { ($0.countryID, $0.admin, $0.name) < ($1.countryID, $1.admin, $1.name) }
    }
}

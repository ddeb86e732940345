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
        let table = try TSVTable.read(path, required: ["geonameid", "common_names"])
        var out: [Int64: [String]] = [:]
        for row in table.rows {
            let idText = table[row, "geonameid"]
            guard let id = Int64(idText), id > 0 else {
                throw InputError(file: path, "line \(row.line): the GeoNames id \(idText.debugDescription) is not a positive integer")
            }
            guard out[id] == nil else { throw InputError(file: path, "line \(row.line): the GeoNames id \(id) appears twice") }
            let names = table[row, "common_names"].split(separator: "|", omittingEmptySubsequences: false).map(String.init)
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

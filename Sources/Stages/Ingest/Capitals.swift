import Foundation
import GeoModel
import Geodesy
import PopulatedPlaces

// Each country's capital: the capitals table, Natural Earth's populated places and GeoNames,
// compared; and the check that no quiz answer (name or capital) of one country is another's.
extension IngestStage {
    struct Capital {
        var name: String
        var position: Point
        /// The Natural Earth place that locates it, where NE writes it differently (Kiev for Kyiv).
        var placeName: String? = nil
    }

    static func resolveCapital(id: String, table: [String: [String: String]], places: Places, tablePath: String, strict: Bool,
                               geonames: [String: String]? = nil) throws -> Capital? {
        if let row = table[id] {
            let name = row["capital"]!
            if name == "-" { return nil }
            let place = (row["place"] ?? "").isEmpty ? name : row["place"]!
            let placeName = place == name ? nil : place
            if let lat = Double(row["lat"] ?? ""), let lon = Double(row["lon"] ?? "") {
                guard abs(lat) <= 90, abs(lon) <= 180 else { throw InputError(file: tablePath, "row \(id): position \(lat), \(lon) is out of range") }
                return Capital(name: name, position: Point(lon, lat), placeName: placeName)
            }
            let inCountry = places.byISO[id, default: []].filter { $0.name == place }
            if inCountry.count == 1 { return Capital(name: name, position: inCountry[0].position, placeName: placeName) }
            let anywhere = places.all.filter { $0.name == place }
            if inCountry.isEmpty && anywhere.count == 1 { return Capital(name: name, position: anywhere[0].position, placeName: placeName) }
            // GeoNames locates the capital when it names the same one.
            if inCountry.isEmpty && anywhere.isEmpty, let g = geonames, Answers.key(g["capital"] ?? "") == Answers.key(name),
               let lat = Double(g["capitalLat"] ?? ""), let lon = Double(g["capitalLon"] ?? "") {
                return Capital(name: name, position: Point(lon, lat))
            }
            throw InputError(file: tablePath, "row \(id): \(inCountry.count + anywhere.count == 0 ? "no populated place is named" : "several populated places are named") \"\(place)\"; give lat and lon")
        }
        let inCountry = places.byISO[id, default: []]
        for cls in ["Admin-0 capital", "Admin-0 region capital"] {
            let found = inCountry.filter { $0.featureClass == cls }
            if found.count == 1 { return Capital(name: found[0].name, position: found[0].position) }
            if found.count > 1 {
                if !strict { return Capital(name: found[0].name, position: found[0].position) }
                throw InputError(file: places.path, "\(id) has \(found.count) places of class \"\(cls)\" (\(found.map(\.name).joined(separator: ", "))); choose one in \(tablePath)")
            }
        }
        if strict { throw InputError(file: places.path, "no capital found for \(id); add a row to \(tablePath)") }
        return nil
    }

    /// Natural Earth's own candidates without the table: its Admin-0 capitals, else its Admin-0
    /// region capitals (one name is a pick; none or several are not).
    static func naturalEarthCapitals(id: String, places: Places) -> [String] {
        let inCountry = places.byISO[id, default: []]
        for cls in ["Admin-0 capital", "Admin-0 region capital"] {
            let found = inCountry.filter { $0.featureClass == cls }
            if !found.isEmpty { return found.map(\.name) }
        }
        return []
    }

    /// Compares the two sources for one country: a row of capitals.tsv resolves a disagreement;
    /// without one the disagreement goes to the report for a person to decide.
    static func compareCapitals(id: String, name: String, table: [String: [String: String]], places: Places,
                                geonames: [String: String]?, hasGeonames: Bool, report: inout Report, tablePath: String) {
        guard hasGeonames else { return }
        let ne = naturalEarthCapitals(id: id, places: places)
        let gn = (geonames?["capital"]).flatMap { $0.isEmpty ? nil : $0 }
        if ne.count == 1, let b = gn, Answers.key(ne[0]) == Answers.key(b) { return }
        if ne.isEmpty && gn == nil { return }
        let neText = ne.isEmpty ? "has none" : ne.count == 1 ? "\"\(ne[0])\"" : "has several (\(ne.joined(separator: ", ")))"
        let text = "\(id) (\(name)): Natural Earth \(neText), GeoNames \(gn.map { "\"\($0)\"" } ?? (geonames == nil ? "has no such country" : "has none"))"
        if let row = table[id] {
            report.capitalsResolved.append("\(text) → \(tablePath): \"\(row["capital"]!)\"")
        } else {
            report.capitalDisagreements.append("\(text); no row in \(tablePath) decides")
        }
    }

    /// No answer of one country may equal (by `Answers.key`) an answer of another.
    static func checkUnique(_ answers: [(id: String, answers: [String])], what: String, tables: String, strict: Bool, report: inout Report) throws {
        var owner: [String: (id: String, text: String)] = [:]
        for (id, list) in answers {
            for a in list {
                let k = Answers.key(a)
                if let o = owner[k], o.id != id {
                    let msg = "\(what) answer \"\(a)\" of \(id) equals \"\(o.text)\" of \(o.id) (ignoring case, diacritics, hyphens, dots and Saint/St.); a guess could not tell them apart: fix \(tables)"
                    if strict { throw StageError(msg) }
                    report.warnings.append(msg)
                } else if owner[k] == nil {
                    owner[k] = (id, a)
                }
            }
        }
    }
}

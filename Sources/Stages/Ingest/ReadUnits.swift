import Foundation
import GeoModel

// Reading Natural Earth's admin-0 units: each unit classified under the app's id (remaps,
// sovereigns), its continent, and the name aliases its fields and the alias tables give.
extension IngestStage {
    static let appContinents: Set<String> = ["Africa", "Asia", "Europe", "North America", "South America", "Oceania", "Antarctica"]
    static let aliasFields = ["NAME", "NAME_LONG", "ADMIN", "BRK_NAME", "NAME_ALT", "FORMAL_EN", "NAME_EN", "NAME_SORT", "NAME_CIAWF"]

    struct Unit {
        var index: Int
        var feature: Feature
        var suA3: String
        var sovA3: String
        var id: String
        var remapped: Bool
        var area: Double  // planar, square degrees: only to pick the largest unit
        var name: String { feature.string("NAME") ?? suA3 }
        var ref: FeatureRef { FeatureRef(index: index, name: feature.string("NAME"), id: suA3) }
    }

    static func classify(_ features: [Feature], file: String, remaps: [String: [String: String]], report: inout Report) throws -> [Unit] {
        var seen: [String: Int] = [:]
        var units: [Unit] = []
        for (i, f) in features.enumerated() {
            let label = FeatureRef(index: i, name: f.string("NAME"))
            guard let su = f.string("SU_A3"), !su.isEmpty else {
                throw InputError(file: file, feature: label, "has no SU_A3 property (is this a Natural Earth admin-0 file?)")
            }
            if let prev = seen[su] {
                throw InputError(file: file, feature: label, "repeats SU_A3 \(su) of feature #\(prev): the same unit twice")
            }
            seen[su] = i
            if case .point = f.geometry {
                throw InputError(file: file, feature: label, "is a Point; admin-0 units are Polygon or MultiPolygon")
            }
            if let jump = CountryFile.antimeridianJump(f.geometry) { throw InputError(file: file, feature: label, jump) }
            var id: String
            var remapped = false
            if let row = remaps[su] {
                id = row["id"]!; remapped = true
                report.remapped.append((su, id))
            } else {
                guard let iso = f.string("ISO_A2_EH") else {
                    throw InputError(file: file, feature: label, "has no ISO_A2_EH string property")
                }
                if iso == "-99" { report.skipped.append("\(su) (\(f.string("NAME") ?? "?")): no ISO code"); continue }
                id = iso
            }
            guard CountryID.isValid(id) else {
                throw InputError(file: file, feature: label, "ISO code \"\(id)\" is not two upper-case letters")
            }
            let area = f.geometry.polygons.reduce(0.0) { $0 + abs(RingMath.signedArea($1.exterior)) }
            units.append(Unit(index: i, feature: f, suA3: su, sovA3: f.string("SOV_A3") ?? "", id: id, remapped: remapped, area: area))
        }
        return units
    }

    static func resolveContinent(id: String, main: Unit, continents: [String: [String: String]], file: String) throws -> String {
        if let c = continents[id]?["continent"] { return c }
        let c = main.feature.string("CONTINENT") ?? ""
        guard appContinents.contains(c) else {
            throw InputError(file: file, feature: main.ref, "CONTINENT \"\(c)\" is not one of the seven app continents; add \(id) to data/continents.tsv")
        }
        return c
    }

    /// An alias table: id → its aliases in file order (several rows per id).
    public static func loadAliases(_ path: String) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for (n, row) in try FileIO.readTSV(path).enumerated() {
            guard let id = row["id"], !id.isEmpty else { throw InputError(file: path, "row \(n + 1) has no id") }
            for col in ["alias", "reason"] where (row[col] ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                throw InputError(file: path, "row \(n + 1) (\(id)) has no \(col)")
            }
            let a = row["alias"]!
            guard a == a.trimmingCharacters(in: .whitespaces) else { throw InputError(file: path, "row \(n + 1) (\(id)): alias \"\(a)\" has leading or trailing white space") }
            if out[id, default: []].contains(where: { $0.lowercased() == a.lowercased() }) {
                throw InputError(file: path, "row \(n + 1) (\(id)): alias \"\(a)\" appears twice")
            }
            out[id, default: []].append(a)
        }
        return out
    }

    static func aliases(name: String, main: Unit, overridden: Bool) -> [String] {
        // A name override means the largest unit is a part (England), so its own names are not the country's.
        let fields = overridden ? ["ADMIN"] : aliasFields
        var seen: Set<String> = [name.lowercased()]
        var out: [String] = []
        for f in fields {
            // ADMIN names the whole admin-0 country; on a map unit of another (French Guiana's is France) it is not an alias.
            if f == "ADMIN" && main.feature.string("ADM0_A3") != main.suA3 && !overridden { continue }
            guard let v = main.feature.string(f)?.trimmingCharacters(in: .whitespaces), !v.isEmpty else { continue }
            if seen.insert(v.lowercased()).inserted { out.append(v) }
        }
        return out
    }
}

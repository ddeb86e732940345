import Foundation
import GeoModel

extension IngestStage {
    /// The curated tables (CSV/TSV under the data folder) and the country set, read and checked.
    struct Tables {
        var remaps, continents, capitals, names, geonames: [String: [String: String]]
        var capitalAliases, nameAliases: [String: [String]]
        var countrySet: [String]?
    }

    /// Reads the tables; a continent that is not one of the app's seven is an error naming its row.
    static func readTables(_ o: Options) throws -> Tables {
        let remaps = try DataTables.loadTable(o.remapsPath, key: "su_a3", required: ["id", "reason"])
        let continents = try DataTables.loadTable(o.continentsPath, key: "id", required: ["continent", "reason"])
        let capitals = try DataTables.loadTable(o.capitalsPath, key: "id", required: ["capital", "reason"])
        let names = try DataTables.loadTable(o.namesPath, key: "id", required: ["name", "reason"])
        let geonames = try o.geonamesPath.map { try DataTables.loadTable($0, key: "iso", required: ["name"]) } ?? [:]
        let capitalAliases = try o.capitalAliasesPath.map { try loadAliases($0) } ?? [:]
        let nameAliases = try o.nameAliasesPath.map { try loadAliases($0) } ?? [:]
        for id in continents.keys.sorted() where !appContinents.contains(continents[id]!["continent"]!) {
            let row = continents[id]!
            throw InputError(file: o.continentsPath, "row \(id): \"\(row["continent"]!)\" is not one of the seven app continents")
        }
        var countrySet: [String]?
        if !o.allUnits, let path = o.countrySetPath { countrySet = try DataTables.loadCountrySet(path) }
        return Tables(remaps: remaps, continents: continents, capitals: capitals, names: names, geonames: geonames,
                      capitalAliases: capitalAliases, nameAliases: nameAliases, countrySet: countrySet)
    }
}

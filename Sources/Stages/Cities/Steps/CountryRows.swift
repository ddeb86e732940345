import Foundation
import GeoModel
import CitiesSchema

extension CitiesStage {
    /// Countries: the app's set, with GeoNames' id (the table's id) and population; two
    /// countries sharing an id are an error.
    static func countryRows(_ o: Options, table: [String: SourceCountry], locator: CountryLocator) throws -> [CountryRow] {
        var countryRows: [CountryRow] = []
        for c in locator.countries {
            guard let t = table[c.code] else {
                throw InputError(file: o.countryTable, "has no row for \(c.code) (\(c.name)), a country of \(o.world)")
            }
            countryRows.append(CountryRow(id: t.geonameID, name: c.name, code: c.code, capital: c.capital, continent: c.continent, population: t.population))
        }
        var seenIDs: [Int64: String] = [:]
        for r in countryRows {
            if let other = seenIDs[r.id] { throw InputError(file: o.countryTable, "\(r.code) and \(other) share the GeoNames id \(r.id)") }
            seenIDs[r.id] = r.code
        }
        return countryRows
    }
}

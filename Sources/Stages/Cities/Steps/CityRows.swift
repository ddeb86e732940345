import Foundation
import GeoModel
import CitiesSchema

extension CitiesStage {
    /// The rows of the cities placed in a country, and a report line per city whose country the
    /// polygons and GeoNames disagree on; counts go to `report`.
    static func cityRows(_ source: [SourceCity], _ placements: [Placement], _ locator: CountryLocator, countryRows: [CountryRow],
                         admin1: [String: String], report: inout Report) -> (cities: [CityRow], reportLines: [String]) {
        var cityRows: [CityRow] = []
        cityRows.reserveCapacity(source.count)
        var reportLines: [String] = []
        for (city, placement) in zip(source, placements) {
            report.byResolution[placement.resolution, default: 0] += 1
            if placement.resolution != .agree {
                let app = placement.country.map { locator.countries[$0].code } ?? ""
                reportLines.append([placement.resolution.rawValue, String(city.id), tsvField(city.name), city.countryCode, placement.polygon ?? "",
                                    app, placement.km.map { String(format: "%.1f", $0) } ?? ""].joined(separator: "\t"))
            }
            guard let ci = placement.country else { continue }
            let country = locator.countries[ci]
            let admin = placement.admin ?? admin1[city.countryCode + "\t" + city.admin1Code]
            if admin == nil { report.withoutAdmin += 1 }
            report.byContinent[country.continent, default: 0] += 1
            cityRows.append(CityRow(id: city.id, displayName: displayName(city: city.name, admin: admin, country: country.name),
                                    plainName: plainName(city.name), admin: admin, country: country.name,
                                    countryID: countryRows[ci].id, population: city.population,
                                    latitude: city.latitude, longitude: city.longitude, altNames: city.alternateNames))
        }
        return (cityRows, reportLines)
    }
}

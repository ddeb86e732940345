import Foundation
import GeoModel
import CitiesSchema

extension CitiesStage {
    /// The rows of the cities placed in a country (code-like other names dropped, common names
    /// added, the same place listed twice marked), a report line per city whose country the
    /// polygons and GeoNames disagree on, and the duplicates (id → the id offered); counts go to `report`.
    static func cityRows(_ o: Options, _ inputs: Inputs, _ placements: [Placement], countryRows: [CountryRow],
                         report: inout Report) -> (cities: [CityRow], reportLines: [String], duplicates: [Int64: Int64]) {
        let (source, locator, admin1, common) = (inputs.source, inputs.locator, inputs.admin1, inputs.common)
        var cityRows: [CityRow] = []
        cityRows.reserveCapacity(source.count)
        var reportLines: [String] = []
        var placeKeys: [PlaceKey] = []
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
            var altNames = city.alternateNames.filter { !isCodeLike($0) }
            let commonNames = (common[city.id] ?? []).filter { !isCodeLike($0) }
            let abbreviations = city.alternateNames.filter { isCodeLike($0) && isAbbreviation($0, of: [city.name] + commonNames) }
            report.codeNamesDropped += city.alternateNames.count - altNames.count - abbreviations.count
            report.abbreviations += abbreviations.count
            var known = Set(([city.name] + altNames).map { $0.lowercased() })
            for form in ([city.name] + commonNames).flatMap(shortForms) where known.insert(form.lowercased()).inserted { altNames.append(form) }
            let scriptNames = inputs.script[city.id] ?? []
            report.scriptNames += scriptNames.count
            if !commonNames.isEmpty { report.withCommonNames += 1 }
            cityRows.append(CityRow(id: city.id, displayName: displayName(city: city.name, admin: admin, country: country.name),
                                    plainName: plainName(city.name), admin: admin, country: country.name,
                                    countryID: countryRows[ci].id, population: city.population,
                                    latitude: city.latitude, longitude: city.longitude, altNames: altNames, commonNames: commonNames,
                                    scriptNames: scriptNames, abbreviations: abbreviations))
            placeKeys.append(PlaceKey(id: city.id, group: [cityRows[cityRows.count - 1].plainName.lowercased(), String(countryRows[ci].id), city.admin1Code].joined(separator: "\t"),
                                      point: city.point, population: city.population))
        }
        let duplicates = sameAs(placeKeys, withinKm: o.duplicateKm)
        for i in cityRows.indices { cityRows[i].sameAs = duplicates[cityRows[i].id] }
        report.duplicates = duplicates.count
        return (cityRows, reportLines, duplicates)
    }
}

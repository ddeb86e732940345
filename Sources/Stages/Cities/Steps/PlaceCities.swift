import Foundation
import GeoModel

extension CitiesStage {
    /// Each city placed in the app country whose polygon holds it (CountryLocator), within the tolerances.
    static func placeCities(_ o: Options, _ source: [SourceCity], _ locator: CountryLocator, territories: [String: Territory],
                            log: StageLog) throws -> [Placement] {
        let tolerances = Tolerances(borderKm: o.borderToleranceKm, coastalKm: o.coastalToleranceKm, pointRadiusKm: o.pointRadiusKm)
        return try log.step("place \(formatCount(source.count)) cities") {
            try source.map { city in
                try forFeature(file: o.cities, FeatureRef(index: nil, name: city.name, id: String(city.id))) {
                    try locator.place(city, tolerances, territories: territories)
                }
            }
        }
    }
}

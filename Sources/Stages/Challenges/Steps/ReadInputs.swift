import DailyChallenges
import GeoModel

extension ChallengesStage {
    /// The countries of world.geojson, and the live table's days (with `existing`).
    static func readInputs(_ o: Options, log: StageLog) throws -> (countries: [ChallengeCountry], existing: [ExistingDay]) {
        let features = try log.step("read \(o.input)") { try GeoJSON.read(path: o.input) }
        let countries = try DailyChallenges.countries(from: features, file: o.input, exactNear: [o.minSilhouetteAreaKm2, o.smallAreaKm2])
        var existing: [ExistingDay] = []
        if let path = o.existing {
            existing = try log.step("read \(path)") { try DailyChallenges.readExisting(path: path, countries: Set(countries.map(\.id))) }
        }
        return (countries, existing)
    }
}

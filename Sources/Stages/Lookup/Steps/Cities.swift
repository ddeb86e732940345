import GeoLookup
import GeoModel
import PopulatedPlaces

extension LookupStage {
    /// The populated places as the builder takes them: a city keeps its country code only when
    /// that country is in the index.
    static func lookupCities(_ places: Places, seen: [String: Int]) -> [LookupIndexBuilder.City] {
        places.all.map {
            LookupIndexBuilder.City(name: $0.name, countryCode: seen[$0.iso] != nil ? $0.iso : nil,
                                    coordinate: Coordinate(latitude: $0.position.y, longitude: $0.position.x), population: Int($0.population))
        }
    }
}

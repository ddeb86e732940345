import Dispatch
import Foundation
import GeoLookup
import GeoModel

extension LookupStage {
    /// Reads back what the apps will read before publishing it: the countries and cities must
    /// all be there. Returns the load time in milliseconds.
    static func readBack(_ bytes: [UInt8], countries: Int, cities: Int) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let index = try GeoLookup(data: Data(bytes))
        let loadMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        guard index.countryCodes.count == countries, index.cities.count == cities else {
            throw StageError("the index read back has \(index.countryCodes.count) countries and \(index.cities.count) cities, expected \(countries) and \(cities)")
        }
        return loadMilliseconds
    }
}

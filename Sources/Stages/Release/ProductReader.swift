import Foundation
import GeoModel
import GeoLookup

/// The products both a release and its inspection page read — the app's countries, the cities
/// seed, the lookup index — each read on first use and once only: a release hands its own
/// reader to the page it writes, so no file is read twice in one run.
final class ProductReader {
    let worldPath: String
    let citiesSeedPath: String
    let lookupPath: String
    private var countriesRead: [Feature]?
    private var citiesSeedRead: ReleaseSnapshot.CitiesSeed?
    private var lookupRead: GeoLookup?

    init(world: String, citiesSeed: String, lookup: String) {
        worldPath = world; citiesSeedPath = citiesSeed; lookupPath = lookup
    }

    /// The products of a release (or any folder with dist/'s layout).
    convenience init(root: String) {
        self.init(world: root + "/" + ReleaseSnapshot.worldPath, citiesSeed: root + "/" + ReleaseSnapshot.citiesSeedPath,
                  lookup: root + "/" + ReleaseSnapshot.lookupPath)
    }

    func countries() throws -> [Feature] {
        if let countriesRead { return countriesRead }
        let read = try CountryFile.read(path: worldPath)
        countriesRead = read
        return read
    }

    func citiesSeed() throws -> ReleaseSnapshot.CitiesSeed {
        if let citiesSeedRead { return citiesSeedRead }
        let read = try ReleaseSnapshot.readCitiesSeed(citiesSeedPath)
        citiesSeedRead = read
        return read
    }

    func lookup() throws -> GeoLookup {
        if let lookupRead { return lookupRead }
        let read: GeoLookup
        do { read = try GeoLookup(contentsOf: URL(fileURLWithPath: lookupPath)) } catch {
            throw InputError(file: lookupPath, "cannot be read as a lookup index: \(error)")
        }
        lookupRead = read
        return read
    }
}

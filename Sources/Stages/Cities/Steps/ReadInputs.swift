import Foundation
import GeoModel

extension CitiesStage {
    /// What the stage reads: the cities, admin-1 names, GeoNames' country table, the app's
    /// countries (located) and the territories table.
    struct Inputs {
        var source: [SourceCity]
        var admin1: [String: String]
        var table: [String: SourceCountry]
        /// The other names people use, per GeoNames id (empty without --common-names).
        var common: [Int64: [String]]
        /// The names in other scripts, per GeoNames id (empty without --script-names).
        var script: [Int64: [String]] = [:]
        /// "CC\tadmin1 code" → ISO 3166-2 code and name (empty without --region-codes).
        var regionCodes: [String: (code: String, name: String)] = [:]
        var locator: CountryLocator
        var territories: [String: Territory]
    }

    static func readInputs(_ o: Options, log: StageLog) throws -> Inputs {
        let source = try log.step("read \(o.cities)") { try readCities(o.cities) }
        let admin1 = try readAdmin1(o.admin1)
        let table = try readCountries(o.countryTable)
        let common = o.commonNames.isEmpty ? [:] : try readCommonNames(o.commonNames)
        let world = try log.step("read \(o.world)") { try CountryFile.read(path: o.world) }
        let locator = try log.step("prepare \(world.count) countries") { try CountryLocator(world: world, file: o.world) }
        var territories: [String: Territory] = [:]
        if !o.territories.isEmpty {
            let t = try readTerritories(o.territories, appCountries: Set(locator.index.keys))
            territories = t.territories
            if !t.unused.isEmpty { log.info("\(o.territories): \(t.unused.count) rows do not apply to this country set (\(t.unused.joined(separator: " ")))") }
        }
        var inputs = Inputs(source: source, admin1: admin1, table: table, common: common, locator: locator, territories: territories)
        if !o.scriptNames.isEmpty { inputs.script = try readScriptNames(o.scriptNames) }
        if !o.regionCodes.isEmpty { inputs.regionCodes = try readRegionCodes(o.regionCodes) }
        return inputs
    }
}

// Reading the GeoNames tables in data/geonames/ (written by scripts/data/geonames_cities.py).
// Every row is checked; an error names the file, the line, the city and the problem.

import Foundation
import GeoModel
import Geodesy

extension CitiesStage {
    /// One GeoNames city (cities15000.tsv).
    public struct SourceCity: Sendable, Equatable {
        public var id: Int64
        public var name: String
        public var latitude: Double
        public var longitude: Double
        public var countryCode: String
        public var admin1Code: String
        public var population: Int64
        public var alternateNames: [String]
        public init(id: Int64, name: String, latitude: Double, longitude: Double, countryCode: String,
                    admin1Code: String, population: Int64, alternateNames: [String] = []) {
            self.id = id; self.name = name; self.latitude = latitude; self.longitude = longitude
            self.countryCode = countryCode; self.admin1Code = admin1Code; self.population = population
            self.alternateNames = alternateNames
        }
        public var point: Point { Point(longitude, latitude) }
    }

    /// One country of GeoNames' country table (country_population.tsv).
    public struct SourceCountry: Sendable, Equatable {
        public var code: String
        public var geonameID: Int64
        public var population: Int64
    }

    static let sourceColumns = ["geonameid", "name", "latitude", "longitude", "country_code", "admin1_code", "population", "timezone", "alternate_names"]

    /// Reads cities15000.tsv: ids unique and positive, positions on the Earth, a name, a
    /// two-letter country code, a population ≥ 0.
    public static func readCities(_ path: String) throws -> [SourceCity] {
        let table = try TSVTable.read(path, required: sourceColumns)
        var out: [SourceCity] = []
        out.reserveCapacity(table.rows.count)
        var firstLine: [Int64: Int] = [:]
        firstLine.reserveCapacity(table.rows.count)
        for row in table.rows {
            let line = row.line
            func col(_ name: String) -> String { table[row, name] }
            let idText = col("geonameid"), name = col("name")
            func fail(_ problem: String) -> InputError {
                var w = JSONWriter(); w.string(name)
                return InputError(file: path, "line \(line) (id \(idText) \(w.string)): \(problem)")
            }
            guard let id = Int64(idText), id > 0 else { throw fail("the id \(idText.debugDescription) is not a positive integer") }
            if let first = firstLine[id] { throw fail("repeats the id \(id) of line \(first)") }
            firstLine[id] = line
            // (The same test as `trimmingCharacters(in: .whitespaces).isEmpty`, without the
            // NSString bridge that cost some 10,000 instructions a city.)
            guard !name.unicodeScalars.allSatisfy({ CharacterSet.whitespaces.contains($0) }) else { throw fail("has no name") }
            guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw fail("the name contains a control character")
            }
            guard let lat = Double(col("latitude")), lat.isFinite else { throw fail("latitude \(col("latitude").debugDescription) is not a number") }
            guard let lon = Double(col("longitude")), lon.isFinite else { throw fail("longitude \(col("longitude").debugDescription) is not a number") }
            guard (-90...90).contains(lat) else { throw fail("latitude \(lat) is outside -90…90") }
            guard (-180...180).contains(lon) else { throw fail("longitude \(lon) is outside -180…180") }
            let cc = col("country_code")
            guard CountryID.isValid(cc) else { throw fail("country code \(cc.debugDescription) is not two upper-case letters") }
            let popText = col("population")
            guard let pop = Int64(popText), pop >= 0 else { throw fail("population \(popText.debugDescription) is not a whole number ≥ 0") }
            let alts = col("alternate_names").utf8.split(separator: UInt8(ascii: "|")).map { String(Substring($0)) }
            out.append(SourceCity(id: id, name: name, latitude: lat, longitude: lon, countryCode: cc,
                                  admin1Code: col("admin1_code"), population: pop, alternateNames: alts))
        }
        guard !out.isEmpty else { throw InputError(file: path, "has no cities") }
        return out.sorted { $0.id < $1.id }
    }

    /// Reads admin1_names.tsv: "CC\tcode" → name.
    public static func readAdmin1(_ path: String) throws -> [String: String] {
        let table = try TSVTable.read(path, required: ["country_code", "admin1_code", "name"])
        var out: [String: String] = [:]
        for row in table.rows {
            let line = row.line
            let cc = table[row, "country_code"], code = table[row, "admin1_code"], name = table[row, "name"]
            guard !name.isEmpty else { throw InputError(file: path, "line \(line): (\(cc), \(code)) has no name") }
            let key = cc + "\t" + code
            guard out[key] == nil else { throw InputError(file: path, "line \(line): (\(cc), \(code)) appears twice") }
            out[key] = name
        }
        return out
    }

    /// Reads country_population.tsv: ISO code → GeoNames id and population.
    public static func readCountries(_ path: String) throws -> [String: SourceCountry] {
        let table = try TSVTable.read(path, required: ["iso", "geonameid", "population"])
        var out: [String: SourceCountry] = [:]
        for row in table.rows {
            let line = row.line
            let iso = table[row, "iso"]
            guard CountryID.isValid(iso) else { throw InputError(file: path, "line \(line): \(iso.debugDescription) is not two upper-case letters") }
            guard let gid = Int64(table[row, "geonameid"]), gid > 0 else { throw InputError(file: path, "line \(line) (\(iso)): the GeoNames id is not a positive integer") }
            guard let pop = Int64(table[row, "population"]), pop >= 0 else { throw InputError(file: path, "line \(line) (\(iso)): the population is not a whole number ≥ 0") }
            guard out[iso] == nil else { throw InputError(file: path, "line \(line): \(iso) appears twice") }
            out[iso] = SourceCountry(code: iso, geonameID: gid, population: pop)
        }
        return out
    }

    /// Reads data/territories.tsv: GeoNames code → sovereign and name. Rows that cannot apply
    /// to this country set (the code is an app country, or the sovereign is not one) are
    /// returned apart, so the stage can say so.
    public static func readTerritories(_ path: String, appCountries: Set<String>) throws -> (territories: [String: Territory], unused: [String]) {
        let table = try TSVTable.read(path, required: ["code", "sovereign", "name"])
        var out: [String: Territory] = [:]
        var unused: [String] = []
        for row in table.rows {
            let line = row.line
            let code = table[row, "code"], sovereign = table[row, "sovereign"], name = table[row, "name"]
            guard CountryID.isValid(code), CountryID.isValid(sovereign) else {
                throw InputError(file: path, "line \(line): \(code.debugDescription) and \(sovereign.debugDescription) must be two upper-case letters")
            }
            guard !name.isEmpty else { throw InputError(file: path, "line \(line): \(code) has no name") }
            guard out[code] == nil, !unused.contains(code) else { throw InputError(file: path, "line \(line): \(code) appears twice") }
            if appCountries.contains(code) || !appCountries.contains(sovereign) { unused.append(code); continue }
            out[code] = Territory(sovereign: sovereign, name: name)
        }
        return (out, unused)
    }
}

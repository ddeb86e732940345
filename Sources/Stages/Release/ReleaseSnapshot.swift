import Foundation
import GeoModel
import GeoFormats
import GeoLookup

/// What a release (or dist/, which has the same layout) holds, read back for comparison: the
/// app's countries, the quiz days, the cities, the lookup index, the world stage's decisions.
struct ReleaseSnapshot {
    static let worldPath = "world.geojson"
    static let quizSeedPath = "supabase/seed.sql"
    static let citiesSeedPath = "supabase/cities/seed.sql"
    static let lookupPath = "lookup/lookup.bin"

    struct QuizDay: Equatable { var type: String; var answer: String }
    struct City: Equatable { var name: String; var country: String; var population: Int; var latitude: Double; var longitude: Double; var row: [String?] }

    let root: String
    let label: String
    let countries: [Feature]
    let quiz: [String: QuizDay]
    let cities: [Int: City]
    /// The cities app's countries table: code → (name, capital, continent, population).
    let cityCountries: [String: [String?]]
    /// The world report's "# key value" lines.
    let worldMeta: [String: String]

    init(root: String, label: String) throws {
        self.root = root
        self.label = label
        countries = try CountryFile.read(path: root + "/" + Self.worldPath)
        quiz = try Self.readQuiz(root + "/" + Self.quizSeedPath)
        let citiesSeed = try FileIO.readLines(root + "/" + Self.citiesSeedPath)
        cities = try Self.readCities(citiesSeed, path: root + "/" + Self.citiesSeedPath)
        cityCountries = Self.readCityCountries(citiesSeed)
        worldMeta = try Self.readWorldMeta(root + "/" + ReleaseFiles.worldReportPath)
    }

    func lookup() throws -> GeoLookup {
        let path = root + "/" + Self.lookupPath
        do { return try GeoLookup(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw InputError(file: path, "cannot be read as a lookup index: \(error)")
        }
    }

    /// date → question, from the daily_challenges seed's `values` rows
    /// (id, date, is_guess_country, is_guess_capital, is_guess_flag, answer).
    static func readQuiz(_ path: String) throws -> [String: QuizDay] {
        var out: [String: QuizDay] = [:]
        for (n, line) in try FileIO.readLines(path).enumerated() {
            guard let v = SQL.tuple(line) else { continue }
            guard v.count == 6, let date = v[1], let answer = v[5] else {
                throw InputError(file: path, "line \(n + 1): a quiz row needs 6 values (id, date, three flags, answer), found \(v.count)")
            }
            let flags = [("country", v[2]), ("capital", v[3]), ("flag", v[4])].filter { $0.1 == "true" }.map(\.0)
            guard flags.count == 1 else { throw InputError(file: path, "line \(n + 1): \(date) has \(flags.count) question types set, not one") }
            out[date] = QuizDay(type: flags[0], answer: answer)
        }
        return out
    }

    /// id → city, from the cities seed's rows (id, display_name, plain_name, admin, country,
    /// country_id, population, latitude, longitude, alt_names); the countries' rows have 6 values.
    static func readCities(_ path: String) throws -> [Int: City] {
        try readCities(try FileIO.readLines(path), path: path)
    }

    /// The same, from the seed's lines (`path` names the file in errors).
    static func readCities(_ lines: [Substring], path: String) throws -> [Int: City] {
        var out: [Int: City] = [:]
        for (n, line) in lines.enumerated() {
            guard let v = SQL.tuple(line), v.count == 10 else { continue }
            guard let id = v[0].flatMap({ Int($0) }), let name = v[1], let country = v[4],
                  let lat = v[7].flatMap({ Double($0) }), let lon = v[8].flatMap({ Double($0) }) else {
                throw InputError(file: path, "line \(n + 1): a city row without id, name, country or position")
            }
            out[id] = City(name: name, country: country, population: v[6].flatMap { Int($0) } ?? 0, latitude: lat, longitude: lon, row: v)
        }
        return out
    }

    static let cityCountryColumns = ["name", "capital", "continent", "population"]

    /// The seed's countries rows (id, name, country_code, capital, continent, population) by code.
    static func readCityCountries(_ lines: [Substring]) -> [String: [String?]] {
        var out: [String: [String?]] = [:]
        for line in lines {
            guard let v = SQL.tuple(line), v.count == 6, let code = v[2] else { continue }
            out[code] = [v[1], v[3], v[4], v[5]]
        }
        return out
    }

    static func readWorldMeta(_ path: String) throws -> [String: String] {
        var meta: [String: String] = [:]
        for line in try FileIO.readLines(path) where line.hasPrefix("# ") {
            let parts = line.dropFirst(2).split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { meta[String(parts[0])] = String(parts[1]) }
        }
        return meta
    }

    /// The world report's rows by country id (GeoModel's TSVTable: `#` lines are its comments).
    static func readWorldRows(_ path: String) throws -> (columns: [String], rows: [String: [String]]) {
        let table = try TSVTable.read(path)
        var rows: [String: [String]] = [:]
        for row in table.rows { if let id = row.fields.first { rows[id] = row.fields } }
        return (table.columns, rows)
    }
}

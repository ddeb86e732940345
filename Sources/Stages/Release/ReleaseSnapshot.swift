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
    /// The countries, the cities seed and the lookup index, as read here (the release's page reuses them).
    let products: ProductReader
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
        products = ProductReader(root: root)
        countries = try products.countries()
        quiz = try Self.readQuiz(root + "/" + Self.quizSeedPath)
        (cities, cityCountries) = try products.citiesSeed()
        worldMeta = try Self.readWorldMeta(root + "/" + ReleaseFiles.worldReportPath)
    }

    func lookup() throws -> GeoLookup { try products.lookup() }

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

    static let cityCountryColumns = ["name", "capital", "continent", "population"]

    /// The cities seed's two tables: its cities by id (id, display_name, plain_name, admin,
    /// country, country_id, population, latitude, longitude, alt_names), and its countries rows
    /// (id, name, country_code, capital, continent, population) by code.
    typealias CitiesSeed = (cities: [Int: City], countries: [String: [String?]])

    static func readCitiesSeed(_ path: String) throws -> CitiesSeed {
        try readCitiesSeed(try FileIO.readLines(path), path: path)
    }

    /// The same, from the seed's lines (`path` names the file in errors). Every line that
    /// starts a values row (`(`) must be a row of the table its `insert into` names, with that
    /// table's columns: a row skipped could hide a changed city from the changelog.
    static func readCitiesSeed(_ lines: [Substring], path: String) throws -> CitiesSeed {
        var cities: [Int: City] = [:]
        var countries: [String: [String?]] = [:]
        var table: String?
        // The seed's own column list replaces this (older seeds have these ten).
        var cityColumns = ["id", "display_name", "plain_name", "admin", "country", "country_id", "population", "latitude", "longitude", "alt_names"]
        for (n, line) in lines.enumerated() {
            func fail(_ problem: String) -> InputError { InputError(file: path, "line \(n + 1): \(problem)") }
            let text = line.drop { $0 == " " }
            if text.hasPrefix("insert into ") {
                table = String(text.dropFirst("insert into ".count).prefix { $0 != " " && $0 != "(" })
                // The cities' columns as the seed names them: the values rows are read by name.
                if table == "public.cities", let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")") {
                    cityColumns = text[text.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                }
                continue
            }
            guard text.hasPrefix("(") else { continue }
            guard let v = SQL.tuple(line) else { throw fail("a values row that cannot be read (an unclosed quote or parenthesis?): \(excerpt(text))") }
            switch table {
            case "public.cities"?:
                guard v.count == cityColumns.count else {
                    throw fail("a cities row needs \(cityColumns.count) values (\(cityColumns.joined(separator: ", "))), found \(v.count)")
                }
                func column(_ name: String) throws -> String? {
                    guard let i = cityColumns.firstIndex(of: name) else { throw fail("the cities insert has no column \(name)") }
                    return v[i]
                }
                let population = try column("population")
                guard let id = try column("id").flatMap({ Int($0) }), let name = try column("display_name"), let country = try column("country"),
                      let lat = try column("latitude").flatMap({ Double($0) }), let lon = try column("longitude").flatMap({ Double($0) }) else {
                    throw fail("a city row without id, name, country or position")
                }
                guard population == nil || Int(population!) != nil else { throw fail("city \(id) has population \"\(population!)\", not a whole number") }
                guard cities[id] == nil else { throw fail("city \(id) appears twice") }
                cities[id] = City(name: name, country: country, population: population.flatMap { Int($0) } ?? 0, latitude: lat, longitude: lon, row: v)
            case "public.countries"?:
                guard v.count == 6 else {
                    throw fail("a countries row needs 6 values (id, name, country_code, capital, continent, population), found \(v.count)")
                }
                guard let code = v[2] else { throw fail("a countries row without a country_code") }
                guard countries[code] == nil else { throw fail("country \(code) appears twice") }
                countries[code] = [v[1], v[3], v[4], v[5]]
            case nil:
                throw fail("a values row outside an insert into public.cities or public.countries")
            default:
                continue   // the seed's other rows (city_qualifiers_new: what may follow a city's name) are no product's
            }
        }
        return (cities, countries)
    }

    /// The start of a line for an error message.
    static func excerpt(_ text: Substring) -> String { text.count > 60 ? text.prefix(60) + "…" : String(text) }

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

import Foundation
import StageContract
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoFormats
@testable import CitiesStage
import CitiesSchema

/// The cities stage: names, source checks, country placement rules and the seed's SQL text.
/// (PostgreSQL itself loads the real output in scripts/checks/check_cities.sh.)
@Suite struct CitiesTests {
    typealias City = CitiesStage.SourceCity

    // MARK: names

    @Test func displayNamesHaveNoRepeatedParts() {
        #expect(CitiesStage.displayName(city: "São Paulo", admin: "São Paulo", country: "Brazil") == "São Paulo, São Paulo, Brazil")
        #expect(CitiesStage.displayName(city: "Singapore", admin: nil, country: "Singapore") == "Singapore")
        #expect(CitiesStage.displayName(city: "Luxembourg", admin: "Luxembourg", country: "Luxembourg") == "Luxembourg")
        #expect(CitiesStage.displayName(city: "Paris", admin: "Île-de-France", country: "France") == "Paris, Île-de-France, France")
        #expect(CitiesStage.displayName(city: "Paris", admin: nil, country: "France") == "Paris, France")
        #expect(CitiesStage.displayName(city: "Paris", admin: "", country: "France") == "Paris, France")
        // A city named like its country but inside a province is not a city-state.
        #expect(CitiesStage.displayName(city: "Mozambique", admin: "Nampula", country: "Mozambique") == "Mozambique, Nampula, Mozambique")
    }

    @Test func plainNamesLoseTheirDiacritics() {
        #expect(CitiesStage.plainName("São Paulo") == "Sao Paulo")
        #expect(CitiesStage.plainName("Łódź") == "Lodz")
        #expect(CitiesStage.plainName("Tromsø") == "Tromso")
        #expect(CitiesStage.plainName("Đà Nẵng") == "Da Nang")
        #expect(CitiesStage.plainName("Zürich") == "Zurich")
        // Decomposed input comes out the same; other scripts are left alone.
        #expect(CitiesStage.plainName("Zu\u{308}rich") == "Zurich")
        #expect(CitiesStage.plainName("東京") == "東京")
        #expect(CitiesStage.plainName("Mu'nich") == "Mu'nich")
    }

    /// The ASCII shortcut gives what the Unicode path gives, on every ASCII name of the source.
    @Test func asciiNamesAreTheirOwnPlainForm() throws {
        let cities = try CitiesStage.readCities(Repo.path("data/geonames/cities15000.tsv"))
        let ascii = cities.map(\.name).filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        #expect(ascii.count > 20_000)
        for name in ascii { #expect(CitiesStage.plainNameByUnicode(name) == name) }
        #expect(CitiesStage.plainName("Zürich") == CitiesStage.plainNameByUnicode("Zürich"))
    }

    // MARK: source rows

    static let header = "geonameid\tname\tlatitude\tlongitude\tcountry_code\tadmin1_code\tpopulation\ttimezone\talternate_names"
    static let munich = "2867714\tMunich\t48.13743\t11.57549\tDE\t02\t1505005\tEurope/Berlin\tMünchen|Muenchen"

    func write(_ lines: [String]) -> String {
        let path = temporaryDirectory() + "/cities.tsv"
        try! (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func error(_ lines: [String]) -> String {
        do { _ = try CitiesStage.readCities(write(lines)); return "no error" } catch { return "\(error)" }
    }

    @Test func readsCitiesWithAlternateNames() throws {
        let cities = try CitiesStage.readCities(write(["# comment", Self.header, Self.munich,
                                                       "2950159\tBerlin\t52.52437\t13.41053\tDE\t16\t3426354\tEurope/Berlin\t"]))
        #expect(cities.map(\.id) == [2867714, 2950159])
        #expect(cities[0].alternateNames == ["München", "Muenchen"])
        #expect(cities[1].alternateNames.isEmpty)
        #expect(cities[0].point == Point(11.57549, 48.13743))
    }

    @Test func refusesBrokenRowsDuplicatesAndPositionsOffTheEarth() {
        #expect(error([Self.header, Self.munich, "2950159\tBerlin\t52.5"]).hasSuffix("line 3: has 3 columns, the header has 9 (a broken row: tabs or line breaks inside a field?)"))
        #expect(error([Self.header, Self.munich, Self.munich]).hasSuffix("line 3 (id 2867714 \"Munich\"): repeats the id 2867714 of line 2"))
        #expect(error([Self.header, "1\tX\t-90.5\t0\tDE\t\t0\tUTC\t"]).hasSuffix("line 2 (id 1 \"X\"): latitude -90.5 is outside -90…90"))
        #expect(error([Self.header, "1\tX\t0\t180.01\tDE\t\t0\tUTC\t"]).hasSuffix("line 2 (id 1 \"X\"): longitude 180.01 is outside -180…180"))
        #expect(error([Self.header, "1\tX\tnan\t0\tDE\t\t0\tUTC\t"]).hasSuffix("latitude \"nan\" is not a number"))
        #expect(error([Self.header, "0\tX\t0\t0\tDE\t\t0\tUTC\t"]).hasSuffix("the id \"0\" is not a positive integer"))
        #expect(error([Self.header]).hasSuffix("has no cities"))
        #expect(error(["geonameid\tname", "1\tX"]).hasSuffix("line 1: the header lacks the columns latitude, longitude, country_code, admin1_code, population, timezone, alternate_names"))
        // Quotes in a name are data, not an error.
        #expect(error([Self.header, "1\tL'Aquila \"x\" \\\t42.35\t13.4\tIT\t65\t68503\tEurope/Rome\t"]) == "no error")
    }

    // MARK: placing cities

    /// Two square countries side by side (FR west of 6°E, DE east of it, 45°–55°N), an island
    /// country far away, and a point country LI at (9.5, 47.1) inside DE's square.
    static let world: [Feature] = {
        func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Geometry {
            .polygon(Polygon(rings: [[Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1), Point(x0, y0)]]))
        }
        func f(_ id: String, _ name: String, _ g: Geometry, point: Bool = false) -> Feature {
            var p = JSONObject()
            p["name"] = .string(name); p["continent"] = .string("Europe"); p["capital"] = .string("Capital of \(name)")
            if point { p["renderAs"] = .string("point") }
            return Feature(id: id, properties: p, geometry: g)
        }
        return [f("FR", "France", square(-4, 45, 6, 55)), f("DE", "Germany", square(6, 45, 15, 55)),
                f("IS", "Iceland", square(-24, 63, -13, 67)), f("LI", "Liechtenstein", .point(Point(9.5, 47.1)), point: true)]
    }()

    static let tolerances = CitiesStage.Tolerances(borderKm: 10, coastalKm: 30, pointRadiusKm: 50)

    static let territories = ["RE": CitiesStage.Territory(sovereign: "FR", name: "Réunion"),
                              "JE": CitiesStage.Territory(sovereign: "IS", name: "Jersey")]

    func place(_ cc: String, _ lon: Double, _ lat: Double) throws -> (String?, CitiesStage.Resolution) {
        let locator = try CitiesStage.CountryLocator(world: Self.world, file: "world.geojson")
        let p = try locator.place(City(id: 1, name: "X", latitude: lat, longitude: lon, countryCode: cc, admin1Code: "", population: 1),
                                  Self.tolerances, territories: Self.territories)
        if p.resolution == .territory { #expect(p.admin == Self.territories[cc]?.name) } else { #expect(p.admin == nil) }
        return (p.country.map { locator.countries[$0].code }, p.resolution)
    }

    @Test func placesEachCityByRule() throws {
        #expect(try place("DE", 11.5, 48.1) == ("DE", .agree))
        #expect(try place("LI", 9.52, 47.14) == ("LI", .pointCountry))              // in DE's square, near LI's point
        #expect(try place("LI", 13, 52) == ("DE", .otherPolygon))                   // far from LI's point
        #expect(try place("SJ", 11, 50) == ("DE", .foldedTerritory))               // no app country: the polygon's
        #expect(try place("FR", 6.05, 50) == ("FR", .nearBorder))                  // 3.6 km into DE: a simplified border
        #expect(try place("FR", 7, 50) == ("DE", .otherPolygon))                   // 70 km into DE: the polygon wins
        #expect(try place("DE", 15.2, 50) == ("DE", .coast))                       // 14 km off DE's edge
        #expect(try place("GG", -4.2, 50) == ("FR", .coastNearest))                // no app country, 14 km off FR
        #expect(try place("RE", 55.5, -21.1) == ("FR", .territory))                // a territory the app does not draw
        #expect(try place("JE", -4.1, 49.2) == ("IS", .territory))                 // the table before the nearest polygon (FR, 7 km)
        #expect(try place("SJ", 11, 50) == ("DE", .foldedTerritory))               // a polygon that holds it decides
        #expect(try place("DE", 0, 0) == ("DE", .sourceOnly))                      // nowhere near, but an app country
        #expect(try place("PF", -149.6, -17.5) == (nil, .dropped))                 // nowhere near, no app country
    }

    // MARK: the seed

    func rows() -> (countries: [CitiesStage.CountryRow], cities: [CitiesStage.CityRow]) {
        let countries = [CitiesStage.CountryRow(id: 2921044, name: "Germany", code: "DE", capital: "Berlin", continent: "Europe", population: 82927922)]
        let cities = [
            CitiesStage.CityRow(id: 2950159, displayName: "Berlin, Berlin, Germany", plainName: "Berlin", admin: "Berlin", country: "Germany",
                                countryID: 2921044, population: 3426354, latitude: 52.52437, longitude: 13.41053, altNames: []),
            CitiesStage.CityRow(id: 2867714, displayName: "Mu'nich\\'); drop table x; --, Bavaria, Germany", plainName: "Mu'nich", admin: nil,
                                country: "Germany", countryID: 2921044, population: 1505005, latitude: 48.13743, longitude: 11.57549,
                                altNames: ["München", "O'Munich"], commonNames: ["München"], sameAs: 2950159),
        ]
        return (countries, cities)
    }

    @Test func seedEscapesQuotesAndBackslashesAndIsDeterministic() throws {
        let (countries, cities) = rows()
        let a = try CitiesStage.seed(countries: countries, cities: cities, header: ["a header\nwith a line break"])
        let b = try CitiesStage.seed(countries: countries, cities: cities.reversed(), header: ["a header\nwith a line break"])
        #expect(a == b)
        let lines = a.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "-- a header with a line break")
        // One row per line, in id order; quotes doubled, the backslash inside an E'' string.
        let munich = try #require(lines.first { $0.hasPrefix("(2867714, ") })
        #expect(munich == #"(2867714, E'Mu''nich\\''); drop table x; --, Bavaria, Germany', 'Mu''nich', null, 'Germany', 2921044, 1505005, 48.13743, 11.57549, 'München|O''Munich', 'München', 2950159, null, null),"#)
        #expect(lines.firstIndex { $0.hasPrefix("(2867714, ") }! < lines.firstIndex { $0.hasPrefix("(2950159, ") }!)
        #expect(lines.contains("(2950159, 'Berlin, Berlin, Germany', 'Berlin', 'Berlin', 'Germany', 2921044, 3426354, 52.52437, 13.41053, null, null, null, null, null)"))
        #expect(lines.contains("(2921044, 'Germany', 'DE', 'Berlin', 'Europe', 82927922)"))
        #expect(lines.contains("'{2867714,2950159}'::bigint[]));"))
        #expect(a.contains("is distinct from (excluded.display_name, excluded.plain_name, excluded.admin, excluded.country, excluded.country_id, excluded.population, excluded.latitude, excluded.longitude, excluded.alt_names, excluded.common_names, excluded.same_as, excluded.script_names, excluded.abbreviations) or t.retired_at is not null;"))
        #expect(lines.first == "-- a header with a line break" && a.hasSuffix("commit;\n"))
    }

    @Test func seedCarriesTheQualifiersAndRemovesTheOnesGone() throws {
        let (countries, cities) = rows()
        let q = [CitiesStage.QualifierRow(name: "Czech Republic", countryID: 3077311, admin: ""),
                 CitiesStage.QualifierRow(name: "BY", countryID: 2921044, admin: "Bavaria")]
        let seed = try CitiesStage.seed(countries: countries, cities: cities, qualifiers: q, header: [])
        #expect(seed.contains("('Czech Republic', 3077311, ''),\n('BY', 2921044, 'Bavaria');"))
        #expect(seed.contains("delete from public.city_qualifiers q\n where not exists"))
        #expect(seed.contains("insert into public.city_qualifiers (name, country_id, admin) select name, country_id, admin from city_qualifiers_new\non conflict do nothing;"))
    }

    @Test func seedBatchesRows() throws {
        let (countries, one) = rows()
        let many = (0..<2500).map { i -> CitiesStage.CityRow in var c = one[0]; c.id = Int64(i + 1); return c }
        let seed = try CitiesStage.seed(countries: countries, cities: many, header: [])
        #expect(seed.components(separatedBy: "insert into public.cities as t").count - 1 == 3)
        #expect(seed.components(separatedBy: "\n(").count - 1 == 2500 + 1)
    }

    @Test func migrationHasWhatTheAppNeeds() {
        let m = CitiesSchema.migration
        for needle in ["create extension if not exists pg_trgm", "create extension if not exists unaccent",
                       "create table if not exists public.countries", "create table if not exists public.cities",
                       "if to_regclass('public.user_city') is null then", "create table public.user_city (", "using gin (search_keys",
                       "create or replace function public.search_cities(q text, n int default 10)",
                       "enable row level security", "revoke insert, update, delete, truncate"] {
            #expect(m.contains(needle), "migration lacks \(needle)")
        }
        #expect(CitiesSchema.migrationName.range(of: #"^\d{14}_cities\.sql$"#, options: .regularExpression) != nil)
    }

    @Test func searchMigrationComesAfterTheFirstAndRanksByWhatPeopleMean() {
        #expect(CitiesSchema.migrations.map(\.name) == [CitiesSchema.migrationName, CitiesSchema.searchMigrationName, CitiesSchema.everyScriptMigrationName])
        #expect(CitiesSchema.migrations.map(\.name) == CitiesSchema.migrations.map(\.name).sorted())
        #expect(CitiesSchema.searchMigrationName.range(of: #"^\d{14}_[a-z_]+\.sql$"#, options: .regularExpression) != nil)
        let m = CitiesSchema.searchMigration
        for needle in ["add column if not exists common_names", "add column if not exists same_as",
                       "create index if not exists cities_fuzzy_keys_trgm", "create or replace function public.city_near(k text)",
                       "create or replace function public.search_cities(q text, n int default 10)", "same_as is null",
                       "grant execute on function public.city_near(text) to anon, authenticated",
                       "-- Score = match bonus + log10(population)"] {
            #expect(m.contains(needle), "search migration lacks \(needle)")
        }
        // Safe to apply twice: nothing is created unconditionally.
        #expect(!m.contains("create table ") && !m.contains("create index cities") && !m.contains("add column common"))
    }

    @Test func everyScriptMigrationComesLastAndStatesItsRules() {
        #expect(CitiesSchema.migrations.last?.name == CitiesSchema.everyScriptMigrationName)
        let m = CitiesSchema.everyScriptMigration
        for needle in ["add column if not exists script_names", "add column if not exists abbreviations",
                       "create table if not exists public.city_names", "create table if not exists public.city_qualifiers",
                       "create or replace function public.search_cities(q text, n int default 10)", "set search_path = ''",
                       "referencing new table as changed for each statement", "policy city_names_read", "policy city_qualifiers_read",
                       "-- Score = match bonus + log10(population)", "qualifier", "abbreviation exact"] {
            #expect(m.contains(needle), "every-script migration lacks \(needle)")
        }
        #expect(!m.contains("create table public.") && !m.contains("create index city"))
    }

    // MARK: what the search ranks by

    @Test func codeLikeNamesAreNoNames() {
        for code in ["MUN", "NYC", "HCMC", "NL_GM0796", "B.H.", "A2", "Ō"] { #expect(CitiesStage.isCodeLike(code), "\(code)") }
        for name in ["Munich", "München", "Tor", "sampa", "Ciudad de México", "'s-Hertogenbosch"] { #expect(!CitiesStage.isCodeLike(name), "\(name)") }
    }

    @Test func abbreviationsAreInitialsOfTheCitysNamesAndAirportCodesAreNot() {
        let ny = ["New York City", "New York"], la = ["Los Angeles"], dc = ["Washington", "Washington D. C."]
        for (code, names) in [("NYC", ny), ("NY", ny), ("L.A.", la), ("LA", la), ("D.C.", dc), ("DC", dc), ("KL", ["Kuala Lumpur"]),
                              ("HCMC", ["Ho Chi Minh City"]), ("BH", ["Belo Horizonte"])] {
            #expect(CitiesStage.isAbbreviation(code, of: names), "\(code)")
        }
        for (code, names) in [("LAX", la), ("JFK", ny), ("MUN", ["Maturín"]), ("SFO", ["San Francisco"]), ("WAS", dc),
                              ("N", ["New York"]), ("NYCITY", ny), ("ny", ny), ("YC", ["New york city"])] {
            #expect(!CitiesStage.isAbbreviation(code, of: names), "\(code)")
        }
    }

    @Test func mountSaintAndFortHaveTheirShortForms() {
        #expect(CitiesStage.shortForms("Mount Pleasant") == ["Mt Pleasant"])
        #expect(CitiesStage.shortForms("Saint-Denis") == [])
        #expect(CitiesStage.shortForms("Fort Worth") == ["Ft Worth"])
        #expect(CitiesStage.shortForms("Sainte Foy") == ["Ste Foy"])
        #expect(CitiesStage.shortForms("Paris") == [])
    }

    @Test func readsCommonNamesAndRefusesBrokenRows() throws {
        let ok = write(["# comment", "geonameid\tcommon_names", "2867714\tMunchen|Munique", "3530597\tMexico"])
        #expect(try CitiesStage.readCommonNames(ok) == [2867714: ["Munchen", "Munique"], 3530597: ["Mexico"]])
        for (rows, problem) in [(["0\tX"], "not a positive integer"), (["1\tA", "1\tB"], "appears twice"), (["1\t"], "an empty name"),
                                (["1\tA||B"], "an empty name")] {
            do { _ = try CitiesStage.readCommonNames(write(["geonameid\tcommon_names"] + rows)); Issue.record("no error for \(rows)") }
            catch { #expect("\(error)".contains(problem), "\(error)") }
        }
        // The repository's table: the names people use of the big cities.
        let table = try CitiesStage.readCommonNames(Repo.path("data/geonames/common_names.tsv"))
        #expect(table[3530597]?.contains("Mexico") == true && table[2886242]?.contains("Cologne") == true)
    }

    @Test func aPlaceListedTwiceIsOfferedOnce() {
        typealias P = CitiesStage.PlaceKey
        let places = [
            P(id: 128476, group: "kashan\tIR\t28", point: Point(51.43644, 33.98308), population: 304487),
            P(id: 6861211, group: "kashan\tIR\t28", point: Point(51.4549, 34.0002), population: 304487),    // 2.4 km, same population: the lower id stays
            P(id: 1, group: "banga\tPH\t12", point: Point(122.33, 11.64), population: 58855),
            P(id: 2, group: "banga\tPH\t12", point: Point(122.332, 11.641), population: 91536),              // the more populous stays
            P(id: 3, group: "banga\tPH\t12", point: Point(123.0, 11.64), population: 20000),                 // 73 km away: another town
            P(id: 4, group: "kansas city\tUS\tMO", point: Point(-94.57857, 39.09973), population: 475378),
            P(id: 5, group: "kansas city\tUS\tKS", point: Point(-94.62746, 39.11417), population: 152933),  // another state: another city
        ]
        #expect(CitiesStage.sameAs(places, withinKm: 10) == [6861211: 128476, 1: 2])
        #expect(CitiesStage.sameAs(places, withinKm: 100) == [6861211: 128476, 1: 2, 3: 2])
        #expect(CitiesStage.sameAs(places, withinKm: 0.1).isEmpty)
    }

    // MARK: the whole stage

    @Test func runWritesMigrationSeedAndReport() throws {
        let dir = temporaryDirectory()
        let world = dir + "/world.geojson"
        try GeoJSON.write(Self.world, to: world)
        var o = CitiesStage.Options()
        o.cities = write([Self.header, Self.munich + "|MUC",
                          "1\tVaduz\t47.14151\t9.52154\tLI\t11\t5668\tEurope/Vaduz\t",
                          "2\tPapeete\t-17.53733\t-149.5665\tPF\t\t26926\tPacific/Tahiti\t",
                          "3\tNowhere\t-40\t-120\tZZ\t\t15000\tUTC\t"])
        o.admin1 = Repo.path("data/geonames/admin1_names.tsv")
        o.commonNames = Repo.path("data/geonames/common_names.tsv")
        o.countryTable = Repo.path("data/geonames/country_population.tsv")
        o.territories = Repo.path("data/territories.tsv")
        o.scriptNames = Repo.path("data/geonames/script_names.tsv")
        o.regionCodes = Repo.path("data/region_codes.tsv")
        o.world = world; o.outputDir = dir + "/out"; o.report = dir + "/report.tsv"
        try o.validate()
        let r = try CitiesStage.run(o, log: StageLog(stage: "cities", quiet: true))
        #expect(r.cities == 3 && r.countries == 4)
        #expect(r.byResolution == [.agree: 1, .pointCountry: 1, .territory: 1, .dropped: 1])
        #expect(r.withoutAdmin == 0)
        #expect(r.codeNamesDropped == 1 && r.withCommonNames == 1 && r.duplicates == 0)
        #expect(r.byContinent == ["Europe": 3])
        let seed = try String(contentsOfFile: o.outputDir + "/seed.sql", encoding: .utf8)
        #expect(seed.contains("(2867714, 'Munich, Bavaria, Germany', 'Munich', 'Bavaria', 'Germany', 2921044,"))
        #expect(seed.contains("(1, 'Vaduz, Vaduz, Liechtenstein', 'Vaduz', 'Vaduz', 'Liechtenstein', 3042058,"))
        #expect(seed.contains("(2, 'Papeete, French Polynesia, France', 'Papeete', 'French Polynesia', 'France', 3017382,"))
        #expect(seed.contains(CitiesSchema.attribution))
        for m in CitiesSchema.migrations { #expect(FileManager.default.fileExists(atPath: o.outputDir + "/migrations/" + m.name)) }
        #expect(seed.contains("'München|Muenchen', 'Munchen|Munique', null, '"))
        #expect(seed.contains("Мюнхен") && seed.contains("ミュンヘン"))
        #expect(r.scriptNames > 10 && r.abbreviations == 0 && r.qualifiers > 20)
        #expect(seed.contains("('Bavaria', 2921044, 'Bavaria')") && seed.contains("('DE', 2921044, '')") && seed.contains("('Germany', 2921044, '')"))
        let report = try String(contentsOfFile: o.report, encoding: .utf8)
        #expect(report.contains("dropped\t3\tNowhere\tZZ\t\t\t\n"))
        #expect(report.contains("territory\t2\tPapeete\tPF\t\tFR\t\n"))
        #expect(report.contains("# resolution dropped: 1\n"))
        #expect(r.summary.contains("3 cities in 4 countries (Europe 3)"))
    }

    @Test func optionsRefuseNonsense() {
        var o = CitiesStage.Options()
        o.coastalToleranceKm = -1
        #expect(throws: OptionsError.self) { try o.validate() }
        o = CitiesStage.Options(); o.outputDir = ""
        #expect(throws: OptionsError.self) { try o.validate() }
        #expect(throws: Never.self) { try CitiesStage.Options().validate() }
    }
}

import Testing
import GeoModel
@testable import ReleaseStage

/// Reading a release's cities seed back: every values row is read or refused with its line,
/// never skipped (a skipped row could hide a changed city from the changelog).
@Suite struct ReleaseSnapshotTests {
    static let seed = [
        "-- a comment",
        "insert into public.countries as t (id, name, country_code, capital, continent, population) values",
        "(2110425, 'Nauru', 'NR', 'Yaren', 'Oceania', 12704);",
        "update public.countries set in_source = false where id <> all ('{2110425}'::bigint[]);",
        "insert into public.cities as t (id, display_name, plain_name, admin, country, country_id, population, latitude, longitude, alt_names) values",
        "(2110257, 'Yaren', 'yaren', 'Yaren', 'NR', 2110425, 1100, -0.55085, 166.9252, ''),",
        "(7626461, 'Denigomodu', 'denigomodu', null, 'NR', 2110425, 2827, -0.52333, 166.91667, 'Denig')",
        "on conflict (id) do update set display_name = excluded.display_name",
    ]

    static func read(_ lines: [String]) throws -> (cities: [Int: ReleaseSnapshot.City], countries: [String: [String?]]) {
        try ReleaseSnapshot.readCitiesSeed(lines.map { Substring($0) }, path: "seed.sql")
    }

    static func error(_ lines: [String]) -> String {
        do { _ = try read(lines); return "no error" } catch { return "\(error)" }
    }

    @Test func readsBothTables() throws {
        let (cities, countries) = try Self.read(Self.seed)
        #expect(cities.keys.sorted() == [2110257, 7626461])
        #expect(cities[7626461] == ReleaseSnapshot.City(name: "Denigomodu", country: "NR", population: 2827, latitude: -0.52333, longitude: 166.91667,
                                                        row: ["7626461", "Denigomodu", "denigomodu", nil, "NR", "2110425", "2827", "-0.52333", "166.91667", "Denig"]))
        #expect(countries == ["NR": ["Nauru", "Yaren", "Oceania", "12704"]])
    }

    @Test func aRowItCannotReadIsAnErrorNamingTheLine() {
        var lines = Self.seed
        lines[6] = "(7626461, 'Denigomodu', 'denigomodu', null, 'NR', 2110425, 2827, -0.52333 166.91667, 'Denig')"  // a comma lost
        #expect(Self.error(lines) == "seed.sql: line 7: a cities row needs 10 values (id, display_name, plain_name, admin, country, country_id, population, latitude, longitude, alt_names), found 9")
        lines[6] = "(7626461, 'Denigomodu', 'denigomo"  // cut short
        #expect(Self.error(lines).hasPrefix("seed.sql: line 7: a values row that cannot be read"))
        lines = Self.seed
        lines[2] = "(2110425, 'Nauru', 'NR', 'Yaren', 'Oceania');"
        #expect(Self.error(lines) == "seed.sql: line 3: a countries row needs 6 values (id, name, country_code, capital, continent, population), found 5")
        lines = Self.seed
        lines[5] = "(2110257, 'Yaren', 'yaren', 'Yaren', 'NR', 2110425, 'many', -0.55085, 166.9252, ''),"
        #expect(Self.error(lines) == "seed.sql: line 6: city 2110257 has population \"many\", not a whole number")
        lines = Self.seed
        lines[6] = lines[5]
        #expect(Self.error(lines) == "seed.sql: line 7: city 2110257 appears twice")
        #expect(Self.error(["(1, 'x')"]) == "seed.sql: line 1: a values row outside an insert into public.cities or public.countries")
    }
}

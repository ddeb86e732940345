// seed.sql: the rows, loaded after the migrations. Loading it again changes nothing; loading a
// newer one adds new cities, updates changed ones and marks (never deletes) the cities that
// left the source, so no user_city row ever loses its city.

import GeoModel
import GeoFormats

extension CitiesStage {
    /// One row of the countries table.
    public struct CountryRow: Sendable, Equatable {
        public var id: Int64
        public var name: String
        public var code: String
        public var capital: String?
        public var continent: String
        public var population: Int64?
    }

    /// One row of the cities table.
    public struct CityRow: Sendable, Equatable {
        public var id: Int64
        public var displayName: String
        public var plainName: String
        public var admin: String?
        public var country: String
        public var countryID: Int64
        public var population: Int64
        public var latitude: Double
        public var longitude: Double
        public var altNames: [String]
        /// The other names people use (ranked above the rest of altNames by the search).
        public var commonNames: [String] = []
        /// The GeoNames id the search offers instead: the same place listed twice.
        public var sameAs: Int64? = nil
        /// The names in other scripts (Москва, 東京).
        public var scriptNames: [String] = []
        /// The abbreviations people use (NYC, L.A.): isAbbreviation.
        public var abbreviations: [String] = []
    }

    /// Rows per INSERT statement: big enough that parsing is cheap, small enough to read.
    static let batchRows = 1000

    static let countryColumns = ["name", "country_code", "capital", "continent", "population"]
    static let cityColumns = ["display_name", "plain_name", "admin", "country", "country_id", "population", "latitude", "longitude", "alt_names", "common_names", "same_as", "script_names", "abbreviations"]

    /// `on conflict` clause that rewrites a row only when one of `columns` differs (so a
    /// reload with nothing changed leaves every row, its xmin and its created_at, untouched).
    static func upsert(_ columns: [String], extraSet: String, extraWhere: String) -> String {
        "on conflict (id) do update set " + columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ") + extraSet + "\n"
            + "  where (" + columns.map { "t.\($0)" }.joined(separator: ", ") + ")\n"
            + "    is distinct from (" + columns.map { "excluded.\($0)" }.joined(separator: ", ") + ")" + extraWhere + ";\n"
    }

    static func text(_ s: String?) throws -> String {
        guard let s, !s.isEmpty else { return "null" }
        return try SQL.literal(s)
    }

    /// The seed: countries, then cities, in id order, one row per line ("(id, …),").
    public static func seed(countries: [CountryRow], cities: [CityRow], qualifiers: [QualifierRow] = [], header: [String]) throws -> String {
        var out = ""
        out.reserveCapacity(cities.count * 200 + 100_000)
        for line in header { out += SQL.comment(line) + "\n" }
        out += """

        begin;
        -- The trigram index takes the new keys into its pending list and merges them once at
        -- the end (gin_clean_pending_list), much faster than row by row.
        set local gin_pending_list_limit = '64MB';


        """
        let countries = countries.sorted { $0.id < $1.id }
        out += "insert into public.countries as t (id, \(countryColumns.joined(separator: ", "))) values\n"
        for (i, c) in countries.enumerated() {
            out += "(\(c.id), \(try SQL.literal(c.name)), \(try SQL.literal(c.code)), \(try text(c.capital)), \(try SQL.literal(c.continent)), \(c.population.map(String.init) ?? "null"))"
            out += i == countries.count - 1 ? "\n" : ",\n"
        }
        out += upsert(countryColumns, extraSet: ", in_source = true", extraWhere: " or not t.in_source")
        out += "-- Countries no longer in the app's set stay (cities may point at them), marked.\n"
        out += "update public.countries set in_source = false\n where in_source and id <> all ('{"
            + countries.map { String($0.id) }.joined(separator: ",") + "}'::bigint[]);\n\n"

        let cities = cities.sorted { $0.id < $1.id }
        // The rows go into a byte buffer: 34,000 rows of string interpolation cost seconds.
        var rows: [UInt8] = []
        rows.reserveCapacity(cities.count * 200)
        func add(_ s: String) { rows.append(contentsOf: s.utf8) }
        func appendText(_ s: String?) throws {   // `text(s)`, straight into the buffer
            if let s, !s.isEmpty { try SQL.appendLiteral(s, to: &rows) } else { add("null") }
        }
        var start = 0
        while start < cities.count {
            let end = min(start + batchRows, cities.count)
            add("insert into public.cities as t (id, \(cityColumns.joined(separator: ", "))) values\n")
            for i in start..<end {
                let c = cities[i]
                add("("); add(String(c.id)); add(", "); try SQL.appendLiteral(c.displayName, to: &rows); add(", ")
                try SQL.appendLiteral(c.plainName, to: &rows); add(", "); try appendText(c.admin); add(", ")
                try SQL.appendLiteral(c.country, to: &rows); add(", "); add(String(c.countryID)); add(", "); add(String(c.population)); add(", ")
                add(String(c.latitude)); add(", "); add(String(c.longitude)); add(", ")
                try appendText(c.altNames.joined(separator: "|")); add(", "); try appendText(c.commonNames.joined(separator: "|")); add(", ")
                add(c.sameAs.map { String($0) } ?? "null"); add(", "); try appendText(c.scriptNames.joined(separator: "|")); add(", ")
                try appendText(c.abbreviations.joined(separator: "|")); add(i == end - 1 ? ")\n" : "),\n")
            }
            add(upsert(cityColumns, extraSet: ", retired_at = null", extraWhere: " or t.retired_at is not null"))
            start = end
        }
        out += String(decoding: rows, as: UTF8.self)
        out += """

        -- Cities that left the source are kept (a user_city row may point at them) and marked;
        -- one that comes back is unmarked by the upsert above.
        update public.cities set retired_at = now()
         where retired_at is null and id not in (select unnest(

        """
        out += "'{" + cities.map { String($0.id) }.joined(separator: ",") + "}'::bigint[]));\n"
        out += """
        do $$ begin perform gin_clean_pending_list('public.cities_search_keys_trgm'::regclass); end $$;

        -- What may follow a city in a query: the rows below, added when new, removed when gone.
        create temp table city_qualifiers_new (name text, country_id bigint, admin text) on commit drop;

        """
        if !qualifiers.isEmpty {
            out += "insert into city_qualifiers_new (name, country_id, admin) values\n"
            out += try qualifiers.map { "(\(try SQL.literal($0.name)), \($0.countryID), \(try SQL.literal($0.admin)))" }.joined(separator: ",\n") + ";\n"
        }
        out += """
        delete from public.city_qualifiers q
         where not exists (select 1 from city_qualifiers_new n where (n.name, n.country_id, n.admin) = (q.name, q.country_id, q.admin));
        insert into public.city_qualifiers (name, country_id, admin) select name, country_id, admin from city_qualifiers_new
        on conflict do nothing;
        commit;

        """
        return out
    }
}

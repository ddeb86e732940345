import CitiesSchema
import GeoModel
import GeoPostgres
import NightDatabase

/// The city-ranking app (CONTRACTS §7): the cities stage's migration and seed in the night's
/// transaction. The seed never deletes a city (a user_city row may point at it): a city that
/// left the source is marked retired.
struct CitiesNight: AppNight {
    var seed: String
    var inputs: [String] { [seed] }

    /// What the cities migration makes (the catalogs, no table lock): the tables with their
    /// generated search keys and row-level security, user_city, the search function and index.
    static let migrationPresent = """
        select \(Migrations.readPoliciesPresent(["public.countries": "countries_read", "public.cities": "cities_read"]))
           and (select count(*) from pg_attribute where attrelid = to_regclass('public.cities')
                  and attname in ('retired_at', 'name_key', 'search_keys') and not attisdropped) = 3
           and to_regclass('public.user_city') is not null
           and to_regclass('public.cities_search_keys_trgm') is not null
           and to_regprocedure('public.search_cities(text, integer)') is not null
        """

    /// What the search migration makes: the ranking's columns, the typo index, city_near and the
    /// search that uses it (the first migration, applied again, puts back its own search).
    static let searchMigrationPresent = """
        select (select count(*) from pg_attribute where attrelid = to_regclass('public.cities')
                  and attname in ('common_names', 'same_as', 'common_keys', 'fuzzy_keys') and not attisdropped) = 4
           and to_regclass('public.cities_fuzzy_keys_trgm') is not null
           and to_regprocedure('public.city_near(text)') is not null
           and position('city_near' in pg_get_functiondef(to_regprocedure('public.search_cities(text, integer)'))) > 0
        """

    /// What the migration of issue #40 makes: its columns, the keys' and the qualifiers' tables
    /// with their read policies, the triggers that key names, and its search (the earlier
    /// migrations, applied again, put back their own).
    static let everyScriptMigrationPresent = """
        select \(Migrations.readPoliciesPresent(["public.city_names": "city_names_read", "public.city_qualifiers": "city_qualifiers_read"]))
           and (select count(*) from pg_attribute where attrelid = to_regclass('public.cities')
                  and attname in ('script_names', 'abbreviations') and not attisdropped) = 2
           and (select count(*) from pg_trigger where tgrelid = to_regclass('public.cities')
                  and tgname in ('cities_names_insert', 'cities_names_update')) = 2
           and to_regprocedure('public.city_fold_script(text)') is not null
           and coalesce(position('city_qualifiers' in pg_get_functiondef(to_regprocedure('public.search_cities(text, integer)'))) > 0, false)
        """

    func apply(_ db: PostgresConnection, dryRun: Bool, log: StageLog) throws -> String {
        let statements = try SQLScript.withoutTransaction(try FileIO.readText(seed), source: seed)
        try Migrations.apply(db, app: "cities", name: CitiesSchema.migrationName, sql: CitiesSchema.migration,
                             present: Self.migrationPresent, log: log)
        try Migrations.apply(db, app: "cities", name: CitiesSchema.searchMigrationName, sql: CitiesSchema.searchMigration,
                             present: Self.searchMigrationPresent, log: log)
        try Migrations.apply(db, app: "cities", name: CitiesSchema.everyScriptMigrationName, sql: CitiesSchema.everyScriptMigration,
                             present: Self.everyScriptMigrationPresent, log: log)
        try log.step("cities: load \(seed)") { try db.execute(statements, name: seed) }
        // Rows this transaction wrote carry its id as xmin: a rerun writes none.
        let counts = try db.query("""
            select (select count(*) from public.countries where xmin::text = (pg_current_xact_id()::text::bigint % 4294967296)::text),
                   (select count(*) from public.cities where xmin::text = (pg_current_xact_id()::text::bigint % 4294967296)::text),
                   (select count(*) from public.cities where retired_at is not null),
                   (select count(*) from public.cities)
            """).first ?? []
        let c = counts.map { $0 ?? "?" }
        return "\(c[0]) countries and \(c[1]) cities \(dryRun ? "would be " : "")written; \(c[3]) cities (\(c[2]) retired, kept for the users who point at them)"
    }
}

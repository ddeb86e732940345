// The SQL the city-ranking app's database gets (CONTRACTS §7): one migration (tables, search,
// row-level security) and an idempotent seed. Every value goes through SQL.literal.

import GeoModel
import GeoFormats

extension CitiesSchema {
    /// The migration's file name: the timestamp orders it among the app's other migrations and
    /// is its version for the Supabase CLI, so it must differ from every other migration's (the
    /// challenges stage's among them). A change to the schema is a new migration file,
    /// never an edit of this one once shipped.
    public static let migrationName = EmbeddedFiles.migration("cities").name

    public static let attribution = "Contains data from GeoNames (www.geonames.org), CC BY 4.0."

    /// One migration file of the app's migrations folder.
    public struct Migration: Sendable, Equatable {
        public var name: String
        public var sql: String
    }

    /// The stage's migrations, in the order they apply (their names' order): the files of
    /// `Migrations/`, compiled in by the EmbedFiles plugin (Package.swift), each named once, by its file.
    public static let migrations = EmbeddedFiles.migrations.map { Migration(name: $0.name, sql: $0.text) }

    /// The tables, search and row-level security (`cities`).
    public static let migration = EmbeddedFiles.migration("cities").text

    /// The search that ranks what people mean (issue #33): a migration of its own, since the
    /// first one is shipped (the Supabase CLI applies each file once).
    public static let searchMigrationName = EmbeddedFiles.migration("cities_search").name

    public static let searchMigration = EmbeddedFiles.migration("cities_search").text

    /// Names in every script, abbreviations and qualified queries (issue #40): the search's
    /// third migration, its header the rules and weights.
    public static let everyScriptMigrationName = EmbeddedFiles.migration("cities_every_script").name

    public static let everyScriptMigration = EmbeddedFiles.migration("cities_every_script").text
}

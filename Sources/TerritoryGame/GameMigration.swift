/// The running game's own migrations (CONTRACTS §8a, §8b): the files of `Migrations/`, compiled
/// in by the EmbedFiles plugin (Package.swift), each named `<version>_<title>.sql` once, by its
/// file. The stage writes them to `<migrations dir>/<name>` (Supabase CLI layout); the nightly job
/// applies the same texts to a live database before it loads a night, in the same order (their
/// names'). Each adds to the game's tables (§8) and never removes a column the app uses; applying
/// one twice changes nothing (`if not exists`, `or replace`, policies dropped and made again in one
/// transaction, behind an advisory lock). Each file's header comment is its contract.
public enum GameMigration {
    /// Every migration of the game, in the order they are applied (their names' order).
    public static let all: [(name: String, sql: String)] = EmbeddedFiles.migrations.map { (name: $0.name, sql: $0.text) }

    /// The territory served by viewport (`territory_viewport`): territory_hex.cell, which the
    /// night's territory_hex.sql writes, `territory_in_viewport`, the runner stats, row-level
    /// security. The first, so its version is fixed before every other's.
    public static let name = EmbeddedFiles.migration("territory_viewport").name
    public static let sql = EmbeddedFiles.migration("territory_viewport").text
}

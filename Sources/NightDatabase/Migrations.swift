import GeoDigest
import GeoModel
import GeoPostgres

/// An app's migration, applied inside its night's transaction once per version of its text.
/// Applying one takes ACCESS EXCLUSIVE locks on its tables (ALTER TABLE, a policy made), which
/// would hold the app's own reads — the map's viewport, the quiz — until the night commits; so
/// each applied migration's name and SHA-256 go into geodata.migrations, and a night that finds
/// the same text recorded leaves the tables unlocked — provided what the migration makes is still
/// there (`present`, read from the catalogs, which takes no table lock): a table dropped and made
/// again by hand, a column or a policy dropped, row-level security turned off, and the next night
/// applies it again. Deleting a row makes the next night apply that migration again too (every
/// migration here is safe to apply twice).
public enum Migrations {
    /// geodata.migrations: each applied migration's name, SHA-256 and time (SQL/geodata_migrations.sql).
    public static let schema = EmbeddedFiles.geodata_migrations_sql

    /// A `present` query's part (SQL, a boolean, never null): row-level security is on for each
    /// table named, and each has its read policy of that name.
    public static func readPoliciesPresent(_ policies: KeyValuePairs<String, String>) -> String {
        let tables = policies.map { "to_regclass('\($0.key)')" }.joined(separator: ", ")
        let named = policies.map { "(polrelid = to_regclass('\($0.key)') and polname = '\($0.value)')" }.joined(separator: "\n     or ")
        return """
            coalesce((select bool_and(relrowsecurity) and count(*) = \(policies.count) from pg_class where oid in (\(tables))), false)
               and (select count(*) from pg_policy where \(named)) = \(policies.count)
            """
    }

    /// Applies `sql` (named `name`, as in the Supabase CLI's migrations folder) unless this text
    /// is recorded as applied and `present` (a query of one boolean) finds what it makes, what
    /// the night and the app rely on; says which in the log.
    public static func apply(_ db: PostgresConnection, app: String, name: String, sql: String, present: String, log: StageLog) throws {
        let sha = SHA256.hex(of: sql.utf8)
        if try db.query("select sha256 from geodata.migrations where name = $1", [name]).scalar == sha {
            if try db.query(present).scalar == "t" {
                log.info("\(app): the migration \(name) is applied (geodata.migrations)")
                return
            }
            log.info("\(app): the migration \(name) is recorded in geodata.migrations, but \(db.target) lacks part of what it makes (a table made again, a column, policy or row-level security dropped?): applying it again")
        }
        try log.step("\(app): apply the migration \(name)") {
            try db.execute(sql, name: "the \(app) migration \(name)")
            try db.query("""
                insert into geodata.migrations (name, sha256, applied_at) values ($1, $2, now())
                on conflict (name) do update set sha256 = excluded.sha256, applied_at = excluded.applied_at
                """, [name, sha])
        }
    }
}

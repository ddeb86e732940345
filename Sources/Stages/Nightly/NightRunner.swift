import Foundation
import GeoModel
import GeoPostgres
import NightDatabase
import SeededRandom

/// The frame every app's night runs in: connect, one transaction, the advisory lock, the app's
/// work, the record in geodata.nights, commit (or roll back for a dry run). A failure rolls the
/// app back and is recorded (status failed) in a transaction of its own, behind the lock, when the server is
/// reachable.
struct NightRunner {
    var app: String
    var url: String
    var options: NightlyStage.Options
    var log: StageLog

    /// The app's advisory lock: one night of an app at a time in a database.
    var lockKey: Int64 { Int64(bitPattern: SplitMix64.hash("geo-nightly/" + app)) }

    func run(_ night: inout AppNight) throws -> String {
        let started = Date()
        let db = try log.step("\(app): connect") { try PostgresConnection(url) }
        log.info("\(app): connected to \(db.target)")
        let digest = try inputsDigest(night.inputs)
        do {
            let line: String = try db.transaction(commit: !options.dryRun) {
                try db.query("set local timezone = 'UTC'")
                try db.advisoryXactLock(lockKey, wait: options.wait) { holder in
                    log.info("\(app): another night of \(app) is running on \(db.target) (server process \(holder)); \(options.wait ? "waiting for it to finish" : "stopping")")
                }
                try db.execute(NightsTable.schema + Migrations.schema, name: "geodata.nights and geodata.migrations")
                let summary = try night.apply(db, dryRun: options.dryRun, log: log)
                if options.dryRun {
                    return "\(app): dry run on \(db.target): \(summary); nothing changed"
                }
                try NightsTable.record(db, app: app, started: started, status: "ok", summary: summary,
                                       inputs: try digest.value(), commit: options.pipelineCommit)
                return "\(app): ok on \(db.target): \(summary)"
            }
            return line
        } catch {
            // The app's transaction is rolled back; say so in the record when the server answers.
            if !options.dryRun, !(error is PostgresError && (error as! PostgresError).kind == .busy) {
                _ = try? db.transaction {
                    try db.advisoryXactLock(lockKey, wait: options.wait)   // geodata.nights is written behind the lock too
                    try db.execute(NightsTable.schema, name: "geodata.nights")
                    try NightsTable.record(db, app: app, started: started, status: "failed", summary: db.target.scrub("\(error)"),
                                           inputs: (try? digest.value()) ?? "unknown", commit: options.pipelineCommit)
                }
            }
            throw error
        }
    }
}

/// geodata.nights (CONTRACTS §9): one row per app per night, in the app's own database.
enum NightsTable {
    /// Made once. A night whose schema and tables exist writes no catalog row here: two apps'
    /// nights may run at once in one database (each behind its own lock), and a GRANT or REVOKE
    /// run by both would make the second wait for the first's commit, then fail ("tuple
    /// concurrently updated").
    /// The first nights of two apps in a fresh database would both create the schema: the one
    /// that finds geodata's tables missing takes `Geodata.creationLock` (until it commits) before looking.
    /// (SQL/geodata_nights.sql; the number it locks is `Geodata.creationLock`, a test holds them equal.)
    static let schema = EmbeddedFiles.geodata_nights_sql

    static func record(_ db: PostgresConnection, app: String, started: Date, status: String, summary: String,
                       inputs: String, commit: String) throws {
        try db.query("""
            insert into geodata.nights (app, started_at, finished_at, status, summary, inputs_sha256, pipeline_commit)
            values ($1, to_timestamp($2::double precision), clock_timestamp(), $3, $4, $5, $6)
            """, [app, String(started.timeIntervalSince1970), status, summary, inputs, commit])
    }
}

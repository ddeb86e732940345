import Foundation
import GeoModel
import GeoPostgres
import NightDatabase
import TerritoryGame

/// The runs the app submitted (`submit_run`, CONTRACTS §8b) that nobody has judged yet: rows
/// of `runs` with a `submission` and no `judged_at`. The follower (`make territory-follow`) and
/// the night (`make nightly` without a runs file) judge them with this code, which is the
/// night's: the submissions of a batch are read as one FeatureCollection by the night's run
/// reader and judged by the night's rules (`TerritoryGame.nightRuns`).
///
/// Any number of workers and a night at once: a batch claims its runs with
/// `for no key update skip locked` (a run another worker holds is skipped, not waited for; a
/// run judged meanwhile no longer matches when the server rechecks the row it locks), and
/// sets `judged_at` in the same transaction. A worker killed at any moment rolls back: its
/// runs are pending again, for the next batch of any worker. `no key update` rather than
/// `update`: it does not block the foreign-key checks (`key share`) of a territory_hex row
/// that points at the run.
public enum PendingRuns {
    /// The channel `submit_run` notifies with each run's id after it stores it.
    public static let channel = "territory_runs"

    /// One claimed run: its row's id and runner, its submission as stored (JSON text), how
    /// long ago it was submitted (seconds, by the server's clock), when the server received it
    /// (created_at, µs) and its arrival (CONTRACTS §8c: its claims' time and order).
    public struct Claimed: Sendable {
        public var id: String
        public var userID: String
        public var submission: String
        public var age: Double
        public var received: Int64?
        public var arrival: Int64
    }

    /// A batch, judged and written (the runs' judged columns and judged_at), its cells not yet.
    public struct Batch: Sendable {
        public var runs: [TerritoryGame.NightRun] = []
        /// Run id and reason of each run the night's reader refused (marked judged, not valid).
        public var quarantined: [(id: String, reason: String)] = []
        public var claimed = 0
        /// How long the oldest claimed run had waited when the batch claimed it (seconds).
        public var oldestAge: Double? = nil
        public var valid: Int { runs.reduce(0) { $0 + ($1.valid ? 1 : 0) } }
        public init() {}

        /// Another batch's runs added to this one's (runs judged one by one).
        mutating func add(_ b: Batch) {
            runs += b.runs; quarantined += b.quarantined; claimed += b.claimed
            if let a = b.oldestAge { oldestAge = max(oldestAge ?? a, a) }
        }
    }

    /// The oldest pending runs first (the partial index on `created_at` where pending finds them).
    static let claimSQL = """
        select id::text, user_id::text, submission::text, extract(epoch from clock_timestamp() - created_at)::float8,
               (extract(epoch from created_at) * 1000000)::bigint, coalesce(arrival, 0)
          from runs where judged_at is null and submission is not null
         order by created_at
         limit $1
           for no key update skip locked
        """

    /// One pending run by its id, claimed as `claimSQL` claims (none: judged meanwhile, or held).
    static let claimOneSQL = """
        select id::text, user_id::text, submission::text, extract(epoch from clock_timestamp() - created_at)::float8,
               (extract(epoch from created_at) * 1000000)::bigint, coalesce(arrival, 0)
          from runs where id = $1::uuid and judged_at is null and submission is not null
           for no key update skip locked
        """

    /// The session's scratch tables for a batch's judged runs and cells (emptied at each
    /// commit; made once per connection; the copied loops stay uncompressed there: they are
    /// compressed once, in runs, with lz4 where the server has it, as the night does), and
    /// geodata.quarantined_runs: each pending run the night's reader refused, with the reason,
    /// so it is marked judged instead of being tried again forever (the app's own row says
    /// `valid_loop` false).
    /// (SQL/session_tables.sql; the number it locks is `Geodata.creationLock`, a test holds them equal.)
    public static let sessionTables = EmbeddedFiles.session_tables_sql

    /// In the caller's transaction: claims up to `limit` pending runs, judges them, writes their
    /// judged columns and `judged_at`, marks the quarantined ones, then calls `after` with the
    /// batch (the follower writes its cells there). A pending run never stops judging: however
    /// many of a batch the night's reader refuses, each is quarantined alone (`--max-rejects` is
    /// for files, never for runs from phones). A batch that fails for what one of its runs may be
    /// at fault for (`mayBeARunsFault`: a value, a geometry, a constraint the server refuses) is
    /// rolled back to its savepoint and tried once more, then its runs one by one, each in its own
    /// savepoint; a run that still fails is quarantined with its error. Anything else (the
    /// connection, a permission, a deadlock) is thrown: the runs stay pending.
    public static func judgeBatch(_ db: PostgresConnection, limit: Int, threads: Int,
                                  log: (String) -> Void = { _ in }, after: (Batch) throws -> Void = { _ in }) throws -> Batch {
        var claimedIDs: [String] = []
        for attempt in 1...2 {
            try db.query("savepoint pending_batch")
            do {
                let claimed = try claim(db, claimSQL, [String(limit)])
                claimedIDs = claimed.map(\.id)
                let batch = try judgeAndWrite(db, claimed, threads: threads)
                try after(batch)
                try db.query("release savepoint pending_batch")
                return batch
            } catch where mayBeARunsFault(error) {
                try db.query("rollback to savepoint pending_batch")
                log("a batch of \(claimedIDs.count) runs failed (\(reason(error))); "
                    + (attempt == 1 ? "rolled back, trying it again" : "rolled back, judging its runs one by one"))
            }
        }
        var total = Batch()
        for id in claimedIDs {
            try db.query("savepoint pending_run")
            do {
                let claimed = try claim(db, claimOneSQL, [id])
                let b = try judgeAndWrite(db, claimed, threads: 1)
                try after(b)
                try db.query("release savepoint pending_run")
                total.add(b)
            } catch where mayBeARunsFault(error) {
                try db.query("rollback to savepoint pending_run")
                // Locked again (skipped when another worker judged it meanwhile): quarantined alone.
                guard try !claim(db, claimOneSQL, [id]).isEmpty else { continue }
                var b = Batch()
                b.claimed = 1
                b.quarantined = [(id, "judging the run failed: \(reason(error))")]
                try write(db, b)
                total.add(b)
            }
        }
        return total
    }

    /// The claimed rows of `sql` (claimSQL, claimOneSQL).
    static func claim(_ db: PostgresConnection, _ sql: String, _ params: [String]) throws -> [Claimed] {
        try db.query(sql, params).rows.map {
            Claimed(id: $0[0] ?? "", userID: $0[1] ?? "", submission: $0[2] ?? "null", age: Double($0[3] ?? "") ?? 0,
                    received: $0[4].flatMap { Int64($0) }, arrival: Int64($0[5] ?? "") ?? 0)
        }
    }

    /// The claimed runs judged and written (not their cells).
    static func judgeAndWrite(_ db: PostgresConnection, _ claimed: [Claimed], threads: Int) throws -> Batch {
        var batch = Batch()
        batch.claimed = claimed.count
        guard !claimed.isEmpty else { return batch }
        batch.oldestAge = claimed.map(\.age).max()
        try judge(claimed, threads: threads, into: &batch)
        try write(db, batch)
        return batch
    }

    /// Whether an error judging or writing a batch may be one of its runs' doing, so that its runs
    /// are judged one by one and a run that still fails is quarantined: any error of the judging
    /// code, and the server's refusal of a value (class 22), a constraint (23) or an internal
    /// error (XX000: PostGIS's geometry errors). Not the connection, a permission, a missing
    /// object, a deadlock or the server's resources: those are no run's fault, and would
    /// quarantine every run.
    public static func mayBeARunsFault(_ error: Error) -> Bool {
        guard let e = error as? PostgresError else { return true }
        guard e.kind == .query || e.kind == .copy, let s = e.sqlState else { return false }
        return s.hasPrefix("22") || s.hasPrefix("23") || s == "XX000"
    }

    /// An error in a quarantine's reason or a log line: the server's message without the target,
    /// at most 300 characters.
    static func reason(_ error: Error) -> String {
        let text: String
        if let e = error as? PostgresError { text = e.message + (e.sqlState.map { " [SQLSTATE \($0)]" } ?? "") } else { text = "\(error)" }
        return text.count > 300 ? String(text.prefix(299)) + "…" : text
    }

    /// The submissions as one FeatureCollection, read and judged by the night's code. A
    /// submission the reader refuses, or whose id or runner is not its row's, is quarantined.
    static func judge(_ claimed: [Claimed], threads: Int, into batch: inout Batch) throws {
        let source = "pending runs"
        var bytes: [UInt8] = []
        bytes.reserveCapacity(claimed.reduce(64) { $0 + $1.submission.utf8.count + 1 })
        bytes.append(contentsOf: #"{"type":"FeatureCollection","features":["#.utf8)
        for (i, c) in claimed.enumerated() {
            if i > 0 { bytes.append(0x2C) }
            bytes.append(contentsOf: c.submission.utf8)
        }
        bytes.append(contentsOf: "]}".utf8)
        let read: RunsReader.Read<TerritoryGame.NightRun?>
        do {
            read = try bytes.withUnsafeBufferPointer { try TerritoryGame.nightRuns($0, file: source, shard: nil, threads: threads) }
        } catch where claimed.count > 1 {
            // A submission that breaks the whole collection (not a JSON object, say): each run
            // alone, so that only that one is quarantined.
            for c in claimed { try judge([c], threads: 1, into: &batch) }
            return
        } catch {
            batch.quarantined.append((claimed[0].id, "\(error)"))
            return
        }
        for r in read.rejected { batch.quarantined.append((claimed[r.index].id, r.reason)) }
        for r in read.runs {
            guard let run = r.value else { continue }
            let row = claimed[r.index]
            if run.id != row.id {
                batch.quarantined.append((row.id, "the submission's id \(run.id) is not its row's id"))
            } else if run.userID != row.userID {
                batch.quarantined.append((row.id, "properties.user_id \(run.userID) is not the run's runner \(row.userID)"))
            } else {
                // Fair time: its claims at its end capped at its submission, in arrival order.
                var run = run
                run.claimedAt = TerritoryGame.claimTime(endedAt: run.endedAt, received: row.received)
                run.arrival = row.arrival
                batch.runs.append(run)
            }
        }
    }

    /// The judged columns of `batch.runs` (binary COPY of the night's rows, the path left out:
    /// submit_run stored it) and `judged_at`; the quarantined runs judged, not valid, with
    /// their reason in geodata.quarantined_runs.
    static func write(_ db: PostgresConnection, _ batch: Batch) throws {
        if !batch.runs.isEmpty {
            let nullField: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
            try db.copyIn("copy judged_runs (\(TerritoryGame.nightRunColumns)) from stdin", binary: true) { w in
                for r in batch.runs {
                    if let path = r.pathField {
                        try w.row(r.copyRow[..<path.lowerBound], nullField[...], r.copyRow[path.upperBound...])
                    } else {
                        try w.row(r.copyRow)
                    }
                }
            }
            try db.query("""
                update runs r set distance_m = j.distance_m, duration_s = j.duration_s, valid_loop = j.valid_loop,
                                  loop_polygon = j.loop_polygon, judged_at = clock_timestamp()
                  from judged_runs j where r.id = j.id
                """)
        }
        for q in batch.quarantined {
            try db.query("""
                update runs set judged_at = clock_timestamp(), valid_loop = false, distance_m = null, duration_s = null,
                                loop_polygon = null where id = $1::uuid
                """, [q.id])
            try db.query("""
                insert into geodata.quarantined_runs (run_id, reason, judged_at) values ($1::uuid, $2, clock_timestamp())
                on conflict (run_id) do update set reason = excluded.reason, judged_at = excluded.judged_at
                """, [q.id, q.reason])
        }
    }

    /// Runs judged from a file (the night's import or replay) marked judged, so that no
    /// follower judges them again; a database without `judged_at` (before the game's
    /// migration that adds submit_run) has nothing pending.
    public static func markJudged(_ db: PostgresConnection, _ ids: [String]) throws {
        guard !ids.isEmpty, try db.query("""
            select 1 from pg_attribute where attrelid = to_regclass('runs') and attname = 'judged_at' and not attisdropped
            """).first != nil else { return }
        try db.query("update runs set judged_at = clock_timestamp() where id = any($1::uuid[]) and judged_at is null",
                     ["{" + ids.joined(separator: ",") + "}"])
    }

    /// The claims of the batch's valid runs folded by the one ownership order (each cell once:
    /// one statement may not change a row twice).
    public static func claims(_ runs: [TerritoryGame.NightRun], into t: inout Territory) {
        TerritoryGame.fold(runs.lazy.filter(\.valid).map(\.claiming), into: &t)
    }

    /// Upserts `won` (sorted by cell) into territory_hex with the night's rule: a cell changes
    /// hands only to a claim that beats the stored one by (claimed_at, the run's arrival), so a
    /// run submitted late after days offline never takes a cell from a later run, and workers
    /// in any order converge. The rows go in hex_id order: two workers lock shared cells in the
    /// same order and cannot deadlock on them. The boundaries of the coarse cells they fall in
    /// go first, as the night writes them, so that the zoom levels' trigger draws them exactly
    /// (ZoomMigration). The zoom levels' pass runs in the upsert's own statement, not deferred to
    /// `territory_zoom_flush()`: with the deferral, check_follow's two followers (one killed -9
    /// mid-batch) once ended with a territory_hex unlike one night's, cause not found. Returns the
    /// rows written.
    @discardableResult
    public static func writeCells(_ db: PostgresConnection, _ won: [Claim]) throws -> Int {
        guard !won.isEmpty else { return 0 }
        try TerritoryNight.writeZoomShapes(db, won: won.map(\.cell))
        try db.copyIn("copy judged_cells from stdin") { w in
            for c in won { try w.row(try TerritoryGame.copyRow(c)) }
        }
        return try db.query("""
            insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell)
            select hex_id, owner_user_id, last_run_id, claimed_at, cell from judged_cells order by hex_id
            \(TerritoryGame.cellsConflict)
            """).affected
    }
}

import Foundation
import GeoModel
import GeoPostgres
import TerritoryGame
import TerritoryPostgres

/// The follower's loop: connect and LISTEN; judge batches while runs are pending; then wait for
/// a notification, or the poll, or a stop. A lost connection is made again with a doubling
/// back-off; a deadlock or serialization failure redoes the batch; a stop finishes the batch.
struct Follower {
    var options: TerritoryFollowStage.Options
    var log: StageLog
    var stop: StopRequest
    var report = TerritoryFollowStage.Report()

    init(options: TerritoryFollowStage.Options, log: StageLog, stop: StopRequest) {
        self.options = options; self.log = log; self.stop = stop
    }

    mutating func run() throws -> TerritoryFollowStage.Report {
        var backoff = 0.5
        var everConnected = false
        while true {
            if let s = stop.requested { report.stoppedBy = s; return report }
            let db: PostgresConnection
            do {
                db = try connect()
                everConnected = true
                backoff = 0.5
            } catch let e as PostgresError where e.kind == .connect {
                // A wrong password or database at the very start is a mistake to fix, not an outage.
                if !everConnected, ["28P01", "3D000"].contains(e.sqlState ?? "") { throw e }
                log.info("cannot connect (\(e)); trying again in \(Self.seconds(backoff))")
                if stop.sleep(backoff) { continue }
                backoff = min(backoff * 2, options.maxBackoff)
                report.reconnects += 1
                continue
            }
            do {
                if try follow(db) { return report }
            } catch let e as PostgresError where !db.isConnected || Self.isConnectionLoss(e) {
                log.info("connection to \(db.target) lost (\(e)); reconnecting in \(Self.seconds(backoff))")
                if !stop.sleep(backoff) { backoff = min(backoff * 2, options.maxBackoff) }
                report.reconnects += 1
            }
        }
    }

    /// A connection that listens on `PendingRuns.channel` with the session's scratch tables.
    func connect() throws -> PostgresConnection {
        let db = try PostgresConnection(options.databaseURL ?? "", applicationName: "geo-territory-follow")
        try db.query("set timezone = 'UTC'")
        try db.execute(PendingRuns.sessionTables, name: "the follower's tables")
        try db.listen(PendingRuns.channel)
        log.info("connected to \(db.target), listening on \(PendingRuns.channel)")
        return db
    }

    /// Batches while runs are pending, waits between; true when the follower is done (a stop,
    /// or nothing pending with --drain).
    mutating func follow(_ db: PostgresConnection) throws -> Bool {
        while true {
            if let s = stop.requested { report.stoppedBy = s; return true }
            // Notifications that came during the last batch are for runs it may have taken: they
            // are read (and dropped) before the next batch looks for what is still pending.
            _ = try db.notifications(waitingUpTo: 0)
            let claimed = try batch(db)
            if claimed == options.batch { continue }       // more may be pending
            if claimed > 0 { continue }                     // a short batch: look once more
            if options.drain { report.stoppedBy = "nothing pending (--drain)"; return true }
            // Nothing pending: wait for a submission's notification, the poll, or a stop.
            let end = Date().addingTimeInterval(options.poll)
            while stop.requested == nil, end.timeIntervalSinceNow > 0 {
                if !(try db.notifications(waitingUpTo: min(0.2, end.timeIntervalSinceNow))).isEmpty { break }
            }
        }
    }

    /// One batch, one transaction; redone (its runs still pending) after a deadlock or a
    /// serialization failure. Returns the runs claimed.
    mutating func batch(_ db: PostgresConnection) throws -> Int {
        var attempt = 0
        while true {
            let t0 = log.elapsed
            do {
                let (b, cells) = try db.transaction { () throws -> (PendingRuns.Batch, Int) in
                    let b = try PendingRuns.judgeBatch(db, limit: options.batch, threads: options.threads, maxRejects: options.maxRejects)
                    var t = Territory()
                    PendingRuns.claims(b.runs, into: &t)
                    return (b, try PendingRuns.writeCells(db, t.sorted))
                }
                if b.claimed > 0 {
                    report.batches += 1; report.runs += b.claimed; report.valid += b.valid
                    report.quarantined += b.quarantined.count; report.cells += cells
                    log.info("batch \(report.batches): \(b.claimed) run\(b.claimed == 1 ? "" : "s") judged (\(b.valid) valid loop\(b.valid == 1 ? "" : "s")"
                             + (b.quarantined.isEmpty ? "" : ", \(b.quarantined.count) quarantined: " + b.quarantined.prefix(3).map { "\($0.id) \($0.reason)" }.joined(separator: "; "))
                             + "), \(formatCount(cells)) cells written in \(Self.seconds(log.elapsed - t0)); the oldest waited \(Self.seconds(b.oldestAge ?? 0))")
                }
                return b.claimed
            } catch let e as PostgresError where db.isConnected && ["40P01", "40001"].contains(e.sqlState ?? "") && attempt < 5 {
                attempt += 1
                log.info("batch rolled back (\(e.message)); its runs are pending, trying again")
            }
        }
    }

    /// Errors after which the session is gone even if libpq has not noticed yet: the server
    /// shutting down or killing the backend (57P01–57P03), connection failures (08…).
    static func isConnectionLoss(_ e: PostgresError) -> Bool { isConnectionLoss(kind: e.kind, sqlState: e.sqlState) }

    static func isConnectionLoss(kind: PostgresError.Kind, sqlState: String?) -> Bool {
        guard let s = sqlState else { return kind == .connect }
        return s.hasPrefix("08") || s.hasPrefix("57P")
    }

    static func seconds(_ s: Double) -> String { s < 10 ? String(format: "%.2f s", s) : String(format: "%.0f s", s) }
}

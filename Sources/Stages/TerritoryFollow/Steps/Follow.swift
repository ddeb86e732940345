import Foundation
import GeoModel
import GeoPostgres
import StageContract
import TerritoryGame
import TerritoryPostgres

/// The follower's loop: connect and LISTEN; judge batches while runs are pending; then wait for
/// a notification, or the poll, or a stop. A lost connection is made again with a doubling
/// back-off; a deadlock or serialization failure redoes the batch; a stop finishes the batch. A
/// run that cannot be judged is quarantined alone (PendingRuns.judgeBatch); any other failure is
/// logged and tried again after the back-off: the follower stops only on SIGTERM or SIGINT (or
/// with --drain, or for a wrong password or database at the very start).
struct Follower {
    var options: TerritoryFollowStage.Options
    var log: StageLog
    var stop: StopRequest
    var report = TerritoryFollowStage.Report()
    var heartbeat: Heartbeat? = nil

    init(options: TerritoryFollowStage.Options, log: StageLog, stop: StopRequest) {
        self.options = options; self.log = log; self.stop = stop
    }

    mutating func run() throws -> TerritoryFollowStage.Report {
        let heartbeat = try options.heartbeat.map { try Heartbeat(path: $0) }
        self.heartbeat = heartbeat
        var backoff = 0.5
        var everConnected = false
        while true {
            if let s = stop.requested { report.stoppedBy = s; return report }
            alive()
            let db: PostgresConnection
            do {
                db = try connect()
                everConnected = true
                backoff = 0.5
            } catch let e as PostgresError where e.kind == .connect {
                // A wrong password or database at the very start is a mistake to fix, not an outage.
                if !everConnected, ["28P01", "3D000"].contains(e.sqlState ?? "") { throw e }
                log.info("cannot connect (\(e)); trying again in \(Self.seconds(backoff))")
                if pause(backoff) { continue }
                backoff = min(backoff * 2, options.maxBackoff)
                report.reconnects += 1
                continue
            } catch {
                // Connected, but the session's tables or LISTEN failed: logged, tried again (a
                // catch-up, --drain, fails instead: it must end).
                if options.drain { throw error }
                log.info("cannot set up the session (\(error)); trying again in \(Self.seconds(backoff))")
                report.failures += 1
                if !pause(backoff) { backoff = min(backoff * 2, options.maxBackoff) }
                continue
            }
            do {
                if try follow(db) { return report }
            } catch let e as PostgresError where !db.isConnected || Self.isConnectionLoss(e) {
                log.info("connection to \(db.target) lost (\(e)); reconnecting in \(Self.seconds(backoff))")
                if !pause(backoff) { backoff = min(backoff * 2, options.maxBackoff) }
                report.reconnects += 1
            } catch {
                // No run's fault (PendingRuns.judgeBatch quarantines those): a permission, a
                // missing object, deadlocks five times over. The batch rolled back, its runs are
                // pending; logged, and the follower starts again on a new connection after a back-off
                // (a catch-up, --drain, fails instead: it must end).
                if options.drain { throw error }
                log.info("batch failed (\(error)); its runs stay pending; starting again in \(Self.seconds(backoff))")
                report.failures += 1
                if !pause(backoff) { backoff = min(backoff * 2, options.maxBackoff) }
            }
        }
    }

    /// Touches the heartbeat file (at most once a second).
    func alive() { heartbeat?.touch() }

    /// Sleeps up to `seconds`, the heartbeat touched meanwhile; true when a stop was requested.
    func pause(_ seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while end.timeIntervalSinceNow > 0 {
            alive()
            if stop.sleep(min(1, end.timeIntervalSinceNow)) { return true }
        }
        return stop.requested != nil
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
            alive()
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
                alive()
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
                let log = self.log
                let (b, cells) = try db.transaction { () throws -> (PendingRuns.Batch, Int) in
                    var cells = 0
                    let b = try PendingRuns.judgeBatch(db, limit: options.batch, threads: options.threads, log: { log.info($0) }) { b in
                        var t = Territory()
                        PendingRuns.claims(b.runs, into: &t)
                        cells += try PendingRuns.writeCells(db, t.sorted)
                    }
                    return (b, cells)
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

/// The liveness probe's file (--heartbeat): its modification time is the last turn of the loop.
final class Heartbeat {
    let path: String
    private var last = 0.0

    /// Made (or touched) at once: a path that cannot be written is a mistake to fix at the start.
    init(path: String) throws {
        self.path = path
        guard write() else { throw OptionsError("--heartbeat \(path): cannot write the file (\(String(cString: strerror(errno))))") }
    }

    /// Touched, at most once a second.
    func touch() {
        let now = Date().timeIntervalSince1970
        guard now - last >= 1 else { return }
        _ = write()
    }

    private func write() -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard futimens(fd, nil) == 0 else { return false }
        last = Date().timeIntervalSince1970
        return true
    }
}

import GeoModel
import GeoPostgres
import TerritoryGame

extension TerritoryNight {
    /// The night without a runs file: the runs the app submitted that no follower has judged
    /// yet (CONTRACTS §8b), judged with the followers' code (`PendingRuns`, the night's reader
    /// and rules) in batches of `batch` inside the night's transaction, claimed with SKIP LOCKED
    /// beside any running follower. A run the reader refuses, or one that fails to judge, is
    /// quarantined alone (`PendingRuns.judgeBatch`; `--max-rejects` is for files). Their cells
    /// are folded by the one ownership order and written once, in hex_id order, at the end.
    /// Returns the summary line.
    func applyPending(_ db: PostgresConnection, dryRun: Bool, log: StageLog, batch: Int = 1000) throws -> String {
        try db.execute(PendingRuns.sessionTables, name: "the pending runs' tables")
        var territory = Territory()
        var runs = 0, valid = 0, quarantined = 0
        try log.step("territory: judge the pending runs") {
            while true {
                let b = try PendingRuns.judgeBatch(db, limit: batch, threads: threads, log: { log.info("territory: \($0)") })
                guard b.claimed > 0 else { break }
                runs += b.claimed; valid += b.valid; quarantined += b.quarantined.count
                for q in b.quarantined.prefix(5) { log.info("territory: quarantined run \(q.id): \(q.reason)") }
                PendingRuns.claims(b.runs, into: &territory)
                log.info("territory: \(formatCount(runs)) pending runs judged")
            }
        }
        // The map at every zoom checked (and repaired) first, as the file night does.
        let zoom = try log.step("territory: check the map at every zoom against territory_hex") {
            let drawn = try Self.writeZoomShapes(db, won: [], standIns: true)
            return (drawn, try db.query("select territory_zoom_repair()").scalar ?? "")
        }
        let written = try log.step("territory: claim \(formatCount(territory.cells.count)) cells") {
            try PendingRuns.writeCells(db, territory.sorted)
        }
        let filled = try log.step("territory: fill the boundary of stored cells without one") { try Self.fillMissingBoundaries(db) }
        let owned = Int(try db.query("select count(*) from territory_hex").scalar ?? "0") ?? 0
        let would = dryRun ? "would be " : ""
        return "\(formatCount(runs)) pending runs (\(formatCount(valid)) valid loops\(quarantined > 0 ? ", \(quarantined) quarantined" : "")): "
            + "\(runs) runs judged, \(written) cells \(would)written; \(formatCount(owned)) cells owned"
            + (filled > 0 ? "; \(formatCount(filled)) stored cells' boundaries \(would)filled" : "")
            + "; \(zoom.1)"
    }
}

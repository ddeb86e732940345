import Foundation
import GeoModel
import Parallelism
import StageContract

/// The game's runs claimed within seconds of their submission (CONTRACTS §8b, issue #32):
/// stays connected to the game's database, hears each `submit_run` through LISTEN/NOTIFY
/// (with a slow poll as a safety net), and judges the pending runs in batches with the
/// night's code and rules (TerritoryPostgres' `PendingRuns`), each batch one transaction.
/// Any number of followers and a night may run at once (docs/SCALING.md).
public enum TerritoryFollowStage: PipelineStage {
    public static let name = "follow"

    public struct Options: DeclaredOptions {
        /// libpq URI or conninfo: GAME_DATABASE_URL, else DATABASE_URL. From the environment
        /// only (the front), never the command line, where `ps` would show a password.
        public var databaseURL: String? = nil
        /// The most runs one batch (one transaction) claims.
        public var batch = 100
        /// Seconds between polls when no notification comes (a safety net: a notification is
        /// lost while the follower is disconnected).
        public var poll = 10.0
        /// Longest wait between reconnection attempts (the wait doubles from 0.5 s up to it).
        public var maxBackoff = 30.0
        /// Worker threads judging a batch.
        public var threads = Parallel.defaultWorkers
        /// Stop once no run is pending (a catch-up, or a bench's drain) instead of waiting.
        public var drain = false
        /// A file touched at every turn of the loop (at least once a second while waiting), for a
        /// liveness probe on its age (deploy/kubernetes/follower.yaml); nil: none.
        public var heartbeat: String? = nil
        public init() {}

        public static let urlVariables = ["GAME_DATABASE_URL", "DATABASE_URL"]

        public static let declared: [StageOption<Options>] = [
            .option("batch", \.batch, .within(1...10_000), help: "The most runs one batch (one transaction) claims."),
            .option("poll", \.poll, .within(0.1...3600), help: "Seconds between polls for pending runs when no notification comes."),
            .option("max-backoff", \.maxBackoff, .within(0.5...3600), help: "Longest wait in seconds between reconnection attempts."),
            .option("threads", \.threads, .atLeast(1), help: "Worker threads judging a batch."),
            .flag("drain", \.drain, help: "Stop once no run is pending instead of waiting for more."),
            .option("heartbeat", \.heartbeat,
                    help: "A file touched at every turn of the loop, at least once a second while waiting: a liveness probe checks its age."),
        ]

        /// The database, from the environment (GAME_DATABASE_URL, else DATABASE_URL).
        public mutating func readDatabaseURL(from environment: [String: String]) {
            databaseURL = Self.urlVariables.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }

        public func validateRules() throws {
            guard databaseURL != nil else {
                throw OptionsError("no database: set GAME_DATABASE_URL or DATABASE_URL (a libpq URI or conninfo) in the environment")
            }
        }
    }

    public struct Report: StageReport {
        public var batches = 0
        public var runs = 0
        public var valid = 0
        public var quarantined = 0
        public var cells = 0
        public var reconnects = 0
        /// Batches that failed for no run's fault (a permission, a missing object…), logged and
        /// tried again after a back-off: the follower never stops for them.
        public var failures = 0
        /// Why the follower stopped: a signal's name, or "nothing pending" (--drain).
        public var stoppedBy = ""
        public var summary: String {
            "\(formatCount(runs)) runs judged in \(formatCount(batches)) batches (\(formatCount(valid)) valid loops"
                + (quarantined > 0 ? ", \(formatCount(quarantined)) quarantined" : "") + "), \(formatCount(cells)) cells written"
                + (reconnects > 0 ? "; \(reconnects) reconnections" : "")
                + (failures > 0 ? "; \(failures) failed batches tried again" : "") + "; stopped by \(stoppedBy)"
        }
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        var follower = Follower(options: o, log: log, stop: StopRequest())
        return try follower.run()
    }
}

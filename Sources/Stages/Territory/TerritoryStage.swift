import GeoModel
import TerritoryGame
import TerritoryRules

/// Runs → validated loops → claimed H3 cells (CONTRACTS §8), for the running game's nightly job.
public enum TerritoryStage: PipelineStage {
    public static let name = "territory"

    public struct Options: DeclaredOptions {
        /// The runs FeatureCollection (CONTRACTS §8).
        public var input = "data/territory/runs.geojson"
        /// The current territory (`psql \copy territory_hex to … csv header`), for an
        /// incremental night; nil recomputes from the runs alone.
        public var existing: String? = nil
        public var outputDir = "dist/territory"
        /// `i/n` (0 ≤ i < n): this process handles the runs that start in the resolution-3
        /// cells of shard i (see `Shard`); nil handles everything.
        public var shard: String? = nil
        public var threads = Parallel.defaultWorkers
        public var rules = Rules()
        /// H3 resolution of the game's cells.
        public var resolution = 9
        /// Also write loops.geojson (every valid loop, all its lobes, and its cells: what the
        /// consumer check recomputes with h3-py). Off for a nightly job: no contract reader
        /// needs it and it is a third of a night's bytes.
        public var loopsGeoJSON = false
        /// More malformed runs than this stops the night (nothing written): a broken app
        /// release, not a bad phone. nil: 10 runs or 1 % of the night, whichever is larger.
        public var maxRejects: Int? = nil
        /// Also write the game's migration (`GameMigration`) into this directory (the Supabase
        /// CLI's `supabase/migrations`); nil: not.
        public var migrationDir: String? = nil
        /// Also write app_verdicts.tsv: what the app's TerritoryRules alone (no PROJ, no GEOS)
        /// says of each run — its verdict, reasons and cells — beside the night's runs.tsv.
        public var appVerdicts = false
        public init() {}

        /// The malformed runs a night of `features` runs may quarantine and still go on.
        public func allowedRejects(features: Int) -> Int { TerritoryGame.allowedRejects(maxRejects, features: features) }

        public static let declared: [StageOption<Options>] = [
            .argument("input", \.input, help: "The runs (GeoJSON FeatureCollection, CONTRACTS §8)."),
            .option("existing", \.existing, help: "The current territory (CSV hex_id,owner_user_id,last_run_id,claimed_at) for an incremental night."),
            .option("output-dir", short: "o", aliases: ["out-dir"], \.outputDir, help: "Directory for the outputs."),
            .option("shard", \.shard, help: "i/n: handle only shard i of n (runs split by the resolution-3 cell they start in)."),
            .option("threads", \.threads, .atLeast(1), help: "Worker threads."),
            .flag("loops-geojson", \.loopsGeoJSON, help: "Also write loops.geojson (every valid loop and its cells; a third of a night's bytes)."),
            .option("max-rejects", \.maxRejects, .atLeast(0),
                    help: "Malformed runs a night may quarantine in rejects.tsv before it stops (default: 10 or 1 % of the runs, whichever is larger)."),
            .option("migration-dir", \.migrationDir, help: "Also write the game's migration (territory_hex.cell, territory_in_viewport, RLS) into this directory."),
            .flag("app-verdicts", \.appVerdicts, help: "Also write app_verdicts.tsv: each run's verdict and cells by the app's TerritoryRules alone (no PROJ, no GEOS)."),
        ]

        public func validateRules() throws {
            if let s = shard { _ = try Shard(parsing: s) }
        }
    }

    public struct Report: StageReport {
        public var runs = 0
        public var valid = 0
        public var cells = 0
        public var newCells = 0
        public var users = 0
        public var rejected = 0
        public var shard: Shard? = nil
        public var summary: String {
            "\(formatCount(runs)) runs, \(formatCount(valid)) valid loops; \(formatCount(cells)) cells owned by \(formatCount(users)) runners"
                + (rejected > 0 ? "; \(formatCount(rejected)) malformed runs quarantined in rejects.tsv" : "")
                + (newCells != cells ? " (\(formatCount(newCells)) won tonight)" : "")
                + (shard.map { " [shard \($0)]" } ?? "")
        }
    }

    /// Reads yesterday's territory and tonight's runs, judges them, folds their claims over it
    /// and writes the outputs (steps in Steps/).
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        let shard = try o.shard.map { try Shard(parsing: $0) }
        let existing = try readExisting(o, shard: shard, log: log)
        var judged = try judgeRuns(o, shard: shard, log: log)
        if let s = shard { log.info("shard \(s): \(formatCount(judged.records.count)) runs, \(formatCount(existing.count)) existing cells") }
        let claims = claimCells(existing: existing, runs: judged.records)
        try writeOutputs(o, &judged, claims, shard: shard, log: log)
        return Report(runs: claims.runs, valid: claims.valid, cells: claims.owned.count, newCells: claims.won.count,
                      users: claims.users, rejected: judged.rejected.count, shard: shard)
    }
}

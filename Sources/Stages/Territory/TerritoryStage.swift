import GeoModel
import StageContract
import TerritoryGame
import TerritoryOptions
import TerritoryRules

/// Runs → validated loops → claimed H3 cells (CONTRACTS §8), for the running game's nightly job.
public enum TerritoryStage: PipelineStage {
    public static let name = "territory"

    public struct Options: DeclaredOptions {
        /// The runs FeatureCollection (CONTRACTS §8).
        public var input = "data/territory/runs.geojson"
        /// Their shard, the rejects allowed and the threads (declared by TerritoryOptions, for
        /// this stage and the night alike).
        public var runs = RunsOptions()
        /// The current territory (`psql \copy territory_hex to … csv header`), for an
        /// incremental night; nil recomputes from the runs alone.
        public var existing: String? = nil
        public var outputDir = "dist/territory"
        public var rules = Rules()
        /// H3 resolution of the game's cells.
        public var resolution = 9
        /// Also write loops.geojson (every valid loop, all its lobes, and its cells: what the
        /// consumer check recomputes with h3-py). Off for a nightly job: no contract reader
        /// needs it and it is a third of a night's bytes.
        public var loopsGeoJSON = false
        /// Also write the game's migrations (`GameMigration.all`) into this directory (the
        /// Supabase CLI's `supabase/migrations`); nil: not.
        public var migrationDir: String? = nil
        /// Also write app_verdicts.tsv: what the app's TerritoryRules alone (no PROJ, no GEOS)
        /// says of each run — its verdict, reasons and cells — beside the night's runs.tsv.
        public var appVerdicts = false
        public init() {}

        public static let declared: [StageOption<Options>] = [
            .argument("input", \.input, help: "The runs (GeoJSON FeatureCollection, CONTRACTS §8)."),
            .option("existing", \.existing, help: "The current territory (CSV hex_id,owner_user_id,last_run_id,claimed_at) for an incremental night."),
            .option("output-dir", short: "o", aliases: ["out-dir"], \.outputDir, help: "Directory for the outputs."),
        ] + RunsOptions.declared.map { $0.nested(at: \.runs) } + [
            .flag("loops-geojson", \.loopsGeoJSON, help: "Also write loops.geojson (every valid loop and its cells; a third of a night's bytes)."),
            .option("migration-dir", \.migrationDir, help: "Also write the game's migrations (territory_hex.cell, territory_in_viewport, RLS; submit_run, pending runs) into this directory."),
            .flag("app-verdicts", \.appVerdicts, help: "Also write app_verdicts.tsv: each run's verdict and cells by the app's TerritoryRules alone (no PROJ, no GEOS)."),
        ]

        public func validateRules() throws {
            _ = try runs.validatedShard()
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
        let shard = try o.runs.parsedShard()
        let existing = try readExisting(o, shard: shard, log: log)
        var judged = try judgeRuns(o, shard: shard, log: log)
        if let s = shard { log.info("shard \(s): \(formatCount(judged.records.count)) runs, \(formatCount(existing.count)) existing cells") }
        let claims = claimCells(existing: existing, runs: judged.records)
        try writeOutputs(o, &judged, claims, shard: shard, log: log)
        return Report(runs: claims.runs, valid: claims.valid, cells: claims.owned.count, newCells: claims.won.count,
                      users: claims.users, rejected: judged.rejected.count, shard: shard)
    }
}

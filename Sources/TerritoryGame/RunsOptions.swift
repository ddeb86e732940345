import GeoModel
import Parallelism

/// What a territory night is told about its runs, declared once for `geo-territory` and
/// `geo-nightly` (each stage holds one as `runs` and lists these declarations through it).
public struct RunsOptions: Sendable, Equatable {
    /// The runs FeatureCollection (CONTRACTS §8).
    public var input = "data/territory/runs.geojson"
    /// `i/n` (0 ≤ i < n): only the runs that start in the resolution-3 cells of shard i (see
    /// `Shard`); nil: every run.
    public var shard: String? = nil
    /// More malformed runs than this stops the night (nothing written): a broken app release,
    /// not a bad phone. nil: `TerritoryGame.defaultRejects`.
    public var maxRejects: Int? = nil
    public var threads = Parallel.defaultWorkers
    public init() {}

    /// The runs file, geo-territory's `<input>` (geo-nightly's `--runs` is its own optional
    /// runsFile). Computed, like `declared`: no shared state, whatever StageOption holds.
    public static var inputDeclaration: StageOption<RunsOptions> {
        .argument("input", \.input, help: "The runs (GeoJSON FeatureCollection, CONTRACTS §8).")
    }

    public static var declared: [StageOption<RunsOptions>] {[
        .option("shard", \.shard, help: "i/n: only shard i of n of the runs (split by the resolution-3 cell they start in)."),
        .option("threads", \.threads, .atLeast(1), help: "Worker threads (one GEOS context each)."),
        .option("max-rejects", \.maxRejects, .atLeast(0),
                help: "Malformed runs a night may quarantine (rejects.tsv, the log) before it stops, nothing written (default: \(TerritoryGame.defaultRejects))."),
    ]}

    /// The shard, parsed; nil without one. Throws `OptionsError` for a malformed `i/n`.
    public func parsedShard() throws -> Shard? { try shard.map { try Shard(parsing: $0) } }

    /// The malformed runs a night of `features` runs may quarantine and still go on.
    public func allowedRejects(features: Int) -> Int { TerritoryGame.allowedRejects(maxRejects, features: features) }
}

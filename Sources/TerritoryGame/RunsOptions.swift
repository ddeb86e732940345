import Parallelism

/// What a territory night is told about its runs, for `geo-territory` and `geo-nightly` (each
/// stage holds one as `runs`; their command-line declarations are TerritoryOptions', so this
/// library does not import the stage contract). The runs file is each stage's own.
public struct RunsOptions: Sendable, Equatable {
    /// `i/n` (0 ≤ i < n): only the runs that start in the resolution-3 cells of shard i (see
    /// `Shard`); nil: every run.
    public var shard: String? = nil
    /// More malformed runs than this stops the night (nothing written): a broken app release,
    /// not a bad phone. nil: `TerritoryGame.defaultRejects`.
    public var maxRejects: Int? = nil
    public var threads = Parallel.defaultWorkers
    public init() {}

    /// The shard, parsed; nil without one. Throws `ShardError` for a malformed `i/n`.
    public func parsedShard() throws -> Shard? { try shard.map { try Shard(parsing: $0) } }

    /// The malformed runs a night of `features` runs may quarantine and still go on.
    public func allowedRejects(features: Int) -> Int { TerritoryGame.allowedRejects(maxRejects, features: features) }
}

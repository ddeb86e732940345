import StageContract
import TerritoryGame

/// The runs options as the command line spells them, declared once for `geo-territory` and
/// `geo-nightly` (each stage holds a `RunsOptions` as `runs` and lists these through it:
/// `RunsOptions.declared.map { $0.nested(at: \.runs) }`). They live here, not in TerritoryGame,
/// so the game's library does not import the stage contract; the runs file itself is each
/// stage's own (geo-territory's `<input>`, geo-nightly's optional `--runs`).
extension RunsOptions {
    /// Computed: no shared state, whatever StageOption holds.
    public static var declared: [StageOption<RunsOptions>] {[
        .option("shard", \.shard, help: "i/n: only shard i of n of the runs (split by the resolution-3 cell they start in)."),
        .option("threads", \.threads, .atLeast(1), help: "Worker threads (one GEOS context each)."),
        .option("max-rejects", \.maxRejects, .atLeast(0),
                help: "Malformed runs a night may quarantine (rejects.tsv, the log) before it stops, nothing written (default: \(TerritoryGame.defaultRejects))."),
    ]}

    /// The shard, parsed; nil without one. Throws `OptionsError` naming `--shard` for a
    /// malformed `i/n`.
    public func validatedShard() throws -> Shard? {
        do { return try parsedShard() } catch let e as ShardError {
            throw OptionsError("--shard must be \(ShardError.form) (got \"\(e.text)\")")
        }
    }
}

import Foundation
import GeoGEOS
import GeoModel
import Geodesy
import GeoPROJ
import H3
import TerritoryRules
import Parallelism

/// The running game's territory on the server side (CONTRACTS §8), what `geo-territory`, the
/// night (`geo-nightly`) and the follower share: runs judged by the game's rules (measured
/// with PROJ's geodesic, loops made valid by GEOS), their cells claimed and folded over
/// yesterday's territory by the one ownership order (`Claim.beats`), and the rows that load
/// them into the game's database (NightRows.swift, RunRows.swift).
public enum TerritoryGame {
    /// More malformed runs than this stop a night (nothing written): a broken app release, not
    /// a bad phone. `maxRejects` nil: `defaultRejects`.
    public static func allowedRejects(_ maxRejects: Int?, features: Int) -> Int { maxRejects ?? max(10, features / 100) }
    /// `allowedRejects`' default in words, for help texts (the docs point at `geo-territory --help`).
    public static let defaultRejects = "10 runs or 1 % of the night, whichever is larger"

    /// What the stage decided about one run.
    public struct Judged: Sendable {
        public var run: Run
        public var verdict: Verdict
        public var loop: [Polygon]
        public var cells: [UInt64]
    }

    /// Judges the runs (in parallel, one GEOS context per thread) and claims their cells.
    public static func judge(_ runs: [Run], rules: Rules, resolution: Int, file: String, threads: Int) throws -> [Judged] {
        try Parallel.map(runs, workers: threads, makeState: { GEOSContext() }) { run, geos in
            let (v, loop, cells) = try judgeOne(run, rules: rules, resolution: resolution, file: file, geos: geos)
            return Judged(run: run, verdict: v, loop: loop, cells: cells)
        }
    }

    /// One run: its verdict, and for a valid loop its polygons and claimed cells. An error names
    /// the run.
    public static func judgeOne(_ run: Run, rules: Rules, resolution: Int, file: String, geos: GEOSContext) throws -> (Verdict, [Polygon], [UInt64]) {
        try forFeature(file: file, FeatureRef(index: run.index, name: nil, id: run.id)) {
            // The Swift geodesic measures; PROJ decides what lies within its error of a threshold.
            let v = rules.judge(run) { a, b in Geodesic.wgs84.distance(Point(run.lon[a], run.lat[a]), Point(run.lon[b], run.lat[b])) }
            guard v.valid else { return (v, [], []) }
            let loop = try Loop.polygons(run, kept: v.kept, geos: geos)
            // The cells are the rules' (TerritoryRules: the centres the loop winds around, as the
            // app computes them), the same as H3's fill of make-valid's polygons but for a cell
            // at a crossing, and a fifth of the cost: the hull is filled, not the 1,000-vertex loop.
            return (v, loop, try RunLoop(run, kept: v.kept)?.cells(res: resolution) ?? [])
        }
    }

    /// Full recompute or incremental night: yesterday's claims (if any) and tonight's valid
    /// runs folded through the one ownership order (`Claim.beats`).
    public static func territory(existing: [Claim], judged: [Judged]) -> Territory {
        territory(existing: existing, valid: judged.lazy.filter(\.verdict.valid).map { ($0.cells, $0.run.userID, $0.run.id, $0.run.endedAt) })
    }

    /// The one fold: yesterday's claims, then every cell of every valid run of tonight.
    public static func territory<S: Sequence>(existing: [Claim], valid: S) -> Territory
        where S.Element == (cells: [UInt64], owner: String, run: String, endedAt: Int64) {
        var t = Territory()
        for c in existing { t.offer(c) }
        fold(valid, into: &t)
        return t
    }

    /// Every cell of every valid run offered to `t` (the follower folds batch after batch).
    public static func fold<S: Sequence>(_ valid: S, into t: inout Territory)
        where S.Element == (cells: [UInt64], owner: String, run: String, endedAt: Int64) {
        for r in valid {
            for cell in r.cells { t.offer(Claim(cell: cell, owner: r.owner, run: r.run, claimedAt: r.endedAt)) }
        }
    }

    /// The quarantine rule, the stage's and the night's: a few malformed runs are skipped (the
    /// first five named in the log), more than `allowed` stop the night with nothing written.
    public static func quarantine(_ rejected: [RejectedRun], of features: Int, allowed: Int, input: String, log: StageLog) throws {
        if rejected.count > allowed {
            throw InputError(file: input, "\(formatCount(rejected.count)) of \(formatCount(features)) runs are malformed, more than the \(formatCount(allowed)) a night may quarantine (--max-rejects): nothing written; the first: \(rejected[0].error(file: input))")
        }
        for r in rejected.prefix(5) { log.info("quarantined: \(r.error(file: input))") }
    }
}

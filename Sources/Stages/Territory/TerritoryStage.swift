import Foundation
import GeoGEOS
import GeoModel
import GeoPROJ
import H3
@_exported import TerritoryRules

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
        /// Also write the game's migrations (`GameMigration.all`) into this directory (the
        /// Supabase CLI's `supabase/migrations`); nil: not.
        public var migrationDir: String? = nil
        /// Also write app_verdicts.tsv: what the app's TerritoryRules alone (no PROJ, no GEOS)
        /// says of each run — its verdict, reasons and cells — beside the night's runs.tsv.
        public var appVerdicts = false
        public init() {}

        /// The malformed runs a night of `features` runs may quarantine and still go on.
        public func allowedRejects(features: Int) -> Int { maxRejects ?? max(10, features / 100) }

        public static let declared: [StageOption<Options>] = [
            .argument("input", \.input, help: "The runs (GeoJSON FeatureCollection, CONTRACTS §8)."),
            .option("existing", \.existing, help: "The current territory (CSV hex_id,owner_user_id,last_run_id,claimed_at) for an incremental night."),
            .option("output-dir", short: "o", aliases: ["out-dir"], \.outputDir, help: "Directory for the outputs."),
            .option("shard", \.shard, help: "i/n: handle only shard i of n (runs split by the resolution-3 cell they start in)."),
            .option("threads", \.threads, .atLeast(1), help: "Worker threads."),
            .flag("loops-geojson", \.loopsGeoJSON, help: "Also write loops.geojson (every valid loop and its cells; a third of a night's bytes)."),
            .option("max-rejects", \.maxRejects, .atLeast(0),
                    help: "Malformed runs a night may quarantine in rejects.tsv before it stops (default: 10 or 1 % of the runs, whichever is larger)."),
            .option("migration-dir", \.migrationDir, help: "Also write the game's migrations (territory_hex.cell, territory_in_viewport, RLS; submit_run, pending runs) into this directory."),
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
    static func judgeOne(_ run: Run, rules: Rules, resolution: Int, file: String, geos: GEOSContext) throws -> (Verdict, [Polygon], [UInt64]) {
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

    static func territory(existing: [Claim], records: [RunRecord]) -> Territory {
        territory(existing: existing, valid: records.lazy.filter(\.verdict.valid).map { ($0.cells, $0.userID, $0.id, $0.endedAt) })
    }

    /// The one fold: yesterday's claims, then every cell of every valid run of tonight.
    static func territory<S: Sequence>(existing: [Claim], valid: S) -> Territory
        where S.Element == (cells: [UInt64], owner: String, run: String, endedAt: Int64) {
        var t = Territory()
        for c in existing { t.offer(c) }
        for r in valid {
            for cell in r.cells { t.offer(Claim(cell: cell, owner: r.owner, run: r.run, claimedAt: r.endedAt)) }
        }
        return t
    }

    /// What the outputs need of one judged run, made on the worker that decoded and judged it
    /// while its fixes are in cache: its row of the runs insert (and its loops.geojson feature)
    /// already formatted, the kept path for the preview; the fixes themselves are not kept.
    struct RunRecord: Sendable {
        var index: Int
        var id: String
        var userID: String
        var startedAt: Int64
        var endedAt: Int64
        /// The verdict without its kept indexes (`keptCount` of them).
        var verdict: Verdict
        var keptCount: Int
        var loopParts: Int
        /// Sum of `Loop.area` over the loop's parts (m²).
        var loopArea: Double
        var cells: [UInt64]
        /// The kept fixes, in order (the preview draws them).
        var path: [Point]
        /// Its row of the runs insert, in its worker's spool.
        var sqlRow: RowRef
        var loopsFeature: [UInt8]
        /// Its app_verdicts.tsv row (empty unless asked for).
        var appRow = ""

        init(run: Run, verdict v: Verdict, loop: [Polygon], cells: [UInt64], resolution: Int, loopsGeoJSON: Bool, spool: RowSpools.Spool) throws {
            index = run.index; id = run.id; userID = run.userID
            startedAt = run.startedAt; endedAt = run.endedAt
            verdict = v; keptCount = v.kept.count
            loopParts = loop.count
            loopArea = loop.reduce(0.0) { $0 + Loop.area($1) }
            self.cells = cells
            path = v.kept.map { Point(run.lon[$0], run.lat[$0]) }
            sqlRow = try spool.append { TerritoryOutputs.sqlRow(&$0, run, v, loop: loop) }
            loopsFeature = loopsGeoJSON && v.valid ? TerritoryOutputs.loopsFeature(run, loop: loop, cells: cells, resolution: resolution) : []
            verdict.kept = []
        }
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        let shard = try o.shard.map { try Shard(parsing: $0) }
        var existing = try o.existing.map { path in try log.step("read \(path)") { try ExistingTerritory.read(path) } } ?? []
        if let s = shard { existing = existing.filter { s.contains(cell: $0.cell) } }

        // Runs are judged, their loops built and their cells claimed as they are decoded, on
        // every worker; the file's pages are handed back behind them.
        let file = try MappedFile(path: o.input)
        var fixes = 0
        let rules = o.rules, resolution = o.resolution, loops = o.loopsGeoJSON, input = o.input, app = o.appVerdicts
        // Each worker's rows of the runs insert go to its own scratch file (`RowSpools`).
        final class Worker { let geos = GEOSContext(); var spool: RowSpools.Spool? }
        let spools = RowSpools()
        var decoded = try log.step("read and judge runs, build loops, claim cells") {
            try RunsReader.eachRun(file.buffer, file: o.input, workers: o.threads, makeState: { Worker() },
                                   released: { file.release($0) }) { run, worker -> (fixes: Int, record: RunRecord?) in
                if let s = shard, try !s.contains(runHome: run, resolution: resolution) { return (run.fixCount, nil) }
                let (v, loop, cells) = try judgeOne(run, rules: rules, resolution: resolution, file: input, geos: worker.geos)
                if worker.spool == nil { worker.spool = try spools.make() }
                var record = try RunRecord(run: run, verdict: v, loop: loop, cells: cells, resolution: resolution, loopsGeoJSON: loops,
                                           spool: worker.spool!)
                if app { record.appRow = try TerritoryOutputs.appVerdictRow(run, rules: rules, resolution: resolution) }
                return (run.fixCount, record)
            }
        }
        try quarantine(decoded.rejected, of: decoded.features, allowed: o.allowedRejects(features: decoded.features), input: o.input, log: log)
        var records: [RunRecord] = []
        records.reserveCapacity(decoded.runs.count)
        for d in decoded.runs {
            fixes += d.value.fixes
            if var r = d.value.record { r.index = d.index; records.append(r) }
        }
        log.info("\(formatCount(decoded.features)) runs, \(formatCount(fixes)) fixes" + (decoded.rejected.isEmpty ? "" : ", \(formatCount(decoded.rejected.count)) malformed (rejects.tsv)"))
        let rejected = decoded.rejected
        decoded = .init()
        try spools.finish()
        if let s = shard { log.info("shard \(s): \(formatCount(records.count)) runs, \(formatCount(existing.count)) existing cells") }

        let territory = territory(existing: existing, records: records)
        let owned = territory.sorted
        let tonight = Set(records.map(\.id))
        let won = owned.filter { tonight.contains($0.run) }
        let valid = records.reduce(0) { $0 + ($1.verdict.valid ? 1 : 0) }
        let users = Set(owned.map(\.owner)).count

        // The big files (the SQL, loops.geojson) are written under a temporary name while the
        // small ones are formatted, and every file takes its name only once all are made: a
        // failure leaves none behind.
        try log.step("format and write outputs in \(o.outputDir)") {
            var out = TerritoryOutputs(records: records, owned: owned, won: won, resolution: o.resolution, input: o.input, shard: shard,
                                       rejected: rejected, spools: spools)
            records = []  // loops.geojson's features move into the file's parts, not copied
            let loopsParts = o.loopsGeoJSON ? out.loopsParts() : []
            let big = ["territory_hex.sql"] + (o.loopsGeoJSON ? ["loops.geojson"] : [])
            let small: [(String, (TerritoryOutputs) throws -> [UInt8])] = [
                ("territory.geojson", { try $0.territoryGeoJSON() }), ("preview.svg", { Array(try $0.previewSVG().utf8) }),
                ("runs.tsv", { Array($0.runsTSV().utf8) }), ("users.tsv", { Array(try $0.usersTSV().utf8) }),
                ("rejects.tsv", { Array($0.rejectsTSV().utf8) }),
            ] + (o.appVerdicts ? [("app_verdicts.tsv", { Array($0.appVerdictsTSV().utf8) })] : [])
            let staged = big.map { StagedFile(dir: o.outputDir, name: $0) }
            defer { for f in staged { f.discard() } }
            let outputs = out
            enum Job { case sql, loops, make(Int) }
            let jobs = [Job.sql] + (o.loopsGeoJSON ? [Job.loops] : []) + small.indices.map { Job.make($0) }
            let made = try Parallel.map(jobs, workers: o.threads, makeState: { () }) { job, _ -> [UInt8] in
                switch job {
                case .sql: return Array("\(try outputs.writeSQL(to: staged[0].path))".utf8)
                case .loops: try FileIO.writeAtomically(parts: loopsParts, to: staged[1].path); return []
                case .make(let i): return try small[i].1(outputs)
                }
            }
            log.info("  territory_hex.sql: \(formatCount(Int(String(decoding: made[0], as: UTF8.self))!)) bytes")
            if o.loopsGeoJSON { log.info("  loops.geojson: \(formatCount(loopsParts.reduce(0) { $0 + $1.count })) bytes") }
            for (i, m) in small.enumerated() {
                log.info("  \(m.0): \(formatCount(made[big.count + i].count)) bytes")
                try FileIO.writeAtomically(made[big.count + i], to: "\(o.outputDir)/\(m.0)")
            }
            if let dir = o.migrationDir {
                for m in GameMigration.all {
                    try FileIO.writeAtomically(m.sql, to: "\(dir)/\(m.name)")
                    log.info("  \(dir)/\(m.name)")
                }
            }
            for f in staged { try f.commit() }
        }
        var r = Report()
        r.runs = tonight.count
        r.valid = valid
        r.cells = owned.count
        r.newCells = won.count
        r.users = users
        r.rejected = rejected.count
        r.shard = shard
        return r
    }
}

/// `--shard i/n`: the runs are split by the resolution-3 cell their first fix lies in (the
/// parent of its resolution-9 cell), hashed over n shards; yesterday's cells go to the shard
/// of their own resolution-3 parent. A loop is a few km across and a resolution-3 cell about
/// 120 km, so nearly every cell is claimed from one shard only; a loop that crosses a
/// resolution-3 border may claim a cell in two shards' outputs, and merging keeps the claim
/// that wins by the ownership order — which is what the SQL's guarded upsert does when the
/// shards' files are loaded in any order. Runs (rows and reasons) are in exactly one shard.
public struct Shard: Sendable, CustomStringConvertible, Equatable {
    public var index: Int
    public var count: Int
    public init(index: Int, count: Int) { self.index = index; self.count = count }
    public init(parsing s: String) throws {
        let parts = s.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else {
            throw OptionsError("--shard must be i/n with 0 ≤ i < n (got \"\(s)\")")
        }
        index = i; count = n
    }
    public var description: String { "\(index)/\(count)" }

    /// The shard of a resolution-3 cell: a fixed 64-bit mix of its index, so neighbouring
    /// cells spread over the shards and the split never depends on the data.
    public func shardOf(res3 cell: UInt64) -> Int {
        Int(SplitMix64.mix(cell &+ 0x9E37_79B9_7F4A_7C15) % UInt64(count))
    }
    public func contains(cell: UInt64) -> Bool { shardOf(res3: H3Cell.parent(cell, res: 3)) == index }
    public func contains(runHome run: Run, resolution: Int) throws -> Bool {
        guard run.fixCount > 0 else { return index == 0 }
        let c = try H3.latLngToCell(LatLng(latDegrees: run.lat[0], lngDegrees: run.lon[0]), res: resolution)
        return contains(cell: c.value)
    }
}

/// A file written under a temporary name beside its target and renamed into place by
/// `commit` (or removed by `discard`). A target that is a symlink, a FIFO or a device is
/// written at `commit` instead, through `FileIO.writeAtomically`'s own handling.
final class StagedFile {
    let target: String
    let path: String
    private let direct: Bool
    private var done = false

    init(dir: String, name: String) {
        target = "\(dir)/\(name)"
        var st = stat()
        direct = lstat(target, &st) == 0 && st.st_mode & S_IFMT != S_IFREG
        path = direct ? target : "\(dir)/.\(name).staged-\(getpid())"
    }

    func commit() throws {
        guard !direct else { done = true; return }
        guard rename(path, target) == 0 else {
            throw InputError(file: target, "cannot move the finished output into place: \(String(cString: strerror(errno)))")
        }
        done = true
    }

    func discard() { if !done && !direct { unlink(path) } }
}

extension TerritoryStage {
    /// The quarantine rule, the stage's and the night's: a few malformed runs are skipped (the
    /// first five named in the log), more than `allowed` stop the night with nothing written.
    static func quarantine(_ rejected: [RejectedRun], of features: Int, allowed: Int, input: String, log: StageLog) throws {
        if rejected.count > allowed {
            throw InputError(file: input, "\(formatCount(rejected.count)) of \(formatCount(features)) runs are malformed, more than the \(formatCount(allowed)) a night may quarantine (--max-rejects): nothing written; the first: \(rejected[0].error(file: input))")
        }
        for r in rejected.prefix(5) { log.info("quarantined: \(r.error(file: input))") }
    }
}

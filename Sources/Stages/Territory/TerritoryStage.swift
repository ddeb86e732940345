import Foundation
import GeoGEOS
import GeoModel
import H3

/// Runs → validated loops → claimed H3 cells (CONTRACTS §8), for the running game's nightly job.
public enum TerritoryStage: PipelineStage {
    public static let name = "territory"

    public struct Options: StageOptions {
        /// The runs FeatureCollection (CONTRACTS §8).
        public var input = "data/territory/runs.geojson"
        /// The current territory (`psql \copy territory_hex to … csv header`), for an
        /// incremental night; nil recomputes from the runs alone.
        public var existing: String? = nil
        public var outDir = "dist/territory"
        /// `i/n` (0 ≤ i < n): this process handles the runs that start in the resolution-3
        /// cells of shard i (see `Shard`); nil handles everything.
        public var shard: String? = nil
        public var threads = Parallel.defaultWorkers
        public var rules = Rules()
        /// H3 resolution of the game's cells.
        public var resolution = 9
        public init() {}

        public func validate() throws {
            guard threads >= 1 else { throw OptionsError("--threads must be ≥ 1 (got \(threads))") }
            if let s = shard { _ = try Shard(parsing: s) }
        }
    }

    public struct Report: StageReport {
        public var runs = 0
        public var valid = 0
        public var cells = 0
        public var newCells = 0
        public var users = 0
        public var shard: Shard? = nil
        public var summary: String {
            "\(formatCount(runs)) runs, \(formatCount(valid)) valid loops; \(formatCount(cells)) cells owned by \(formatCount(users)) runners"
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
            try forFeature(file: file, FeatureRef(index: run.index, name: nil, id: run.id)) {
                let v = rules.judge(run)
                var loop: [Polygon] = [], cells: [UInt64] = []
                if v.valid {
                    loop = try Loop.polygons(run, kept: v.kept, geos: geos)
                    cells = try Loop.cells(loop, res: resolution)
                }
                return Judged(run: run, verdict: v, loop: loop, cells: cells)
            }
        }
    }

    /// Full recompute or incremental night: yesterday's claims (if any) and tonight's valid
    /// runs folded through the one ownership order (`Claim.beats`).
    public static func territory(existing: [Claim], judged: [Judged]) -> Territory {
        var t = Territory()
        for c in existing { t.offer(c) }
        for j in judged where j.verdict.valid {
            for cell in j.cells { t.offer(Claim(cell: cell, owner: j.run.userID, run: j.run.id, claimedAt: j.run.endedAt)) }
        }
        return t
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        let shard = try o.shard.map { try Shard(parsing: $0) }
        var runs = try log.step("read \(o.input)") { try RunsReader.read(path: o.input, workers: o.threads) }
        log.info("\(formatCount(runs.count)) runs, \(formatCount(runs.reduce(0) { $0 + $1.fixCount })) fixes")
        var existing = try o.existing.map { path in try log.step("read \(path)") { try ExistingTerritory.read(path) } } ?? []
        if let s = shard {
            runs = try runs.filter { try s.contains(runHome: $0, resolution: o.resolution) }
            existing = existing.filter { s.contains(cell: $0.cell) }
            log.info("shard \(s): \(formatCount(runs.count)) runs, \(formatCount(existing.count)) existing cells")
        }
        let judged = try log.step("judge runs, build loops, claim cells") {
            try judge(runs, rules: o.rules, resolution: o.resolution, file: o.input, threads: o.threads)
        }
        let territory = territory(existing: existing, judged: judged)
        let owned = territory.sorted
        let tonight = Set(runs.map(\.id))
        let won = owned.filter { tonight.contains($0.run) }

        // Every file is made before the first is written: a failure leaves none behind.
        let files: [(String, [[UInt8]])] = try log.step("format outputs") {
            let out = TerritoryOutputs(judged: judged, owned: owned, won: won, resolution: o.resolution, input: o.input, shard: shard)
            // Each file is a list of parts; all parts of all files share the workers (the SQL
            // and loops.geojson are most of a night's bytes), longest single parts first.
            let makers: [(String, [() throws -> [UInt8]])] = [
                ("territory.geojson", [out.territoryGeoJSON]), ("preview.svg", [{ Array(try out.previewSVG().utf8) }]),
                ("runs.tsv", [{ Array(out.runsTSV().utf8) }]), ("users.tsv", [{ Array(try out.usersTSV().utf8) }]),
                ("territory_hex.sql", out.sqlParts()), ("loops.geojson", out.loopsParts()),
            ]
            let jobs = makers.enumerated().flatMap { f, m in m.1.map { (f, $0) } }
            let made = try Parallel.map(jobs, workers: o.threads, makeState: { () }) { job, _ -> (Int, [UInt8], Double) in
                let t0 = DispatchTime.now().uptimeNanoseconds
                let bytes = try job.1()
                return (job.0, bytes, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
            }
            return makers.enumerated().map { f, m in
                let mine = made.filter { $0.0 == f }
                log.info("  \(m.0): \(formatCount(mine.reduce(0) { $0 + $1.1.count })) bytes in \(String(format: "%.2f", mine.reduce(0) { $0 + $1.2 })) s of CPU")
                return (m.0, mine.map(\.1))
            }
        }
        try log.step("write \(o.outDir)") {
            for (name, parts) in files { try FileIO.writeAtomically(parts: parts, to: "\(o.outDir)/\(name)") }
        }
        var r = Report()
        r.runs = runs.count
        r.valid = judged.filter { $0.verdict.valid }.count
        r.cells = owned.count
        r.newCells = won.count
        r.users = Set(owned.map(\.owner)).count
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
        var z = cell &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(count))
    }
    public func contains(cell: UInt64) -> Bool { shardOf(res3: H3Cell.parent(cell, res: 3)) == index }
    public func contains(runHome run: Run, resolution: Int) throws -> Bool {
        guard run.fixCount > 0 else { return index == 0 }
        let c = try H3.latLngToCell(LatLng(latDegrees: run.lat[0], lngDegrees: run.lon[0]), res: resolution)
        return contains(cell: c.value)
    }
}

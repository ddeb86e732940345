// What `geo-nightly` needs of the territory stage to load a night straight into the game's
// PostgreSQL: the same judging (judgeOne) and the same ownership fold (territory(existing:…))
// as the stage, with each run's row formatted for `COPY … FROM STDIN` (binary format) on the
// worker that judged it, and the set-based merge that takes the copied rows into users, runs
// and territory_hex under the same rules as territory_hex.sql (runsConflict, the claim order).

import Foundation
import GeoFormats
import GeoGEOS
import GeoModel
import H3
import TerritoryRules

extension TerritoryGame {
    /// One judged run, as the night loads it.
    public struct NightRun: Sendable {
        public var id: String
        public var userID: String
        public var endedAt: Int64
        /// Its claims' time: `endedAt` capped at the time the server received the run
        /// (`TerritoryGame.claimTime`).
        public var claimedAt: Int64
        /// Its place in the arrival order (`Claim.arrival`).
        public var arrival: Int64
        public var valid: Bool
        public var cells: [UInt64]
        /// Its row of `copy night_runs from stdin with (format binary)`.
        public var copyRow: [UInt8]
        /// Where the path field lies in `copyRow` (length included), when the run has one: a run
        /// already stored keeps its path (`runsConflict` never updates it), so it is not sent again.
        public var pathField: Range<Int>?
    }

    /// Tonight's runs judged and folded over the current territory.
    public struct Night: Sendable {
        /// In the file's order (a shard's runs only, with `shard`).
        public var runs: [NightRun]
        public var valid = 0
        /// Cells tonight's valid runs own after the fold (they beat the current claim), by cell.
        public var won: [Claim]
        /// Cells owned after the fold, tonight's and yesterday's.
        public var owned = 0
        /// Runners of tonight's runs, sorted.
        public var users: [String]
        /// Malformed runs skipped (within the stage's threshold).
        public var quarantined = 0
    }
}

extension TerritoryGame.Night {
    /// Judged runs (in any grouping: a night's file, a follower's batch) folded over `existing`.
    public init(runs: [TerritoryGame.NightRun], existing: [Claim], quarantined: Int = 0) {
        let t = TerritoryGame.territory(existing: existing, valid: runs.lazy.filter(\.valid).map(\.claiming))
        let tonight = Set(runs.map(\.id))
        let won = t.cells.values.filter { tonight.contains($0.run) }.sorted { $0.cell < $1.cell }
        self.init(runs: runs, valid: runs.reduce(0) { $0 + ($1.valid ? 1 : 0) }, won: won,
                  owned: t.cells.count, users: Array(Set(runs.map(\.userID))).sorted(), quarantined: quarantined)
    }
}

extension TerritoryGame.NightRun {
    /// What the fold takes of a valid run.
    public var claiming: TerritoryGame.Claiming { (cells, userID, id, claimedAt, arrival) }

    /// One run judged as the night judges it (`judgeOne`), with its COPY row: the same code for
    /// a night's file and for a run a follower reads from the database. `file` names it in errors.
    public init(judging run: Run, rules: Rules = Rules(), resolution: Int = 9, file: String, geos: GEOSContext) throws {
        let (v, loop, cells) = try TerritoryGame.judgeOne(run, rules: rules, resolution: resolution, file: file, geos: geos)
        let row = TerritoryGame.copyRow(run, v, loop: loop)
        self.init(id: run.id, userID: run.userID, endedAt: run.endedAt, claimedAt: run.endedAt, arrival: 0,
                  valid: v.valid, cells: cells, copyRow: row.bytes, pathField: row.path)
    }
}

extension TerritoryGame {
    /// Reads and judges `input` (in parallel, as the stage does), folds tonight's valid runs
    /// over `existing` (the live table's claims) and returns what changes. `maxRejects`: the
    /// stage's `--max-rejects` (nil: its default). `clock` (µs): the night's, the time the
    /// server receives the file's runs (CONTRACTS §8c): a run ending more than
    /// `RunsReader.clockSkew` after it is malformed, the others claim at their end capped at it;
    /// they arrive after every stored claim, in file order.
    public static func night(input: String, existing: [Claim], shard: Shard?, threads: Int, maxRejects: Int? = nil,
                             clock: Int64? = nil, rules: Rules = Rules(), resolution: Int = 9, log: StageLog) throws -> Night {
        let file = try MappedFile(path: input)
        let base = arrivalBase(existing)
        let decoded = try log.step("read and judge runs, build loops, claim cells") {
            try nightRuns(file.buffer, file: input, shard: shard, threads: threads, rules: rules, resolution: resolution,
                          endsBy: clock.map { $0 + RunsReader.clockSkew }, released: { file.release($0) })
        }
        try quarantine(decoded.rejected, of: decoded.features, allowed: allowedRejects(maxRejects, features: decoded.features), input: input, log: log)
        var runs: [NightRun] = []
        runs.reserveCapacity(decoded.runs.count)
        for d in decoded.runs {
            guard var r = d.value else { continue }
            r.claimedAt = claimTime(endedAt: r.endedAt, received: clock)
            r.arrival = arrival(base, index: d.index)
            runs.append(r)
        }
        return Night(runs: runs, existing: existing, quarantined: decoded.rejected.count)
    }

    /// The current territory from the live table, read as `copy (nightExistingQuery) to stdout
    /// csv header` writes it: the same reader as the stage's `--existing` CSV.
    public static let nightExistingQuery = "select hex_id, owner_user_id, last_run_id, claimed_at from territory_hex"

    /// The temporary tables the night copies into (dropped at commit); the copied geometries
    /// stay uncompressed there (they are compressed once, in runs).
    public static let nightTempTables = """
        create temporary table night_users (id uuid primary key) on commit drop;
        create temporary table night_runs (id uuid primary key, user_id uuid not null, started_at timestamptz not null,
          ended_at timestamptz not null, distance_m double precision, duration_s double precision, valid_loop boolean,
          path geometry(linestring, 4326), loop_polygon geometry(polygon, 4326)) on commit drop;
        alter table night_runs alter column path set storage external, alter column loop_polygon set storage external;
        create temporary table night_cells (hex_id text primary key, owner_user_id uuid not null, last_run_id uuid not null,
          claimed_at timestamptz not null, cell geometry(polygon, 4326)) on commit drop;
        """

    public static let nightRunColumns = "id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop, path, loop_polygon"

    /// Tonight's runners, added (never renamed) before their runs, which point at them.
    public static let nightUsersMerge = "insert into users (id, username) select id, 'runner-' || id from night_users on conflict do nothing"

    /// The set-based merge of the copied rows, with territory_hex.sql's rules: runs inserted or
    /// their judged columns updated (`runsConflict`), a cell taken only by a claim that beats the
    /// stored one (`TerritoryGame.cellsConflict`) — so shards and reruns, in any order,
    /// converge. Returns runs and cells written.
    /// Two statements, the runs first: the cells' rule looks up the arrival of their runs, which
    /// a statement's own earlier part (a CTE) would not see.
    public static let nightMerge = ["""
        insert into runs (\(nightRunColumns)) select \(nightRunColumns) from night_runs
        \(TerritoryGame.runsConflict.trimmingCharacters(in: .whitespacesAndNewlines).dropLast())
        """, """
        insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell)
        select hex_id, owner_user_id, last_run_id, claimed_at, cell from night_cells
        \(TerritoryGame.cellsConflict)
        """]

    /// One run's row of `night_runs` (binary COPY): the same values as its row of the runs insert
    /// in territory_hex.sql (distance and duration as that file rounds them), geometries as
    /// extended WKB — the same doubles as that file's exact WKT, and the cheapest form for
    /// PostGIS to read. Returns the row and where its path field lies.
    static func copyRow(_ r: Run, _ v: Verdict, loop: [Polygon]) -> (bytes: [UInt8], path: Range<Int>?) {
        var row = CopyBinaryRow(fields: 9, reserve: 160 + 16 * TerritoryGame.rowPoints(v, loop: loop))
        row.uuid(r.id); row.uuid(r.userID)
        row.timestamp(microsecondsSince1970: r.startedAt); row.timestamp(microsecondsSince1970: r.endedAt)
        for (d, decimals) in [(v.distance, TerritoryGame.distanceDecimals), (v.duration, TerritoryGame.durationDecimals)] {
            if let stored = TerritoryGame.stored(d, decimals: decimals) { row.float8(stored) } else { row.null() }
        }
        row.bool(v.valid)
        var path: Range<Int>? = nil
        if v.kept.count >= 2 {
            path = row.field { w in
                w.header(type: EWKBWriter.lineString)
                w.u32(UInt32(v.kept.count))
                for i in v.kept { w.f64(r.lon[i]); w.f64(r.lat[i]) }
            }
        } else { row.null() }
        // The column is a polygon: a figure-eight keeps its largest lobe, as in the SQL file.
        if let p = loop.first {
            row.field { w in
                w.header(type: EWKBWriter.polygon)
                w.u32(UInt32(p.rings.count))
                for ring in p.rings {
                    w.u32(UInt32(ring.count))
                    for q in ring { w.f64(q.x); w.f64(q.y) }
                }
            }
        } else { row.null() }
        return (row.bytes, path)
    }

    /// A stored cell's row of `night_boundaries`: its hex_id as stored and its boundary as
    /// territory_hex.sql writes it. The hex_id must be an H3 cell (ExistingTerritory checks).
    public static func boundaryCopyRow(hexID: String) throws -> [UInt8] {
        guard let cell = UInt64(hexID.lowercased(), radix: 16) else { throw InputError(file: "territory_hex", "hex_id \"\(hexID)\" is not an H3 cell") }
        var w = JSONWriter(reserve: 400)
        w.raw("\(hexID)\t")
        try w.cellEWKT(cell)
        w.raw("\n")
        return w.bytes
    }

    /// One won cell's row of `night_cells`, with its boundary as territory_hex.sql stores it.
    public static func copyRow(_ c: Claim) throws -> [UInt8] {
        var w = JSONWriter(reserve: 400)
        w.raw("\(H3Cell.hex(c.cell))\t\(c.owner)\t\(c.run)\t\(Timestamp.iso(c.claimedAt))\t")
        try w.cellEWKT(c.cell)
        w.raw("\n")
        return w.bytes
    }
}

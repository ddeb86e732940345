import Foundation
import GeoFormats
import GeoModel
import GeoPROJ
import H3
import TerritoryGame
import TerritoryRules

/// The stage's files. Everything is sorted (cells by index, runs by input order, users by id)
/// and numbers are written by fixed rules, so the same input gives the same bytes.
struct TerritoryOutputs {
    var records: [TerritoryStage.RunRecord]
    /// Every owned cell after tonight (yesterday's included), and those won tonight.
    var owned: [Claim]
    var won: [Claim]
    var resolution: Int
    var input: String
    var shard: Shard?
    /// The malformed runs quarantined tonight (the whole file's, in every shard).
    var rejected: [RejectedRun] = []
    /// Where the runs' rows of the SQL wait (`RowSpools`).
    var spools = RowSpools()

    static let rowsPerInsert = 500

    // MARK: territory_hex.sql

    /// Loads into the game's schema (CONTRACTS §8) any number of times with the same result:
    /// users `on conflict do nothing`, runs `on conflict (id) do update` of the columns the
    /// rules decide, and territory_hex `on conflict (hex_id) do update … where` the new claim
    /// beats the stored one by (claimed_at, last_run_id) — so an older night's file, or
    /// another shard's, never takes a cell back from a later claim.

    /// Writes the file at `path` (the header and users, each runs insert with its rows read
    /// back from the spools, each territory_hex insert, the commit), a part at a time; returns
    /// its size in bytes.
    func writeSQL(to path: String) throws -> Int {
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw InputError(file: path, "cannot be written: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var total = 0
        func put(_ bytes: [UInt8]) throws {
            try bytes.withUnsafeBytes { b in
                var done = 0
                while done < b.count {
                    let n = write(fd, b.baseAddress! + done, b.count - done)
                    guard n > 0 else { throw InputError(file: path, "cannot be written: \(String(cString: strerror(errno)))") }
                    done += n
                }
            }
            total += bytes.count
        }
        try put(sqlHead())
        // Each insert's rows are copied from the spools in runs of consecutive rows (a worker
        // spools the runs of a byte range in order, so a run of rows is long); each row there
        // ends with ",\n", which the insert's last row leaves out.
        for chunk in stride(from: 0, to: records.count, by: Self.rowsPerInsert) {
            let rows = chunk..<min(chunk + Self.rowsPerInsert, records.count)
            try put(Array("insert into runs (id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop, path, loop_polygon) values\n".utf8))
            var span: (spool: Int32, range: Range<Int>)? = nil
            for i in rows {
                let r = records[i].sqlRow
                let end = r.offset + Int(r.length) - (i == rows.upperBound - 1 ? 2 : 0)
                if let s = span, s.spool == r.spool, s.range.upperBound == r.offset {
                    span = (s.spool, s.range.lowerBound..<end)
                } else {
                    if let s = span { try spools.copy(spool: s.spool, s.range, to: fd, name: path); total += s.range.count }
                    span = (r.spool, r.offset..<end)
                }
            }
            if let s = span { try spools.copy(spool: s.spool, s.range, to: fd, name: path); total += s.range.count }
            try put(Array(TerritoryGame.runsConflict.utf8))
        }
        for chunk in stride(from: 0, to: won.count, by: Self.rowsPerInsert) {
            try put(try sqlCells(chunk..<min(chunk + Self.rowsPerInsert, won.count)))
        }
        try put(Array("commit;\n".utf8))
        return total
    }

    func sqlHead() -> [UInt8] {
        var w = JSONWriter(reserve: 1 << 16)
        let validCount = records.filter { $0.verdict.valid }.count
        w.raw(SQL.comment("territory_hex.sql, written by geo-territory from \(input)\(shard.map { " (shard \($0))" } ?? "")") + "\n")
        w.raw(SQL.comment("\(records.count) runs (\(validCount) valid loops), \(won.count) cells won; idempotent, load with psql -v ON_ERROR_STOP=1") + "\n")
        w.raw(SQL.comment("needs the game's migration \(GameMigration.name) (territory_hex.cell) applied first") + "\n")
        w.raw(SQL.comment("distance_m: the Swift geodesic's (Geodesy, within 30 nm of PROJ's geod_inverse per step), so it may differ from PROJ's sum in the last millimetre; a rule decided within that error of its threshold was decided by PROJ") + "\n")
        w.raw("begin;\n")

        let users = Array(Set(records.map(\.userID))).sorted()
        for chunk in stride(from: 0, to: users.count, by: Self.rowsPerInsert) {
            w.raw("insert into users (id, username) values\n")
            for (k, u) in users[chunk..<min(chunk + Self.rowsPerInsert, users.count)].enumerated() {
                if k > 0 { w.raw(",\n") }
                // username is not null and unique: a name derived from the id cannot collide.
                w.raw("  ('\(u)', 'runner-\(u)')")
            }
            w.raw("\non conflict do nothing;\n")
        }
        return w.bytes
    }

    /// The cells won tonight with their boundary (`cell`, CONTRACTS §8a; the game's migration
    /// adds the column). A claim replaces the stored one only when it beats it by (claimed_at,
    /// last_run_id) (`fileCellsConflict`: a file's runs have no arrival); a row without its
    /// boundary yet (written before the migration) gets it whatever the claim, since a cell's
    /// boundary never changes.
    func sqlCells(_ rows: Range<Int>) throws -> [UInt8] {
        var w = JSONWriter(reserve: 1 << 17)
        w.raw("insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at, cell) values\n")
        for (k, c) in won[rows].enumerated() {
            if k > 0 { w.raw(",\n") }
            w.raw("  ('\(H3Cell.hex(c.cell))', '\(c.owner)', '\(c.run)', '\(Timestamp.iso(c.claimedAt))', '")
            try w.cellEWKT(c.cell)
            w.raw("')")
        }
        w.raw("\n" + TerritoryGame.fileCellsConflict + ";\n")
        return w.bytes
    }

    // MARK: GeoJSON

    /// Owned cells as RFC 7946 polygons (counter-clockwise, closed), with the properties the
    /// game's map relies on: hex_id, owner_user_id, last_run_id, claimed_at.
    func territoryGeoJSON() throws -> [UInt8] {
        var w = JSONWriter(coordinateDecimals: 7, reserve: owned.count * 400 + 64)
        w.raw("{\"type\":\"FeatureCollection\",\"features\":[")
        for (i, c) in owned.enumerated() {
            w.raw(i == 0 ? "\n" : ",\n")
            let hex = H3Cell.hex(c.cell)
            w.raw("{\"type\":\"Feature\",\"id\":"); w.string(hex)
            w.raw(",\"geometry\":"); w.geometry(.polygon(try H3Cell.polygon(c.cell)))
            w.raw(",\"properties\":{\"hex_id\":"); w.string(hex)
            w.raw(",\"owner_user_id\":"); w.string(c.owner)
            w.raw(",\"last_run_id\":"); w.string(c.run)
            w.raw(",\"claimed_at\":"); w.string(Timestamp.iso(c.claimedAt))
            w.raw("}}")
        }
        w.raw("\n]}\n")
        return w.bytes
    }

    /// loops.geojson's parts, in order: each valid run's feature (its loop, all parts, full
    /// precision, and the cells it claimed: what the consumer check recomputes with h3-py) as
    /// its worker formatted it.
    mutating func loopsParts() -> [[UInt8]] {
        var parts: [[UInt8]] = [Array("{\"type\":\"FeatureCollection\",\"features\":[".utf8)]
        var first = true
        for i in records.indices where records[i].verdict.valid {
            parts.append(Array((first ? "\n" : ",\n").utf8))
            first = false
            parts.append(records[i].loopsFeature)
            records[i].loopsFeature = []
        }
        parts.append(Array("\n]}\n".utf8))
        return parts
    }

    /// One valid run's feature: its loop (all parts, full precision) and its cells.
    static func loopsFeature(_ run: Run, loop: [Polygon], cells: [UInt64], resolution: Int) -> [UInt8] {
        var w = JSONWriter(reserve: 256 + 40 * cells.count + 26 * loop.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } })
        w.raw("{\"type\":\"Feature\",\"id\":"); w.string(run.id)
        w.raw(",\"geometry\":")
        if loop.isEmpty { w.raw("null") } else {
            w.raw(loop.count == 1 ? "{\"type\":\"Polygon\",\"coordinates\":" : "{\"type\":\"MultiPolygon\",\"coordinates\":[")
            for (pi, p) in loop.enumerated() {
                if pi > 0 { w.raw(",") }
                w.raw("[")
                for (ri, r) in p.rings.enumerated() {
                    if ri > 0 { w.raw(",") }
                    w.raw("[")
                    w.withCoordText { t in
                        for (k, q) in r.enumerated() {
                            if k > 0 { t.byte(0x2C) }
                            t.byte(0x5B); t.exact(q.x); t.byte(0x2C); t.exact(q.y); t.byte(0x5D)
                        }
                    }
                    w.raw("]")
                }
                w.raw("]")
            }
            w.raw(loop.count == 1 ? "}" : "]}")
        }
        w.raw(",\"properties\":{\"run_id\":"); w.string(run.id)
        w.raw(",\"user_id\":"); w.string(run.userID)
        w.raw(",\"ended_at\":"); w.string(Timestamp.iso(run.endedAt))
        w.raw(",\"resolution\":"); w.integer(Int64(resolution))
        w.raw(",\"cells\":[")
        for (k, c) in cells.enumerated() { if k > 0 { w.raw(",") }; w.string(H3Cell.hex(c)) }
        w.raw("]}}")
        return w.bytes
    }

    // MARK: reports

    /// One row per run, valid or not: its figures and every reason it was rejected for.
    func runsTSV() -> String {
        var owns: [String: Int] = [:]
        for c in owned { owns[c.run, default: 0] += 1 }
        var s = "run_id\tuser_id\tvalid\tfixes\tkept_fixes\tdistance_m\tduration_s\tclosure_m\tmax_speed_kmh\tmax_jump_m\tloop_parts\tloop_area_m2\tcells_claimed\tcells_owned\treasons\n"
        func f(_ x: Double, _ d: Int) -> String { x.isFinite ? String(format: "%.\(d)f", x) : "inf" }
        for j in records {
            let v = j.verdict
            s += [j.id, j.userID, v.valid ? "true" : "false", "\(v.fixes)", "\(j.keptCount)", f(v.distance, 1), f(v.duration, 1),
                  v.closure.map { f($0, 1) } ?? "", f(v.maxSpeedKmh, 1), f(v.maxJump, 1), "\(j.loopParts)", f(j.loopArea, 0),
                  "\(j.cells.count)", "\(owns[j.id] ?? 0)", v.reasons.map(\.description).joined(separator: "; ")].joined(separator: "\t") + "\n"
        }
        return s
    }

    /// What the app's rules alone say of each run (`--app-verdicts`): run_id, valid, reasons,
    /// cells (space-separated), for comparing with runs.tsv and loops.geojson.
    func appVerdictsTSV() -> String {
        "run_id\tvalid\treasons\tcells\n" + records.map(\.appRow).joined()
    }

    static func appVerdictRow(_ run: Run, rules: Rules, resolution: Int) throws -> String {
        let r = try RunResult(run, rules: rules, resolution: resolution)
        return "\(run.id)\t\(r.verdict.valid)\t\(r.verdict.reasons.map(\.description).joined(separator: "; "))\t"
            + r.cells.map { H3Cell.hex($0) }.joined(separator: " ") + "\n"
    }

    /// One row per malformed run, in file order: its feature index, its id when it has one, and
    /// the reason naming the field (the header alone on a night without any).
    func rejectsTSV() -> String {
        func field(_ t: String) -> String { String(t.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }) }
        var s = "feature\trun_id\treason\n"
        for r in rejected { s += "\(r.index)\t\(field(r.id ?? ""))\t\(field(r.reason))\n" }
        return s
    }

    /// Per runner: runs, valid loops, cells owned and their area (km², H3's exact cell areas).
    func usersTSV() throws -> String {
        struct U { var runs = 0, valid = 0, cells = 0; var km2 = 0.0 }
        var us: [String: U] = [:]
        for j in records { us[j.userID, default: U()].runs += 1; if j.verdict.valid { us[j.userID]!.valid += 1 } }
        for c in owned {
            us[c.owner, default: U()].cells += 1
            us[c.owner]!.km2 += try H3.cellAreaKm2(H3Index(c.cell))
        }
        var s = "user_id\truns\tvalid_runs\tcells\tarea_km2\n"
        for (id, u) in us.sorted(by: { $0.value.cells != $1.value.cells ? $0.value.cells > $1.value.cells : $0.key < $1.key }) {
            s += "\(id)\t\(u.runs)\t\(u.valid)\t\(u.cells)\t\(String(format: "%.4f", u.km2))\n"
        }
        return s
    }
}

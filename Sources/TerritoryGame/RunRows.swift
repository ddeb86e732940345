// The runs' and cells' rows as territory_hex.sql writes them (text) and as the night copies
// them (NightRows.swift, binary): one set of values, and one conflict rule each for runs and
// territory_hex, in both.

import GeoFormats
import GeoModel
import TerritoryRules

extension TerritoryGame {
    /// Only the columns the rules decide: the stored path is the game's own record of the
    /// run (the kept fixes are inserted for a run it does not have yet). A reload rewrites
    /// nothing that did not change, and never another runner's run.
    public static let runsConflict = """

        on conflict (id) do update set distance_m = excluded.distance_m, duration_s = excluded.duration_s,
          valid_loop = excluded.valid_loop, loop_polygon = excluded.loop_polygon
          where runs.user_id = excluded.user_id
            and (runs.distance_m, runs.duration_s, runs.valid_loop, runs.loop_polygon)
                is distinct from (excluded.distance_m, excluded.duration_s, excluded.valid_loop, excluded.loop_polygon);

        """

    /// The points a run's row carries, kept fixes and the stored loop's vertices (its size).
    public static func rowPoints(_ v: Verdict, loop: [Polygon]) -> Int {
        v.kept.count + (loop.first?.rings.reduce(0) { $0 + $1.count } ?? 0)
    }

    /// A run's distance is stored to the millimetre, its duration to the microsecond.
    public static let distanceDecimals = 3, durationDecimals = 6

    /// The double PostgreSQL stores for `d` written with `decimals` as runScalars writes it (nil:
    /// null), so that the night's binary COPY sends exactly what the SQL file's text is read as.
    public static func stored(_ d: Double, decimals: Int) -> Double? {
        Double(DecimalText.fixed(d, decimals: decimals))
    }

    /// A run's row of the runs insert up to its geometries, as SQL values each followed by ", ":
    /// id, user_id, started_at, ended_at, distance_m, duration_s, valid_loop.
    public static func runScalars(_ w: inout JSONWriter, _ r: Run, _ v: Verdict) {
        w.raw("'\(r.id)', '\(r.userID)', '\(Timestamp.iso(r.startedAt))', '\(Timestamp.iso(r.endedAt))', ")
        w.fixed(v.distance, decimals: distanceDecimals); w.raw(", ")
        w.fixed(v.duration, decimals: durationDecimals); w.raw(", ")
        w.raw(v.valid ? "true, " : "false, ")
    }

    /// One run's row of the runs insert, `  (id, …, loop_polygon)`, appended to `w` (the
    /// insert joins rows with ",\n").
    public static func sqlRow(_ w: inout JSONWriter, _ r: Run, _ v: Verdict, loop: [Polygon]) {
        w.bytes.reserveCapacity(w.bytes.count + 320 + 26 * rowPoints(v, loop: loop))
        w.raw("  (")
        runScalars(&w, r, v)
        if v.kept.count >= 2 {
            w.raw("'SRID=4326;LINESTRING(")
            w.wktCoordinates(v.kept.count) { (r.lon[v.kept[$0]], r.lat[v.kept[$0]]) }
            w.raw(")', ")
        } else { w.raw("null, ") }
        // The column is a polygon: a figure-eight's lobes do not fit in one, so it
        // keeps the largest (loops.geojson has them all; the cells come from all).
        if let p = loop.first {
            w.raw("'SRID=4326;POLYGON(")
            for (ri, ring) in p.rings.enumerated() {
                if ri > 0 { w.raw(",") }
                w.raw("(")
                w.wktCoordinates(ring.count) { (ring[$0].x, ring[$0].y) }
                w.raw(")")
            }
            w.raw(")')")
        } else { w.raw("null)") }
    }

    /// territory_hex's conflict rule in the live database (the night's merge, a follower's
    /// batch): the claim replaces the stored one only when it beats it by `Claim.beats`'s order,
    /// (claimed_at, its run's arrival, last_run_id): runs.arrival looked up for both (the
    /// game's submit_run migration adds it; 0 for a run stored before); a row without its
    /// boundary yet (written before the migration) gets it whatever the claim.
    public static let cellsConflict = conflict(beats: """
        (excluded.claimed_at, \(arrival(of: "excluded")), excluded.last_run_id) > (territory_hex.claimed_at, \(arrival(of: "territory_hex")), territory_hex.last_run_id)
        """)

    /// The rule of territory_hex.sql (geo-territory's file, for §8's tables alone, which have no
    /// runs.arrival): a file's runs have no arrival (0), so `Claim.beats` orders them by
    /// (claimed_at, last_run_id), deterministic and associative: shards' files loaded in any
    /// order give the unsharded table.
    public static let fileCellsConflict = conflict(beats: """
        (excluded.claimed_at, excluded.last_run_id) > (territory_hex.claimed_at, territory_hex.last_run_id)
        """)

    /// The arrival of the run of `row`'s claim.
    static func arrival(of row: String) -> String { "coalesce((select r.arrival from runs r where r.id = \(row).last_run_id), 0)" }

    /// `on conflict` taking the claim when `beats` (or when the stored row has no claim).
    static func conflict(beats: String) -> String {
        let newer = "territory_hex.claimed_at is null or \(beats)"
        return "on conflict (hex_id) do update set\n"
            + ["owner_user_id", "last_run_id", "claimed_at"].map { "  \($0) = case when \(newer) then excluded.\($0) else territory_hex.\($0) end,\n" }.joined()
            + "  cell = excluded.cell\n"
            + "  where \(newer) or territory_hex.cell is null"
    }
}

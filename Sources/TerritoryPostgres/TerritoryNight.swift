import GeoModel
import GeoPostgres
import NightDatabase
import TerritoryGame

/// The running game (CONTRACTS §8, §8a): tonight's runs judged over the live territory, written
/// to users, runs and territory_hex: new runs by COPY straight into runs, stored runs and the
/// cells by COPY into temporary tables and one set-based merge.
public struct TerritoryNight: AppNight {
    /// Tonight's runs file (an import, a replay); nil: the pending runs in the database.
    public var runs: String?
    public var shard: String?
    public var maxRejects: Int?
    public var threads: Int
    public var inputs: [String] { runs.map { [$0] } ?? [] }

    public init(runs: String?, shard: String?, maxRejects: Int?, threads: Int) {
        self.runs = runs; self.shard = shard; self.maxRejects = maxRejects; self.threads = threads
    }

    public func apply(_ db: PostgresConnection, dryRun: Bool, log: StageLog) throws -> String {
        let missing = try db.query("select string_agg(t, ', ') from unnest(array['users', 'runs', 'territory_hex']) t where to_regclass(t) is null").scalar
        if let missing { throw ContractError(message: "the game's tables \(missing) are missing in \(db.target) (apply the game's migration first)") }
        try Self.refuseOrphans(db)
        try Self.applyMigrations(db, log: log)
        let existing = try Self.liveTerritory(db, log: log)
        guard let runs else { return try applyPending(db, dryRun: dryRun, log: log) }
        // The night's clock (the transaction's start, the runs' created_at): a run ending more than
        // 2 minutes after it is malformed, the others claim at their end capped at it (CONTRACTS §8c).
        let clock = Int64(try db.query("select (extract(epoch from now()) * 1000000)::bigint").scalar ?? "")
        var night = try TerritoryGame.night(input: runs, existing: existing, shard: try shard.map { try Shard(parsing: $0) },
                                             threads: threads, maxRejects: maxRejects, clock: clock, log: log)
        // The coarse cells checked against territory_hex (and repaired) before the merge, whose
        // trigger keeps tonight's cells right: the coarse rows the merge locks (a continent's,
        // shared with the followers) are then held only until commit.
        let zoom = try log.step("territory: check the map at every zoom against territory_hex") {
            let drawn = try Self.writeZoomShapes(db, won: [], standIns: true)
            return (drawn, try db.query("select territory_zoom_repair()").scalar ?? "")
        }
        let written = try Self.write(&night, to: db, log: log)
        let filled = try log.step("territory: fill the boundary of stored cells without one") { try Self.fillMissingBoundaries(db) }
        let would = dryRun ? "would be " : ""
        return "\(formatCount(night.runs.count)) runs (\(formatCount(night.valid)) valid loops\(night.quarantined > 0 ? ", \(night.quarantined) malformed quarantined" : ""))\(shard.map { " [shard \($0)]" } ?? ""): "
            + "\(written.users) users, \(written.runs) runs, \(written.cells) cells \(would)written; \(formatCount(night.owned)) cells owned"
            + (filled > 0 ? "; \(formatCount(filled)) stored cells' boundaries \(would)filled" : "")
            + "; \(formatCount(written.coarseBoundaries + zoom.0)) coarse cells' boundaries \(would)written; \(zoom.1)"
    }

    /// The live territory, read with the stage's own reader of the CSV export; a row that breaks
    /// the contract is refused (`ContractError`).
    public static func liveTerritory(_ db: PostgresConnection, log: StageLog) throws -> [Claim] {
        let lines = try log.step("territory: read territory_hex") { try db.csvLines(TerritoryGame.nightExistingQuery) }
        do { return try ExistingTerritory.read(lines: lines, source: "territory_hex in \(db.target)") }
        catch { throw ContractError(message: "\(error)") }
    }

    /// What `write` changed: rows added to users, runs inserted or updated, cells taken.
    public struct Written: Sendable, Equatable {
        public var users: Int
        public var runs: Int
        public var cells: Int
        /// Boundaries of coarse cells (the map at every zoom) the cells fall in, written first.
        public var coarseBoundaries: Int
    }

    /// Judged runs and their won cells into users, runs and territory_hex, inside the caller's
    /// transaction (once per transaction: it makes the night's temporary tables): new runs by
    /// binary COPY straight into runs, stored runs and the cells through the one set-based
    /// merge (`TerritoryGame.nightMerge`: a cell changes hands only to a claim that beats the
    /// stored one). The night and a follower's batch alike; each run's COPY row is freed once sent.
    public static func write(_ night: inout TerritoryGame.Night, to db: PostgresConnection, log: StageLog) throws -> Written {
        // Runs already stored keep their path (the merge never updates it): it is not sent again,
        // and the rows are locked against deletion until commit, so the merge finds them.
        let stored = try log.step("territory: find tonight's runs already stored") { try storedRuns(db, night.runs.map(\.id)) }
        // A night's paths are ~150 MB of doubles: compressed with lz4 where the server has it
        // (this transaction only; reading is the same), pglz takes several times longer.
        try db.query("""
            select set_config('default_toast_compression', 'lz4', true) from pg_settings
             where name = 'default_toast_compression' and 'lz4' = any(enumvals)
            """)
        try db.execute(TerritoryGame.nightTempTables, name: "the night's temporary tables")
        let users = try log.step("territory: add \(formatCount(night.users.count)) runners to users") {
            try db.copyIn("copy night_users from stdin") { w in
                for u in night.users { try w.row(fields: [u]) }
            }
            return try db.query(TerritoryGame.nightUsersMerge).affected
        }
        let fresh = night.runs.indices.filter { !stored.contains(night.runs[$0].id) }
        let direct = try log.step("territory: copy \(formatCount(fresh.count)) new runs into runs") {
            try copyNewRuns(db, night.runs, fresh, log: log)
        }
        // Rows sent are freed at once (a night's rows are ~150 MB): the runs copied straight into
        // runs here, the others as the merge's COPY sends them.
        if direct != nil { for i in fresh { night.runs[i].copyRow = [] } }
        let merged = direct == nil ? Array(night.runs.indices) : night.runs.indices.filter { stored.contains(night.runs[$0].id) }
        // The boundaries of the coarse cells the won cells fall in, before the merge whose
        // trigger makes those cells (ZoomMigration): the map shows them exactly at commit.
        let shapes = try log.step("territory: write the boundaries of the coarse cells the cells fall in") {
            try writeZoomShapes(db, won: night.won.map(\.cell))
        }
        let written = try log.step("territory: merge \(formatCount(merged.count)) \(direct == nil ? "" : "stored ")runs and \(formatCount(night.won.count)) cells") {
            let nullField: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
            try db.copyIn("copy night_runs (\(TerritoryGame.nightRunColumns)) from stdin", binary: true) { w in
                for i in merged {
                    let r = night.runs[i]
                    if let path = r.pathField, stored.contains(r.id) {
                        try w.row(r.copyRow[..<path.lowerBound], nullField[...], r.copyRow[path.upperBound...])
                    } else {
                        try w.row(r.copyRow)
                    }
                    night.runs[i].copyRow = []
                }
            }
            try db.copyIn("copy night_cells from stdin") { w in
                for c in night.won { try w.row(try TerritoryGame.copyRow(c)) }
            }
            return try TerritoryGame.nightMerge.map { try db.query($0).affected }
        }
        // Judged tonight: a run the app submitted is no longer pending for the followers.
        try log.step("territory: mark tonight's runs judged") { try PendingRuns.markJudged(db, night.runs.map(\.id)) }
        return Written(users: users, runs: (direct ?? 0) + written[0], cells: written[1], coarseBoundaries: shapes)
    }

    /// The game's own migrations (CONTRACTS §8a: territory_hex.cell, territory_in_viewport, RLS;
    /// §8b: submit_run, pending runs; the map at every zoom), the texts make territory writes, inside the caller's
    /// transaction, each unless recorded and present.
    public static func applyMigrations(_ db: PostgresConnection, log: StageLog) throws {
        let present = [migrationPresent, submitMigrationPresent, zoomMigrationPresent, privacyMigrationPresent, fairPlayMigrationPresent,
                       mapSpeedMigrationPresent, runnerRunsMigrationPresent, boxInlineMigrationPresent, cellsUpCloseMigrationPresent]
        precondition(present.count == GameMigration.all.count, "each of the game's migrations needs its present query")
        for (m, present) in zip(GameMigration.all, present) {
            try Migrations.apply(db, app: "territory", name: m.name,
                                 sql: try SQLScript.withoutTransaction(m.sql, source: m.name), present: present, log: log)
        }
    }

    /// What the game's migration makes, as the catalogs say (no table lock): territory_hex.cell
    /// and its index, the viewport function, row-level security on with the read policy.
    /// Missing (a table made again by hand, say), the recorded migration is applied again.
    public static let migrationPresent = """
        select \(Migrations.readPoliciesPresent(["territory_hex": "territory_hex_read"]))
           and coalesce((select relrowsecurity from pg_class where oid = to_regclass('runs')), false)
           and exists (select 1 from pg_attribute where attrelid = to_regclass('territory_hex') and attname = 'cell' and not attisdropped)
           and to_regclass('idx_territory_hex_cell') is not null
           and to_regprocedure('territory_in_viewport(double precision, double precision, double precision, double precision, integer)') is not null
        """

    /// What ZoomMigration makes, as the catalogs say: its tables and index, the four triggers on
    /// territory_hex enabled, the viewport function with the zoom's columns (GameMigration
    /// applied again makes the old one), the cells-only function and the change numbers,
    /// row-level security with its read policy.
    static let zoomMigrationPresent = """
        select coalesce(to_regclass('territory_zoom_owner') is not null and to_regclass('territory_zoom_shape') is not null
           and to_regclass('idx_territory_zoom_cell') is not null
           and (select relrowsecurity from pg_class where oid = to_regclass('territory_zoom'))
           and exists (select 1 from pg_policy where polrelid = to_regclass('territory_zoom') and polname = 'territory_zoom_read')
           and (select count(*) from pg_trigger where tgrelid = to_regclass('territory_hex') and tgenabled = 'O'
                  and tgname in ('territory_zoom_insert', 'territory_zoom_update', 'territory_zoom_delete', 'territory_zoom_truncate')) = 4
           and pg_get_function_result(to_regprocedure('territory_in_viewport(double precision, double precision, double precision, double precision, integer)'))
                 like '%owner_cells integer%'
           and to_regprocedure('territory_cells_in_viewport(double precision, double precision, double precision, double precision, integer, bigint)') is not null
           and exists (select 1 from pg_attribute where attrelid = to_regclass('territory_zoom') and attname = 'change' and not attisdropped), false)
        """

    /// Writes the boundary of every coarse cell the won cells fall in (and, with `standIns`, of
    /// every coarse cell drawn with a stand-in: claimed by another writer where no boundary had
    /// been written) that territory_zoom_shape lacks, before the merge whose trigger takes them
    /// (ZoomMigration). Returns how many.
    @discardableResult
    static func writeZoomShapes(_ db: PostgresConnection, won: [UInt64], standIns: Bool = false) throws -> Int {
        var wanted = Set(TerritoryGame.zoomParents(of: won).map { Int64(bitPattern: $0) })
        if standIns {
            wanted.formUnion(try db.query("select h3 from territory_zoom where not exact").rows.compactMap { $0[0].flatMap { Int64($0) } })
        }
        guard !wanted.isEmpty else { return 0 }
        let known = Set(try db.query("select h3 from territory_zoom_shape where h3 = any($1::bigint[])",
                                     ["{" + wanted.map(String.init).joined(separator: ",") + "}"]).rows.compactMap { $0[0].flatMap { Int64($0) } })
        let missing = wanted.subtracting(known).sorted()
        guard !missing.isEmpty else { return 0 }
        try db.execute("""
            create temporary table if not exists night_zoom_shapes (h3 bigint primary key, cell geometry(polygon, 4326)) on commit drop;
            truncate night_zoom_shapes
            """, name: "the night's coarse boundaries table")
        try db.copyIn("copy night_zoom_shapes (h3, cell) from stdin") { w in
            for h in missing { try w.row(try TerritoryGame.zoomShapeCopyRow(UInt64(bitPattern: h))) }
        }
        return try db.query("insert into territory_zoom_shape select h3, cell from night_zoom_shapes order by h3 on conflict do nothing").affected
    }

    /// What the submit_run migration makes: the pending runs' columns and index, submit_run and
    /// my_runs, and the grants the app relies on (the first migration, applied again, revokes them;
    /// select on runs, which the privacy migration grants: then this one and those after it are
    /// applied again).
    public static let submitMigrationPresent = """
        select (select count(*) from pg_attribute where attrelid = to_regclass('runs')
                 and attname in ('judged_at', 'submission') and not attisdropped) = 2
           and to_regclass('idx_runs_pending') is not null
           and to_regclass('my_runs') is not null
           and to_regprocedure('submit_run(jsonb)') is not null
           and has_function_privilege('authenticated', 'submit_run(jsonb)', 'execute')
           and has_table_privilege('authenticated', 'my_runs', 'select')
           and has_table_privilege('authenticated', 'runs', 'select')
        """

    /// What the privacy migration makes (CONTRACTS §8c): row-level security and the own-row
    /// policies on users and runs, my_runs and territory_runner_stats read as their caller, the
    /// hex sheet, territory_in_viewport with its owner's rights, claimed_at closed to the client
    /// roles, and the runner totals with their eight triggers. An earlier migration applied again
    /// (which grants and revokes on the same tables) sends it again too.
    static let privacyMigrationPresent = """
        select coalesce(\(Migrations.readPoliciesPresent(["users": "users_read", "runs": "runs_own", "territory_runner_totals": "territory_runner_totals_read"]))
           and (select count(*) from pg_policy where polrelid = to_regclass('users') and polname in ('users_insert_own', 'users_update_own')) = 2
           and (select count(*) from pg_class where oid in (to_regclass('my_runs'), to_regclass('territory_runner_stats'))
                  and reloptions @> array['security_invoker=true']) = 2
           and to_regprocedure('territory_hex_sheet(text)') is not null
           and (select bool_and(prosecdef) from pg_proc where oid = to_regprocedure('territory_in_viewport(double precision, double precision, double precision, double precision, integer)'))
           and has_table_privilege('authenticated', 'runs', 'select') and has_table_privilege('authenticated', 'my_runs', 'select')
           and not has_column_privilege('authenticated', 'territory_hex', 'claimed_at', 'select')
           and not has_column_privilege('authenticated', 'territory_zoom', 'claimed_at', 'select')
           and (select count(*) from pg_trigger where tgenabled = 'O' and tgname like 'territory_runner_totals_%'
                  and tgrelid in (to_regclass('runs'), to_regclass('territory_hex'))) = 8, false)
        """

    /// What the fair_play migration makes (CONTRACTS §8c): the stored runs' signatures with row-level
    /// security on, and the rules submit_run calls.
    public static let fairPlayMigrationPresent = """
        select coalesce(to_regclass('run_signatures') is not null
           and (select relrowsecurity from pg_class where oid = to_regclass('run_signatures'))
           and to_regprocedure('submit_run_rules(jsonb, uuid, timestamp with time zone[])') is not null
           and to_regprocedure('fair_play_store_signature(uuid, jsonb)') is not null, false)
        """

    /// What the territory_map_speed migration makes: territory_in_viewport with its read up close
    /// (its comment names the migration; the zoom migration applied again makes the function
    /// without it), run with its owner's rights; the coarse levels' pass and trigger as it makes
    /// them (the zoom migration applied again makes the earlier ones), and territory_zoom_flush.
    static let mapSpeedMigrationPresent = """
        select coalesce(obj_description(to_regprocedure('territory_in_viewport(double precision, double precision, double precision, double precision, integer)'), 'pg_proc')
                 like '%(territory_map_speed)%'
           and (select prosecdef from pg_proc where oid = to_regprocedure('territory_in_viewport(double precision, double precision, double precision, double precision, integer)'))
           and to_regprocedure('territory_zoom_flush()') is not null
           and (select prosrc like '%territory.zoom_defer%' from pg_proc where oid = to_regprocedure('territory_zoom_after_write()'))
           and (select prosrc like '%one row version a cell%' from pg_proc where oid = to_regprocedure('territory_zoom_refresh_pass(bigint[], boolean)')), false)
        """

    /// What the runner_runs migration makes: each runner's count of stored runs in
    /// territory_runner_runs (read policy on), written by runs' trigger (the privacy migration
    /// applied again makes the earlier one) and read by the stats view.
    static let runnerRunsMigrationPresent = """
        select coalesce(\(Migrations.readPoliciesPresent(["territory_runner_runs": "territory_runner_runs_read"]))
           and (select prosrc like '%territory_runner_runs_add%' from pg_proc where oid = to_regprocedure('territory_runner_totals_after_runs()'))
           and pg_get_viewdef(to_regclass('territory_runner_stats')) like '%territory_runner_runs%', false)
        """

    /// What the territory_box_inline migration makes: territory_zoom_box as one expression, no
    /// FROM (the zoom migration applied again makes the earlier body).
    static let boxInlineMigrationPresent = """
        select coalesce((select position(' from ' in lower(prosrc)) = 0 from pg_proc
                          where oid = to_regprocedure('territory_zoom_box(double precision, double precision, double precision, double precision)')), false)
        """

    /// What the territory_cells_up_close migration makes: territory_cells_in_viewport with the
    /// up-close read (the zoom migration applied again makes the earlier body), run with its
    /// owner's rights.
    static let cellsUpCloseMigrationPresent = """
        select coalesce((select prosrc like '%Up close, the whole answer%' and prosecdef from pg_proc
                          where oid = to_regprocedure('territory_cells_in_viewport(double precision, double precision, double precision, double precision, integer, bigint)')), false)
        """

    /// Rows stored before the game's migration (or by a writer that left `cell` empty) get their
    /// cell's boundary, as territory_hex.sql writes it: after a night every row has one
    /// (CONTRACTS §8a). Their hex_id was checked when the live territory was read.
    public static func fillMissingBoundaries(_ db: PostgresConnection) throws -> Int {
        let ids = try db.query("select hex_id from territory_hex where cell is null").rows.compactMap { $0[0] }
        guard !ids.isEmpty else { return 0 }
        try db.execute("create temporary table night_boundaries (hex_id text primary key, cell geometry(polygon, 4326)) on commit drop",
                       name: "the night's boundaries table")
        try db.copyIn("copy night_boundaries from stdin") { w in
            for id in ids { try w.row(try TerritoryGame.boundaryCopyRow(hexID: id)) }
        }
        return try db.query("update territory_hex t set cell = b.cell from night_boundaries b where t.hex_id = b.hex_id and t.cell is null").affected
    }

    /// Runs not stored yet go straight into runs by binary COPY (no temporary table, no merge):
    /// the cheapest way in. Should one of them have been stored meanwhile (the app's own writer,
    /// since the stored runs were looked up), the COPY fails on its key, is rolled back to its
    /// savepoint, and nil sends every run through the merge instead. Returns the runs copied.
    public static func copyNewRuns(_ db: PostgresConnection, _ runs: [TerritoryGame.NightRun], _ fresh: [Int], log: StageLog) throws -> Int? {
        guard !fresh.isEmpty else { return 0 }
        try db.query("savepoint night_new_runs")
        do {
            let copied = try db.copyIn("copy runs (\(TerritoryGame.nightRunColumns)) from stdin", binary: true) { w in
                for i in fresh { try w.row(runs[i].copyRow) }
            }
            try db.query("release savepoint night_new_runs")
            return copied
        } catch let e as PostgresError where e.sqlState == "23505" {
            try db.query("rollback to savepoint night_new_runs")
            log.info("territory: a run was stored while the night ran (\(e.message)); every run goes through the merge")
            return nil
        }
    }

    /// Which of `ids` runs has already, each locked (`for key share`) until the transaction ends.
    public static func storedRuns(_ db: PostgresConnection, _ ids: [String]) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let rows = try db.query("select id::text from runs where id = any($1::uuid[]) for key share",
                                ["{" + ids.joined(separator: ",") + "}"]).rows
        return Set(rows.compactMap { $0[0] })
    }

    /// A territory row whose owner is not in users (or whose run is not in runs) breaks the
    /// contract: the night would build on it, so it stops, naming the rows.
    public static func refuseOrphans(_ db: PostgresConnection) throws {
        let rows = try db.query("""
            select t.hex_id, coalesce(t.owner_user_id::text, ''), coalesce(t.last_run_id::text, ''),
                   case when u.id is null then 'owner_user_id not in users' else 'last_run_id not in runs' end
              from territory_hex t left join users u on u.id = t.owner_user_id left join runs r on r.id = t.last_run_id
             where (t.owner_user_id is not null and u.id is null) or (t.last_run_id is not null and r.id is null)
             order by t.hex_id limit 21
            """).rows
        guard !rows.isEmpty else { return }
        let named = rows.prefix(20).map { "\($0[0] ?? "") (owner \($0[1] ?? ""), run \($0[2] ?? ""): \($0[3] ?? ""))" }
        throw ContractError(message: "territory_hex in \(db.target) has rows that break the contract: "
                            + named.joined(separator: ", ") + (rows.count > 20 ? ", …" : ""))
    }
}

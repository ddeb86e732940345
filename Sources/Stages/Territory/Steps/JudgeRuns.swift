import GeoGEOS
import GeoModel
import TerritoryGame
import TerritoryRules

extension TerritoryStage {
    /// Tonight's runs as the outputs need them: one record per run of the shard, in file
    /// order; the malformed runs quarantined; the spools holding the runs' SQL rows.
    struct JudgedRuns {
        var records: [RunRecord]
        var rejected: [RejectedRun]
        var spools: RowSpools
    }

    /// Each worker's state: its GEOS context and its spool of SQL rows (made on first use).
    final class JudgeWorker {
        let geos = GEOSContext()
        var spool: RowSpools.Spool?
    }

    /// Runs are judged, their loops built and their cells claimed as they are decoded, on
    /// every worker; the file's pages are handed back behind them. More malformed runs than
    /// `--max-rejects` allows stop the stage here.
    static func judgeRuns(_ o: Options, shard: Shard?, log: StageLog) throws -> JudgedRuns {
        let file = try MappedFile(path: o.input)
        let rules = o.rules, resolution = o.resolution, loops = o.loopsGeoJSON, input = o.input, app = o.appVerdicts
        // Each worker's rows of the runs insert go to its own scratch file (`RowSpools`).
        let spools = RowSpools()
        let decoded = try log.step("read and judge runs, build loops, claim cells") {
            try RunsReader.eachRun(file.buffer, file: o.input, workers: o.runs.threads, makeState: { JudgeWorker() },
                                   released: { file.release($0) }) { run, worker -> (fixes: Int, record: RunRecord?) in
                if let s = shard, try !s.contains(runHome: run, resolution: resolution) { return (run.fixCount, nil) }
                let (v, loop, cells) = try TerritoryGame.judgeOne(run, rules: rules, resolution: resolution, file: input, geos: worker.geos)
                if worker.spool == nil { worker.spool = try spools.make() }
                var record = try RunRecord(run: run, verdict: v, loop: loop, cells: cells, resolution: resolution, loopsGeoJSON: loops,
                                           spool: worker.spool!)
                if app { record.appRow = try TerritoryOutputs.appVerdictRow(run, rules: rules, resolution: resolution) }
                return (run.fixCount, record)
            }
        }
        try TerritoryGame.quarantine(decoded.rejected, of: decoded.features, allowed: o.runs.allowedRejects(features: decoded.features), input: o.input, log: log)
        var records: [RunRecord] = []
        records.reserveCapacity(decoded.runs.count)
        var fixes = 0
        for d in decoded.runs {
            fixes += d.value.fixes
            if var r = d.value.record { r.index = d.index; records.append(r) }
        }
        let replays = try markReplays(&records, rules: rules, spools: spools)
        if replays > 0 { log.info("\(formatCount(replays)) replays of earlier runs (runs.tsv: replay)") }
        log.info("\(formatCount(decoded.features)) runs, \(formatCount(fixes)) fixes" + (decoded.rejected.isEmpty ? "" : ", \(formatCount(decoded.rejected.count)) malformed (rejects.tsv)"))
        try spools.finish()
        return JudgedRuns(records: records, rejected: decoded.rejected, spools: spools)
    }

    /// Replays (CONTRACTS §8c, `ReplayIndex`): each run, in file order, against the runs before
    /// it that submit_run would have stored (not refused); a replay is judged invalid with the
    /// reason `replay`, claims nothing, and its row is written again. The app cannot see replays
    /// (app_verdicts.tsv gives its own verdict). Returns how many.
    static func markReplays(_ records: inout [RunRecord], rules: Rules, spools: RowSpools) throws -> Int {
        var index = ReplayIndex()
        var spool: RowSpools.Spool?
        var count = 0
        for i in records.indices {
            let r = records[i]
            let kept = Array(r.path.indices)
            let run = Run(index: r.index, id: r.id, userID: r.userID, lon: r.path.map(\.x), lat: r.path.map(\.y),
                          time: [r.startedAt] + [Int64](repeating: r.endedAt, count: max(r.path.count - 1, 0)), accuracy: [])
            guard let reason = index.check(run, kept: kept, rules: rules) else {
                if !r.verdict.reasons.contains(where: \.code.refusedAtSubmission) { index.add(run, kept: kept) }
                continue
            }
            count += 1
            var v = r.verdict
            v.reasons.append(reason)
            v.kept = kept
            records[i].verdict.reasons = v.reasons
            records[i].cells = []
            records[i].loopParts = 0
            records[i].loopArea = 0
            records[i].loopsFeature = []
            if spool == nil { spool = try spools.make() }
            records[i].sqlRow = try spool!.append { TerritoryGame.sqlRow(&$0, run, v, loop: []) }
        }
        return count
    }
}

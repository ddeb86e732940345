import GeoModel
import TerritoryGame
import Parallelism

extension TerritoryStage {
    /// The outputs in `--output-dir` (and the game's migration with `--migration-dir`). The big
    /// files (the SQL, loops.geojson) are written under a temporary name while the small ones
    /// are formatted, and every file takes its name only once all are made: a failure leaves
    /// none behind. Takes the records out of `judged` (loops.geojson's features move into the
    /// file's parts, not copied).
    static func writeOutputs(_ o: Options, _ judged: inout JudgedRuns, _ claims: Claims, shard: Shard?, log: StageLog) throws {
        try log.step("format and write outputs in \(o.outputDir)") {
            var out = TerritoryOutputs(records: judged.records, owned: claims.owned, won: claims.won, resolution: o.resolution, input: o.input,
                                       shard: shard, rejected: judged.rejected, spools: judged.spools)
            judged.records = []
            let loopsParts = o.loopsGeoJSON ? out.loopsParts() : []
            let big = ["territory_hex.sql"] + (o.loopsGeoJSON ? ["loops.geojson"] : [])
            let small: [(String, @Sendable (TerritoryOutputs) throws -> [UInt8])] = [
                ("territory.geojson", { @Sendable in try $0.territoryGeoJSON() }), ("preview.svg", { Array(try $0.previewSVG().utf8) }),
                ("runs.tsv", { Array($0.runsTSV().utf8) }), ("users.tsv", { Array(try $0.usersTSV().utf8) }),
                ("rejects.tsv", { Array($0.rejectsTSV().utf8) }),
            ] + (o.appVerdicts ? [("app_verdicts.tsv", { @Sendable in Array($0.appVerdictsTSV().utf8) })] : [])
            let staged = big.map { StagedFile(dir: o.outputDir, name: $0) }
            defer { for f in staged { f.discard() } }
            let outputs = out, paths = staged.map(\.path)
            enum Job { case sql, loops, make(Int) }
            let jobs = [Job.sql] + (o.loopsGeoJSON ? [Job.loops] : []) + small.indices.map { Job.make($0) }
            let made = try Parallel.map(jobs, workers: o.runs.threads, makeState: { () }) { job, _ -> [UInt8] in
                switch job {
                case .sql: return Array("\(try outputs.writeSQL(to: paths[0]))".utf8)
                case .loops: try FileIO.writeAtomically(parts: loopsParts, to: paths[1]); return []
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
    }
}

import GeoModel
import TerritoryGame
import TerritoryRules

extension TerritoryStage {
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
            sqlRow = try spool.append { TerritoryGame.sqlRow(&$0, run, v, loop: loop) }
            loopsFeature = loopsGeoJSON && v.valid ? TerritoryOutputs.loopsFeature(run, loop: loop, cells: cells, resolution: resolution) : []
            verdict.kept = []
        }
    }
}

import GeoGEOS
import GeoModel
import Testing
import TerritoryGame
import TerritoryRules

/// A follower judges runs one at a time (`NightRun(judging:)`) and folds each batch over what
/// the batches before it claimed (`Night(runs:existing:)`): the same rows and the same territory
/// as one night over the whole file.
@Suite struct NightBatchTests {
    @Test func batchesFoldToTheNightsTerritory() throws {
        let input = Repo.path("data/territory/runs.geojson")
        let night = try TerritoryGame.night(input: input, existing: [], shard: nil, threads: 2, log: StageLog(stage: "test", quiet: true))
        let geos = GEOSContext()
        // Judged one at a time, then given the arrival order the night gives them (the follower's
        // come from runs.arrival).
        var judged = try RunsReader.read(path: input, workers: 2).map { try TerritoryGame.NightRun(judging: $0, file: input, geos: geos) }
        for i in judged.indices where i < night.runs.count { judged[i].arrival = night.runs[i].arrival }
        #expect(judged.map(\.id) == night.runs.map(\.id))
        #expect(judged.map(\.copyRow) == night.runs.map(\.copyRow))
        #expect(judged.map(\.cells) == night.runs.map(\.cells))

        for cut in [0, 7, 13, judged.count] {
            let first = TerritoryGame.Night(runs: Array(judged[..<cut]), existing: [])
            let second = TerritoryGame.Night(runs: Array(judged[cut...]), existing: first.won)
            // What the table holds after both batches: the first's claims, then the second's over them.
            var table: [UInt64: Claim] = [:]
            for c in first.won + second.won { table[c.cell] = c }
            #expect(table.values.sorted { $0.cell < $1.cell } == night.won, "cut at \(cut)")
            #expect(second.owned == night.owned, "cut at \(cut)")
        }
    }
}

import Foundation
import Testing
import GeoModel
@testable import IngestStage
@testable import WorldStage

/// What a vertex budget decides is recorded to the last bit and can be given back: a release
/// reuses it (`--tolerance-km`), so borders an edit does not touch come out identical.
@Suite struct WorldToleranceTests {
    @Test func theBudgetsToleranceGivenBackGivesTheSameWorld() throws {
        let o = IngestStage.Options.standard(dataDir: Repo.path("data"), units: Repo.units50m)
        let input = try IngestStage.build(o, log: StageLog(stage: "test", quiet: true)).features
        let budget = try WorldRun.world(input) { $0.simplification = .vertexBudget(40_000) }
        let line = WorldStage.reportTSV(budget.report).split(separator: "\n").first { $0.hasPrefix("# tolerance_km_exact\t") }
        let recorded = try #require(line.flatMap { Double($0.split(separator: "\t")[1]) })
        #expect(recorded == budget.report.toleranceKm && recorded > 0)
        let fixed = try WorldRun.world(input) { $0.simplification = .toleranceKm(recorded) }
        #expect(fixed.features == budget.features)
    }
}

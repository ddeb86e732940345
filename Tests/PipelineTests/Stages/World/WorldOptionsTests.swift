import Foundation
import StageContract
import Testing
import GeoModel
@testable import WorldStage

/// The command line's simplification flags are read once into one mode, and the options
/// refuse what the stage cannot use with the message the front prints.
@Suite struct WorldOptionsTests {
    typealias Mode = WorldStage.Simplification

    func message(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch let e as OptionsError { return e.message } catch { return "\(error)" }
    }

    @Test func zeroKeepsEveryVertexAndAToleranceWinsOverTheBudget() throws {
        #expect(try Mode(targetVertices: 0, toleranceKm: nil) == .keepAll)
        #expect(try Mode(targetVertices: 175_000, toleranceKm: 0) == .keepAll)
        #expect(try Mode(targetVertices: 175_000, toleranceKm: nil) == .vertexBudget(175_000))
        #expect(try Mode(targetVertices: 0, toleranceKm: 1.5) == .toleranceKm(1.5))
        #expect(try Mode(targetVertices: 60_000, toleranceKm: 2) == .toleranceKm(2))
        #expect(Mode.vertexBudget(60_000).vertexBudget == 60_000 && Mode.toleranceKm(2).vertexBudget == nil && Mode.keepAll.toleranceKm == nil)
        // The point countries' positions come off a budget, not off a tolerance.
        #expect(Mode.vertexBudget(1_000).spending(30) == .vertexBudget(970))
        #expect(Mode.toleranceKm(2).spending(30) == .toleranceKm(2))
    }

    @Test func badValuesNameTheOption() {
        #expect(message { _ = try Mode(targetVertices: -1, toleranceKm: 2) } == "--target-vertices must be 0 or more")
        #expect(message { _ = try Mode(targetVertices: 10, toleranceKm: -1) } == "--tolerance-km must be 0 or more")
        #expect(message { _ = try Mode(targetVertices: 10, toleranceKm: .nan) } == "--tolerance-km must be 0 or more")
        var o = WorldStage.Options()
        #expect(message { try o.validate() } == nil)
        o.simplification = .vertexBudget(-5)
        #expect(message { try o.validate() } == "--target-vertices must be 0 or more")
        o = WorldStage.Options(); o.minIslandKm2 = -1
        #expect(message { try o.validate() } == "--min-island-km2 must be 0 or more")
        o = WorldStage.Options(); o.threads = 0
        #expect(message { try o.validate() } == "--threads must be at least 1")
    }
}

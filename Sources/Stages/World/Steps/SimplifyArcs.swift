import Foundation
import GeoModel

/// The simplified arcs and the numbers the report gives of the first simplification.
struct SimplifiedArcs {
    var simplifier: ArcSimplifier
    /// The run's simplification with the point countries' positions taken off a budget:
    /// what the arcs may use (kept for re-solving after a restore).
    let mode: WorldStage.Simplification
    let toleranceKm: Double
    let topologyFixes: Int
    let rounds: Int
}

extension WorldStage {
    /// Each arc simplified once (ArcSimplifier) to the options' simplification, with
    /// the topology checks.
    static func simplifyArcs(_ coverage: Coverage, _ countries: CountrySet, _ o: Options, log: StageLog) throws -> SimplifiedArcs {
        let graph = coverage.graph
        log.info("\(formatCount(graph.points.count)) distinct vertices, \(formatCount(graph.junctionCount)) junctions, \(formatCount(graph.arcs.count)) arcs (\(formatCount(graph.sharedArcCount)) shared borders)")
        // One position per point country, those of the input and those decided here.
        let points = countries.features.count - countries.areal.count + coverage.decision.isPoint.filter { $0 }.count
        let mode = o.simplification.spending(points)
        var simplifier = log.step("DP importance of \(formatCount(graph.arcs.count)) arcs") { ArcSimplifier(graph: graph, threads: o.threads) }
        try log.step("simplify arcs") {
            try forFile(countries.file) { try simplifier.run(mode, log: log, countryName: countries.id) }
        }
        let tolerance = max(0, simplifier.epsilon)
        let fixes = simplifier.forced.reduce(0) { $0 + $1.filter { $0 }.count }
        log.info("tolerance \(simplifier.epsilon < 0 ? "0 (every vertex kept)" : String(format: "%.3f", tolerance)) km after \(simplifier.rounds) rounds; \(fixes) vertices kept back for topology")
        return SimplifiedArcs(simplifier: simplifier, mode: mode, toleranceKm: tolerance, topologyFixes: fixes, rounds: simplifier.rounds)
    }
}

extension ArcGraph {
    /// Arcs used by two rings: the borders between countries (or between a country's parts).
    var sharedArcCount: Int { uses.filter { $0 > 1 }.count }
}

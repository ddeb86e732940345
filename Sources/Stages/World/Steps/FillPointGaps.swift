import Foundation
import GeoModel
import GeoGEOS

extension WorldStage {
    /// The point countries' parts that border drawn countries go to the neighbour with
    /// the longest shared border (PointGaps), before anything is simplified. The coverage is
    /// then rebuilt once from the merged polygons, and the parts and holes decided again with
    /// the same point countries. Returns `decided` as is when there is no gap to fill.
    /// `measured` is the graph before the decision (nothing released), `polygons` the repaired
    /// countries it was built from.
    static func fillPointGaps(_ decided: Coverage, measured: MeasuredGraph, polygons: [[Polygon]], countries: CountrySet,
                              _ o: Options, log: StageLog) throws -> Coverage {
        let first = decided.decision
        let plan = PointGaps.plan(graph: measured.graph, isPoint: first.isPoint, ringAreaKm2: measured.ringAreas,
                                  ids: countries.areal.indices.map(countries.id))
        guard !plan.fills.isEmpty else { return decided }
        let (merged, origin) = try log.step("fill the gaps of \(plan.fills.count) point-country borders") {
            try PointGaps.apply(plan, graph: measured.graph, countries: polygons, refs: countries.areal.map { countries.refs[$0] },
                                file: countries.file, ctx: GEOSContext())
        }
        log.info("point-country gaps filled (longest shared border): " + plan.fills.map {
            "\($0.from) → \($0.to) (\(String(format: "%.2f", $0.areaKm2)) km², \(String(format: "%.1f", $0.borderKm)) of \(String(format: "%.1f", $0.totalBorderKm)) km of border)"
        }.joined(separator: ", "))
        let before = measured.graph
        var graph = log.step("arc graph with the gaps filled") { ArcGraph(countries: merged, pinned: isPinned) }
        // Polygons that did not change keep their rings' areas; the merged ones are measured.
        var known = [Double](repeating: .nan, count: graph.rings.count)
        for (c, polys) in graph.polygons.enumerated() {
            for (p, rs) in polys.enumerated() {
                guard let old = origin[c][p] else { continue }
                for (k, r) in rs.enumerated() { known[r] = measured.ringAreas[before.polygons[c][old][k]] }
            }
        }
        let count = known.filter(\.isNaN).count
        let ringAreas = try log.step("areas of \(count) merged rings") {
            try Self.ringAreas(graph, exactBelowKm2: exactAreaBelowKm2(o), threads: o.threads, known: known)
        }
        var decision = PointCountries.decide(graph: &graph, ringAreaKm2: ringAreas, minIslandKm2: o.minIslandKm2,
                                             pointAreaKm2: o.pointAreaKm2, points: first.isPoint)
        // A point country's areas are what it had before it gave its parts away.
        for c in first.isPoint.indices where first.isPoint[c] {
            decision.drawableKm2[c] = first.drawableKm2[c]; decision.largestPartKm2[c] = first.largestPartKm2[c]
        }
        return Coverage(graph: graph, ringAreas: ringAreas, decision: decision, fills: plan.fills)
    }
}

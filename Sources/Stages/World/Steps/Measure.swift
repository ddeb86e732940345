import Foundation
import GeoModel

extension WorldStage {
    /// The output features (input properties without `neUnits`, `renderAs: "point"` on
    /// points) and the report: per country its vertices, shape error (Metrics) and what was
    /// dropped, given or received; the vertex budget met or out of reach; the error percentiles.
    static func measure(_ countries: CountrySet, repairs: [Repair.Record], coverage: Coverage, arcs: SimplifiedArcs,
                        validated: ValidatedCoverage, pointFrom: [String?], _ o: Options, log: StageLog) -> (features: [Feature], report: Report) {
        let graph = coverage.graph, decision = coverage.decision
        var report = Report(output: o.output)
        report.targetVertices = o.simplification.vertexBudget
        report.minIslandKm2 = o.minIslandKm2; report.pointAreaKm2 = o.pointAreaKm2; report.fillPointGaps = o.fillPointGaps
        report.verticesBefore = countries.verticesBefore
        report.repairs = repairs
        report.fills = coverage.fills
        report.arcs = graph.arcs.count
        report.sharedArcs = graph.sharedArcCount
        report.junctions = graph.junctionCount
        report.toleranceKm = arcs.toleranceKm
        report.topologyFixes = arcs.topologyFixes
        report.rounds = arcs.rounds
        report.restoredArcs = validated.restoredArcs
        report.warnings = validated.warnings

        let (arcErrors, vertexKm) = Metrics.arcErrors(arcs.simplifier)
        var out: [Feature] = []
        var arealIndex = [Int: Int]()
        for (c, fi) in countries.areal.enumerated() { arealIndex[fi] = c }
        for (fi, f) in countries.features.enumerated() {
            let g = validated.geometries[fi]!
            var props = JSONObject()
            for e in f.properties.entries where e.key != "neUnits" && e.key != "renderAs" { props[e.key] = e.value }
            var cr = CountryReport(id: f.id!, name: f.string("name")!, verticesBefore: f.geometry.vertexCount, verticesAfter: g.vertexCount,
                                   hausdorffKm: 0, p95DistanceKm: 0, droppedParts: 0, droppedHoles: 0, filledHoles: 0, droppedAreaKm2: 0, drawableKm2: 0, largestPartKm2: 0,
                                   isPoint: false, pointFrom: nil)
            if case .point = g {
                props["renderAs"] = .string("point")
                cr.isPoint = true; cr.pointFrom = pointFrom[fi]
            }
            cr.filledInto = report.fills.filter { $0.from == f.id! }.map(\.to)
            cr.receivedFrom = report.fills.filter { $0.to == f.id! }.map(\.from)
            cr.filledAreaKm2 = report.fills.filter { $0.from == f.id! || $0.to == f.id! }.reduce(0) { $0 + $1.areaKm2 }
            if let c = arealIndex[fi] {
                cr.droppedParts = decision.droppedParts[c]; cr.droppedHoles = decision.droppedHoles[c]
                cr.filledHoles = decision.filledHoles[c]; cr.droppedAreaKm2 = decision.droppedAreaKm2[c]
                cr.drawableKm2 = decision.drawableKm2[c]
                cr.largestPartKm2 = decision.largestPartKm2[c]
                if !decision.isPoint[c] {
                    var worst = 0.0
                    var distances: [Float] = []
                    for p in decision.keptPolygons[c] {
                        for r in [graph.polygons[c][p][0]] + (decision.keptHoles[c][p] ?? []) {
                            for u in graph.rings[r].arcs {
                                worst = max(worst, arcErrors[Int(u.arc)])
                                distances.append(contentsOf: vertexKm[Int(u.arc)])
                            }
                        }
                    }
                    cr.hausdorffKm = worst
                    cr.p95DistanceKm = Double(Metrics.percentile(distances, 95))
                }
            }
            report.countries.append(cr)
            report.verticesAfter += g.vertexCount
            out.append(Feature(id: f.id, properties: props, geometry: g))
        }
        // The budget: met within 2%, or out of reach (the input has fewer vertices, or its fixed
        // vertices — arc ends, ±180° points, three per ring, topology — are more).
        if let t = report.targetVertices, abs(report.verticesAfter - t) * 50 > t {
            report.reachableVertices = report.verticesAfter
            report.budgetNote = report.verticesAfter < t
                ? "every vertex of the drawn parts is kept (the input has \(formatCount(report.verticesBefore)), point countries and dropped islands included)"
                : "the fewest this simplifier reaches: arc ends, ±180° points, three per ring, and \(formatCount(report.topologyFixes)) kept so no arc crosses another"
            report.warnings.append("the vertex budget \(formatCount(t)) cannot be met: the output has \(formatCount(report.verticesAfter)) vertices, \(report.budgetNote!)")
        }
        for w in report.warnings { log.info("warning: \(w)") }
        let drawn = report.countries.filter { !$0.isPoint }.map(\.hausdorffKm)
        report.p95HausdorffKm = Metrics.percentile(drawn, 95)
        report.maxHausdorffKm = drawn.max() ?? 0
        return (out, report)
    }
}

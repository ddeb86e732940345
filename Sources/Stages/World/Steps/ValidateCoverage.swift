import Foundation
import GeoModel
import GeoGEOS
import Parallelism

/// The drawn countries rebuilt from the simplified arcs, every one valid for GEOS.
struct ValidatedCoverage {
    /// By feature index (id order); nil for point countries and the input's points.
    var geometries: [Geometry?]
    /// Arcs put back to full detail (GEOS rejections and the topology round limit).
    var restoredArcs = 0
    var warnings: [String] = []
}

extension WorldStage {
    /// Rebuilds the drawn countries from the kept arc vertices and validates them with
    /// GEOS. Should GEOS still find a country invalid (a case the topology checks do not
    /// cover), its arcs go back to full detail and the coverage is re-solved (three attempts).
    static func validateCoverage(_ coverage: Coverage, _ arcs: inout SimplifiedArcs, _ countries: CountrySet,
                                 _ o: Options, log: StageLog) throws -> ValidatedCoverage {
        let graph = coverage.graph, decision = coverage.decision
        let areal = countries.areal, file = countries.file
        var result = ValidatedCoverage(geometries: [Geometry?](repeating: nil, count: countries.features.count))
        let toValidate = areal.indices.filter { !decision.isPoint[$0] }
        for attempt in 1...3 {
            let kept = graph.arcs.indices.map { arcs.simplifier.keptIndices($0) }
            for c in toValidate {
                var polys: [Polygon] = []
                for p in decision.keptPolygons[c] {
                    let rs = graph.polygons[c][p]
                    var rings = [graph.ringPoints(rs[0], kept: kept)]
                    for h in decision.keptHoles[c][p] ?? [] { rings.append(graph.ringPoints(h, kept: kept)) }
                    polys.append(RingMath.orientedForRFC7946(Polygon(rings: rings)))
                }
                result.geometries[areal[c]] = Geometry.areal(polys)
            }
            let geometries = result.geometries
            let problems: [String?] = try log.step("validate \(toValidate.count) polygons with GEOS") {
                try parallelMap(toValidate.count, threads: o.threads) { k, ctx in
                    let fi = areal[toValidate[k]]
                    return try forFeature(file: file, countries.refs[fi]) {
                        let g = try ctx.geometry(geometries[fi]!)
                        return try g.isValid() ? nil : g.validityReason()
                    }
                }
            }
            let invalid = toValidate.indices.filter { problems[$0] != nil }
            if invalid.isEmpty { break }
            let text = invalid.map { "\(countries.id(toValidate[$0])): \(problems[$0]!)" }.joined(separator: "; ")
            guard attempt < 3 else {
                let first = areal[toValidate[invalid[0]]]
                throw InputError(file: file, feature: countries.refs[first],
                                 "is invalid after simplification even with its arcs at full detail (GEOS: \(problems[invalid[0]]!))"
                                 + (invalid.count > 1 ? "; also invalid: \(text)" : ""))
            }
            log.info("invalid after simplification, restoring full detail on their arcs: \(text)")
            var restore = Set<Int>()
            for k in invalid {
                let c = toValidate[k]
                for p in decision.keptPolygons[c] {
                    for r in [graph.polygons[c][p][0]] + (decision.keptHoles[c][p] ?? []) { for u in graph.rings[r].arcs { restore.insert(Int(u.arc)) } }
                }
            }
            arcs.simplifier.restore(restore)
            try forFile(file) { try arcs.simplifier.run(arcs.mode, log: log, countryName: countries.id) }
            result.restoredArcs += restore.count
        }
        let atLimit = arcs.simplifier.restoredAtRoundLimit
        if !atLimit.isEmpty {
            result.restoredArcs += atLimit.count
            result.warnings.append("the topology rounds did not settle within their limit: \(atLimit.count) arcs restored to full detail ("
                                   + arcs.simplifier.describe(Set(atLimit), countries.id) + ")")
        }
        return result
    }
}

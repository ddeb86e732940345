import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ

/// The world stage: the ingest's countries → dist/world.geojson (CONTRACTS §1).
/// Repair (GEOS make-valid), drop small islands, decide point countries, simplify the
/// coverage through its shared arcs to a vertex budget, validate, measure, write.
public enum WorldStage {
    public struct Options: Sendable {
        /// Total positions in the output (polygons' vertices, closing points included, plus one per point country).
        /// Ignored when `toleranceKm` is set; with neither, every vertex is kept.
        public var targetVertices: Int? = 175_000
        /// A fixed Douglas–Peucker tolerance in km instead of the budget (0 keeps every vertex).
        public var toleranceKm: Double?
        /// Islands and empty holes below this geodesic area (km²) are dropped.
        public var minIslandKm2 = 10.0
        /// Countries whose largest drawable part (km², geodesic) is below this become points.
        public var pointAreaKm2 = 2_500.0
        /// Give point countries' parts that share a border with drawn countries to the neighbour
        /// with the longest shared border, so no hole opens in the land (PointGaps).
        public var fillPointGaps = true
        public var threads = 2
        public var decimals = 6
        public init() {}
    }

    public struct CountryReport: Sendable {
        public var id: String
        public var name: String
        public var verticesBefore: Int
        public var verticesAfter: Int
        /// Hausdorff distance (km on the ground, an upper bound) between the output and the input's kept parts.
        public var hausdorffKm: Double
        /// 95th percentile of the input vertices' distances (km) to the output, kept parts only.
        public var p95DistanceKm: Double
        public var droppedParts: Int
        public var droppedHoles: Int
        public var filledHoles: Int
        public var droppedAreaKm2: Double
        public var drawableKm2: Double
        public var largestPartKm2: Double
        public var isPoint: Bool
        public var pointFrom: String?
        /// A point country: the neighbours its bordering parts went to (PointGaps), in id order.
        public var filledInto: [String] = []
        /// A drawn country: the point countries whose area it received, in id order.
        public var receivedFrom: [String] = []
        /// km² given (point country) or received (drawn country).
        public var filledAreaKm2 = 0.0
    }

    /// A point country's bordering parts given to one neighbour.
    public struct GapFill: Sendable, Equatable {
        public var from: String
        public var to: String
        public var parts: Int
        public var areaKm2: Double
        /// Border (km) the parts shared with `to`, and with all drawn neighbours, in the input.
        public var borderKm: Double
        public var totalBorderKm: Double
    }

    public struct RepairReport: Sendable {
        public var id: String
        public var reason: String
        public var areaBeforeKm2: Double
        public var areaAfterKm2: Double
        public var verticesBefore: Int
        public var verticesAfter: Int
        public var newVertices: [Point]
    }

    public struct Report: Sendable {
        public var countries: [CountryReport] = []
        public var repairs: [RepairReport] = []
        public var arcs = 0
        public var sharedArcs = 0
        public var junctions = 0
        public var toleranceKm = 0.0
        public var topologyFixes = 0
        public var rounds = 0
        /// Arcs put back to full detail because GEOS found a rebuilt country invalid (normally 0).
        public var restoredArcs = 0
        /// Point countries' parts given to their neighbours (PointGaps), by point country id.
        public var fills: [GapFill] = []
        public var verticesBefore = 0
        public var verticesAfter = 0
        /// The vertex budget, only when one drove the run (not with a fixed tolerance).
        public var targetVertices: Int?
        /// Set when the budget cannot be met (more than 2% off): the count the output has, which is
        /// the most the input allows (every vertex kept) or the fewest its fixed vertices allow.
        public var reachableVertices: Int?
        public var budgetNote: String?
        /// Problems worth a person's attention that did not stop the run (the budget, the round limit).
        public var warnings: [String] = []
        public var p95HausdorffKm = 0.0
        public var maxHausdorffKm = 0.0
        /// The decisions' parameters, for the report (consumer checks follow them).
        public var minIslandKm2 = 0.0
        public var pointAreaKm2 = 0.0
        public var fillPointGaps = true
        public var pointIds: [String] { countries.filter(\.isPoint).map(\.id) }
    }

    public static func run(_ input: [Feature], file: String, options o: Options, log: StageLog) throws -> (features: [Feature], report: Report) {
        var report = Report()
        report.targetVertices = o.toleranceKm == nil ? o.targetVertices : nil
        report.minIslandKm2 = o.minIslandKm2; report.pointAreaKm2 = o.pointAreaKm2; report.fillPointGaps = o.fillPointGaps
        // Input checks: ids, names, geometry types.
        var seen = Set<String>()
        for (i, f) in input.enumerated() {
            let ref = FeatureRef(index: i, name: f.string("name"), id: f.id)
            guard let id = f.id, CountryID.isValid(id) else { throw InputError(file: file, feature: ref, "has no two-letter upper-case id") }
            guard seen.insert(id).inserted else { throw InputError(file: file, feature: ref, "repeats the id \(id)") }
            guard f.string("name") != nil else { throw InputError(file: file, feature: ref, "has no name property") }
            guard f.string("continent") != nil else { throw InputError(file: file, feature: ref, "has no continent property") }
        }
        let order = input.indices.sorted { input[$0].id! < input[$1].id! }
        let features = order.map { input[$0] }
        let refs = order.map { FeatureRef(index: $0, name: input[$0].string("name"), id: input[$0].id) }
        let areal = features.enumerated().filter { if case .point = $0.element.geometry { return false }; return true }.map(\.offset)
        for f in features { report.verticesBefore += f.geometry.vertexCount }

        // 1. Repair.
        let (repaired, repairs) = try log.step("check \(areal.count) countries with GEOS") {
            try Repair.run(areal.map { (refs[$0], features[$0].id!, features[$0].geometry.polygons) }, decimals: o.decimals, threads: o.threads, file: file)
        }
        report.repairs = repairs.map { RepairReport(id: $0.id, reason: $0.reason, areaBeforeKm2: $0.areaBeforeKm2, areaAfterKm2: $0.areaAfterKm2,
                                                    verticesBefore: $0.verticesBefore, verticesAfter: $0.verticesAfter, newVertices: $0.newVertices) }
        for r in report.repairs {
            log.info("repaired \(r.id): \(r.reason); area \(String(format: "%.3f", r.areaBeforeKm2)) → \(String(format: "%.3f", r.areaAfterKm2)) km², vertices \(r.verticesBefore) → \(r.verticesAfter)")
        }

        // 2. Arcs.
        let pinned: (Point) -> Bool = { abs($0.x) == 180 || abs($0.y) == 90 }
        var graph = log.step("arc graph") { ArcGraph(countries: repaired, pinned: pinned) }
        let exactBelow = 4 * max(o.minIslandKm2, o.pointAreaKm2)
        var ringAreas: [Double] = try log.step("ring areas") {
            try Self.ringAreas(graph, exactBelowKm2: exactBelow, threads: o.threads)
        }

        // 3. Islands, holes and point countries; point countries' gaps filled by their neighbours
        // (the coverage is rebuilt once with the merged polygons, before anything is simplified).
        var decision: PointCountries.Decision
        if o.fillPointGaps {
            var probe = graph
            let first = PointCountries.decide(graph: &probe, ringAreaKm2: ringAreas, minIslandKm2: o.minIslandKm2, pointAreaKm2: o.pointAreaKm2)
            let plan = PointGaps.plan(graph: graph, isPoint: first.isPoint, ringAreaKm2: ringAreas)
            if plan.fills.isEmpty {
                // Nothing to merge: the probe's decision is the decision.
                graph = probe
                decision = first
            } else {
                let (merged, origin) = try log.step("fill the gaps of \(plan.fills.count) point-country borders") {
                    try PointGaps.apply(plan, graph: graph, countries: repaired, refs: areal.map { refs[$0] }, file: file, ctx: GEOSContext())
                }
                report.fills = plan.fills.map {
                    GapFill(from: features[areal[$0.from]].id!, to: features[areal[$0.to]].id!, parts: $0.parts,
                            areaKm2: $0.areaKm2, borderKm: $0.borderKm, totalBorderKm: $0.totalBorderKm)
                }
                log.info("point-country gaps filled (longest shared border): " + report.fills.map {
                    "\($0.from) → \($0.to) (\(String(format: "%.2f", $0.areaKm2)) km², \(String(format: "%.1f", $0.borderKm)) of \(String(format: "%.1f", $0.totalBorderKm)) km of border)"
                }.joined(separator: ", "))
                let before = graph
                graph = log.step("arc graph with the gaps filled") { ArcGraph(countries: merged, pinned: pinned) }
                // Polygons that did not change keep their rings' areas; the merged ones are measured.
                var known = [Double](repeating: .nan, count: graph.rings.count)
                for (c, polys) in graph.polygons.enumerated() {
                    for (p, rs) in polys.enumerated() {
                        guard let old = origin[c][p] else { continue }
                        for (k, r) in rs.enumerated() { known[r] = ringAreas[before.polygons[c][old][k]] }
                    }
                }
                let measured = known.filter(\.isNaN).count
                ringAreas = try log.step("areas of \(measured) merged rings") {
                    try Self.ringAreas(graph, exactBelowKm2: exactBelow, threads: o.threads, known: known)
                }
                decision = PointCountries.decide(graph: &graph, ringAreaKm2: ringAreas, minIslandKm2: o.minIslandKm2,
                                                 pointAreaKm2: o.pointAreaKm2, points: first.isPoint)
                for c in areal.indices where first.isPoint[c] {
                    decision.drawableKm2[c] = first.drawableKm2[c]; decision.largestPartKm2[c] = first.largestPartKm2[c]
                }
            }
        } else {
            decision = PointCountries.decide(graph: &graph, ringAreaKm2: ringAreas, minIslandKm2: o.minIslandKm2, pointAreaKm2: o.pointAreaKm2)
        }
        report.arcs = graph.arcs.count
        report.sharedArcs = graph.uses.filter { $0 > 1 }.count
        report.junctions = graph.junctionCount
        log.info("\(formatCount(graph.points.count)) distinct vertices, \(formatCount(graph.junctionCount)) junctions, \(formatCount(graph.arcs.count)) arcs (\(formatCount(report.sharedArcs)) shared borders)")

        // 4. Simplify the coverage.
        let pointCount = features.count - areal.count + decision.isPoint.filter { $0 }.count
        var simplifier = log.step("DP importance of \(formatCount(graph.arcs.count)) arcs") { ArcSimplifier(graph: graph, threads: o.threads) }
        let budget = o.toleranceKm == nil ? o.targetVertices.map { $0 - pointCount } : nil
        let countryName = { (c: Int) in features[areal[c]].id! }
        try log.step("simplify arcs") {
            try forFile(file) { try simplifier.run(budget: budget, tolerance: o.toleranceKm, log: log, countryName: countryName) }
        }
        report.toleranceKm = max(0, simplifier.epsilon)
        report.topologyFixes = simplifier.forced.reduce(0) { $0 + $1.filter { $0 }.count }
        report.rounds = simplifier.rounds
        log.info("tolerance \(simplifier.epsilon < 0 ? "0 (every vertex kept)" : String(format: "%.3f", report.toleranceKm)) km after \(simplifier.rounds) rounds; \(report.topologyFixes) vertices kept back for topology")
        // 5. Rebuild, validate. Should GEOS still find a country invalid (a case the topology
        // checks do not cover), its arcs go back to full detail and the coverage is re-solved.
        var geometries = [Geometry?](repeating: nil, count: features.count)
        let toValidate = areal.indices.filter { !decision.isPoint[$0] }
        for attempt in 1...3 {
            let kept = graph.arcs.indices.map { simplifier.keptIndices($0) }
            for c in toValidate {
                var polys: [Polygon] = []
                for p in decision.keptPolygons[c] {
                    let rs = graph.polygons[c][p]
                    var rings = [graph.ringPoints(rs[0], kept: kept)]
                    for h in decision.keptHoles[c][p] ?? [] { rings.append(graph.ringPoints(h, kept: kept)) }
                    polys.append(RingMath.orientedForRFC7946(Polygon(rings: rings)))
                }
                geometries[areal[c]] = Geometry.areal(polys)
            }
            let problems: [String?] = try log.step("validate \(toValidate.count) polygons with GEOS") {
                try parallelMap(toValidate.count, threads: o.threads) { k, ctx in
                    let fi = areal[toValidate[k]]
                    return try forFeature(file: file, refs[fi]) {
                        let g = try ctx.geometry(geometries[fi]!)
                        return try g.isValid() ? nil : g.validityReason()
                    }
                }
            }
            let invalid = toValidate.indices.filter { problems[$0] != nil }
            if invalid.isEmpty { break }
            let text = invalid.map { "\(features[areal[toValidate[$0]]].id!): \(problems[$0]!)" }.joined(separator: "; ")
            guard attempt < 3 else {
                let first = areal[toValidate[invalid[0]]]
                throw InputError(file: file, feature: refs[first],
                                 "is invalid after simplification even with its arcs at full detail (GEOS: \(problems[invalid[0]]!))"
                                 + (invalid.count > 1 ? "; also invalid: \(text)" : ""))
            }
            log.info("invalid after simplification, restoring full detail on their arcs: \(text)")
            var arcs = Set<Int>()
            for k in invalid {
                let c = toValidate[k]
                for p in decision.keptPolygons[c] {
                    for r in [graph.polygons[c][p][0]] + (decision.keptHoles[c][p] ?? []) { for u in graph.rings[r].arcs { arcs.insert(Int(u.arc)) } }
                }
            }
            simplifier.restore(arcs)
            try forFile(file) { try simplifier.run(budget: budget, tolerance: o.toleranceKm, log: log, countryName: countryName) }
            report.restoredArcs += arcs.count
        }
        if !simplifier.restoredAtRoundLimit.isEmpty {
            report.restoredArcs += simplifier.restoredAtRoundLimit.count
            report.warnings.append("the topology rounds did not settle within their limit: \(simplifier.restoredAtRoundLimit.count) arcs restored to full detail ("
                                   + simplifier.describe(Set(simplifier.restoredAtRoundLimit), countryName) + ")")
        }

        // 6. Point countries: at the capital, or the largest part's inner point.
        let ctx = GEOSContext()
        var pointFrom = [String?](repeating: nil, count: features.count)
        for (c, fi) in areal.enumerated() where decision.isPoint[c] {
            let f = features[fi]
            if let lat = f.double("capitalLat"), let lon = f.double("capitalLon") {
                geometries[fi] = .point(Point(lon, lat)); pointFrom[fi] = "capital"
            } else {
                let polys = repaired[c]
                let largest = polys.max { Geodesic.wgs84.area($0) < Geodesic.wgs84.area($1) }!
                geometries[fi] = .point(try forFeature(file: file, refs[fi]) {
                    try ctx.polygon(largest).pointOnSurface()
                }); pointFrom[fi] = "largest part"
            }
        }
        for (fi, f) in features.enumerated() where geometries[fi] == nil {
            geometries[fi] = f.geometry; pointFrom[fi] = "input"  // already a point in the input
        }

        // 7. Measure.
        let (arcErrors, vertexKm) = Metrics.arcErrors(simplifier)
        var out: [Feature] = []
        var arealIndex = [Int: Int]()
        for (c, fi) in areal.enumerated() { arealIndex[fi] = c }
        for (fi, f) in features.enumerated() {
            let g = geometries[fi]!
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

extension WorldStage {
    /// Unsigned area (km²) of every graph ring: first on the authalic sphere with the fast
    /// trapezoid-style formula Σ (λᵢ₊₁ − λᵢ₋₁)·sin φᵢ·R²/2; rings that come out below
    /// `exactBelowKm2` (where a threshold decision is made) are measured again on the WGS84
    /// ellipsoid (geodesic, Karney), which is what the thresholds mean.
    /// `known[r]`, where not NaN, is ring r's area already (kept as is).
    static func ringAreas(_ graph: ArcGraph, exactBelowKm2: Double, threads: Int, known: [Double]? = nil) throws -> [Double] {
        let r2 = (Geodesic.authalicRadius / 1000) * (Geodesic.authalicRadius / 1000)
        return try parallelMap(graph.rings.count, threads: threads) { i, _ in
            if let k = known?[i], !k.isNaN { return k }
            let ring = graph.originalRing(i)
            let n = ring.count - 1
            guard n >= 3 else { return 0 }
            var sum = 0.0
            for k in 0..<n {
                let prev = ring[(k + n - 1) % n], next = ring[k + 1]
                var dl = next.x - prev.x
                if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
                sum += dl * .pi / 180 * sin(ring[k].y * .pi / 180)
            }
            let approx = abs(sum) * r2 / 2
            return approx < exactBelowKm2 ? abs(Geodesic.wgs84.ringArea(ring)) / 1e6 : approx
        }
    }

    /// The per-country report as TSV (sorted by id), then the repairs.
    public static func reportTSV(_ r: Report) -> String {
        var s = "id\tname\trender\tvertices_before\tvertices_after\thausdorff_km\tp95_distance_km\tdrawable_km2\tlargest_part_km2\tdropped_parts\tdropped_area_km2\tdropped_holes\tfilled_holes\tgap_filled_into\tgap_received_from\tgap_area_km2\n"
        for c in r.countries {
            s += "\(c.id)\t\(c.name)\t\(c.isPoint ? "point(\(c.pointFrom ?? ""))" : "polygon")\t\(c.verticesBefore)\t\(c.verticesAfter)\t"
            s += String(format: "%.3f\t%.3f\t%.1f\t%.1f\t", c.hausdorffKm, c.p95DistanceKm, c.drawableKm2, c.largestPartKm2)
            s += "\(c.droppedParts)\t" + String(format: "%.2f", c.droppedAreaKm2) + "\t\(c.droppedHoles)\t\(c.filledHoles)\t"
            s += c.filledInto.joined(separator: ",") + "\t" + c.receivedFrom.joined(separator: ",") + "\t" + String(format: "%.2f", c.filledAreaKm2) + "\n"
        }
        if let t = r.targetVertices { s += "# target_vertices\t\(t)\n" }
        if let n = r.reachableVertices { s += "# budget_unreachable\t\(n)\t\(r.budgetNote ?? "")\n" }
        s += "# tolerance_km\t" + String(format: "%.4f", r.toleranceKm) + "\n"
        s += "# min_island_km2\t\(r.minIslandKm2)\n# point_area_km2\t\(r.pointAreaKm2)\n# fill_point_gaps\t\(r.fillPointGaps ? "yes" : "no")\n"
        s += "# total\t\t\t\(r.verticesBefore)\t\(r.verticesAfter)\tp95 " + String(format: "%.3f max %.3f", r.p95HausdorffKm, r.maxHausdorffKm) + "\n"
        for f in r.fills {
            s += "# gap filled \(f.from) → \(f.to): \(f.parts) part\(f.parts == 1 ? "" : "s"), " + String(format: "%.3f km², border %.3f of %.3f km", f.areaKm2, f.borderKm, f.totalBorderKm) + "\n"
        }
        s += "# points_by_area\t" + r.countries.filter { $0.isPoint && $0.pointFrom != "input" }.map(\.id).joined(separator: " ") + "\n"
        s += "# points_in_input\t" + r.countries.filter { $0.isPoint && $0.pointFrom == "input" }.map(\.id).joined(separator: " ") + "\n"
        for rep in r.repairs {
            s += "# repaired \(rep.id): \(rep.reason); area " + String(format: "%.3f → %.3f km²", rep.areaBeforeKm2, rep.areaAfterKm2)
            s += "; vertices \(rep.verticesBefore) → \(rep.verticesAfter)\n"
        }
        return s
    }
}

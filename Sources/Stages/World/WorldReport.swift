import Foundation
import GeoModel
import StageContract

extension WorldStage {
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

    public struct Report: StageReport, Sendable {
        /// Where the GeoJSON went (for the summary).
        public var output: String
        public var countries: [CountryReport] = []
        public var repairs: [Repair.Record] = []
        public var arcs = 0
        public var sharedArcs = 0
        public var junctions = 0
        public var toleranceKm = 0.0
        public var topologyFixes = 0
        public var rounds = 0
        /// Arcs put back to full detail because GEOS found a rebuilt country invalid (normally 0).
        public var restoredArcs = 0
        /// Point countries' parts given to their neighbours (PointGaps), by point country id.
        public var fills: [PointGaps.Fill] = []
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

        public init(output: String) { self.output = output }

        public var summary: String {
            let f = { (d: Double) in String(format: "%.2f", d) }
            let points = countries.filter(\.isPoint).count
            return "\(countries.count) countries (\(points) points, \(fills.count) gap\(fills.count == 1 ? "" : "s") filled), \(repairs.count) repaired, \(formatCount(verticesBefore)) → \(formatCount(verticesAfter)) vertices (tolerance \(String(format: "%.3f", toleranceKm)) km, \(topologyFixes) kept for topology), Hausdorff p95 \(f(p95HausdorffKm)) km, max \(f(maxHausdorffKm)) km → \(output)"
        }
    }

    /// What a person reads of the run: per country (with `perCountry`), the dropped
    /// parts and holes, the point countries, the largest errors; with a quiet log, the warnings
    /// alone.
    static func logDetails(_ r: Report, perCountry: Bool, log: StageLog) {
        let f = { (d: Double) in String(format: "%.2f", d) }
        if perCountry {
            for c in r.countries {
                let shape = c.isPoint ? "point (\(c.pointFrom ?? ""))" : "Hausdorff \(f(c.hausdorffKm)) km, p95 \(f(c.p95DistanceKm)) km"
                let drops = c.droppedParts + c.droppedHoles > 0 ? ", dropped \(c.droppedParts) parts / \(c.droppedHoles) holes" : ""
                var gap = ""
                if !c.filledInto.isEmpty { gap = ", area given to \(c.filledInto.joined(separator: ", ")) (\(f(c.filledAreaKm2)) km²)" }
                if !c.receivedFrom.isEmpty { gap = ", received the area of \(c.receivedFrom.joined(separator: ", ")) (\(f(c.filledAreaKm2)) km²)" }
                log.info("\(c.id) \(c.name): \(c.verticesBefore) → \(c.verticesAfter) vertices, \(shape)\(drops)\(gap)")
            }
        }
        let dropped = r.countries.filter { $0.droppedParts + $0.droppedHoles + $0.filledHoles > 0 }
        if !dropped.isEmpty {
            log.info("dropped under \(f(r.minIslandKm2)) km²: " + dropped.map { c in
                var parts: [String] = []
                if c.droppedParts > 0 { parts.append("\(c.droppedParts) part\(c.droppedParts == 1 ? "" : "s") (\(f(c.droppedAreaKm2)) km²)") }
                if c.droppedHoles > 0 { parts.append("\(c.droppedHoles) hole\(c.droppedHoles == 1 ? "" : "s")") }
                if c.filledHoles > 0 { parts.append("\(c.filledHoles) hole\(c.filledHoles == 1 ? "" : "s") of a point country filled") }
                return "\(c.id) \(parts.joined(separator: ", "))"
            }.joined(separator: "; "))
        }
        let points = r.countries.filter(\.isPoint)
        let byArea = points.filter { $0.pointFrom != "input" }.map(\.id), inInput = points.filter { $0.pointFrom == "input" }.map(\.id)
        log.info("points because of the area threshold (largest drawable part < \(f(r.pointAreaKm2)) km²): \(byArea.isEmpty ? "none" : byArea.joined(separator: " ")); "
                 + "points because the input has no polygon for them: \(inInput.isEmpty ? "none" : inInput.joined(separator: " "))")
        // A quiet run prints no progress, but a warning still reaches the person who ran it.
        if log.quiet { for w in r.warnings { FileHandle.standardError.write(Data("geo-world: warning: \(w)\n".utf8)) } }

        log.info("point countries (\(points.count), largest drawable part < \(f(r.pointAreaKm2)) km², or no polygon in the input): "
                 + points.map { "\($0.id)\($0.pointFrom == "input" ? "*" : "")" }.joined(separator: " ") + "  (* = a point in the input)")
        let worst = r.countries.filter { !$0.isPoint }.sorted { ($0.hausdorffKm, $1.id) > ($1.hausdorffKm, $0.id) }.prefix(5)
        log.info("largest Hausdorff (km): " + worst.map { "\($0.id) \(f($0.hausdorffKm))" }.joined(separator: ", "))
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
        // The same tolerance to the last bit (Swift's shortest round-trip form): a release passes it
        // back with --tolerance-km, so that arcs an edit does not touch come out identical.
        s += "# tolerance_km_exact\t\(r.toleranceKm)\n"
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

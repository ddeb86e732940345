import ArgumentParser
import Foundation
import GeoModel
import WorldStage

struct WorldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo-world",
        abstract: "The ingest's countries → the app's world.geojson: repaired, simplified as a coverage, small countries as points.",
        discussion: """
        Reads build/ingest/countries.geojson (geo-ingest's output) and writes
        dist/world.geojson (CONTRACTS §1):
        • every country is checked with GEOS; invalid ones are repaired with
          make-valid (structure method), each repair reported with GEOS's
          reason and the geodesic area before and after;
        • islands and empty holes under --min-island-km2 are dropped; parts and
          holes that share a border are kept, and a country keeps its largest
          part at least;
        • countries whose largest drawable part is under --point-area-km2
          become renderAs "point" at their capital (the list is printed);
        • with --fill-point-gaps (the default), a point country's parts that
          share a border with drawn countries are given, before simplifying,
          to the neighbour they share the longest border with (ground length,
          from the data; at 1:10m Andorra goes to Spain, Liechtenstein to
          Switzerland, Monaco, San Marino and Vatican City to the country
          around them). The land stays continuous (no hole where the point
          country was), the point country's other borders become the
          receiver's, shared point for point; the receiver's Hausdorff
          distance is measured against its input plus what it received.
          Parts touching no drawn country (islands) are dropped as before.
          The fills are printed and reported (--report: gap_filled_into,
          gap_received_from, gap_area_km2 columns, "# gap filled" lines);
        • the coverage is simplified through its shared arcs: each border
          between junctions is simplified once (Douglas–Peucker, error as
          ground distance in km to the lon/lat segment; one tolerance found to
          hit --target-vertices, or --tolerance-km instead; 0 for either keeps
          every vertex) and both neighbours are rebuilt from it, so
          shared borders stay identical; junctions and ±180° points never move;
          no simplified segment crosses another or jumps over a vertex; every
          output polygon is checked valid with GEOS;
        • per-country vertices before/after, Hausdorff distance and p95 vertex
          distance (km) go to --report (TSV), with "# target_vertices" only when
          a budget drove the run, and "# budget_unreachable" (also a warning)
          when the budget is more than 2% from what the input allows;
        • the point countries are printed in two lists: those under the area
          threshold, and those the input has only as a point.
        Output is deterministic and written atomically.

        Example:
          geo-world build/ingest/countries.geojson -o dist/world.geojson \\
            --target-vertices 175000 --report build/world/report.tsv
        """)

    @Argument(help: "The ingest stage's countries GeoJSON.")
    var input: String = "build/ingest/countries.geojson"

    @Option(name: [.short, .customLong("output")], help: "Output GeoJSON file.")
    var output: String = "dist/world.geojson"

    @Option(help: "Total positions in the output (closing points included, one per point country). 0 keeps every vertex.")
    var targetVertices: Int = 175_000

    @Option(help: "Use this Douglas–Peucker tolerance (km on the sphere) instead of the vertex budget (0 keeps every vertex).")
    var toleranceKm: Double?

    @Option(help: "Islands and empty holes smaller than this (km², geodesic) are dropped.")
    var minIslandKm2: Double = 10

    @Option(help: "Countries whose largest drawable part (km², geodesic) is below this become renderAs \"point\".")
    var pointAreaKm2: Double = 2_500

    @Flag(inversion: .prefixedNo, help: "Give point countries' bordering parts to the neighbour with the longest shared border, so no hole opens in the land.")
    var fillPointGaps = true

    @Option(help: "Worker threads (one GEOS context each).")
    var threads: Int = 2

    @Option(help: "Write the per-country report (TSV) here.")
    var report: String?

    @Flag(help: "Also print one progress line per country (vertices before → after, Hausdorff, p95 distance, drops).")
    var perCountry = false

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    func validate() throws {
        guard targetVertices >= 0 else { throw ValidationError("--target-vertices must be 0 or more") }
        if let t = toleranceKm, !(t >= 0) { throw ValidationError("--tolerance-km must be 0 or more") }
        guard minIslandKm2 >= 0, pointAreaKm2 >= 0 else { throw ValidationError("areas must be 0 or more") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        let log = StageLog(stage: "world", quiet: quiet)
        let features = try log.step("read \(input)") { try GeoJSON.read(path: input) }
        var o = WorldStage.Options()
        o.targetVertices = targetVertices == 0 || toleranceKm != nil ? nil : targetVertices
        o.toleranceKm = toleranceKm ?? (targetVertices == 0 ? 0 : nil)
        o.minIslandKm2 = minIslandKm2
        o.pointAreaKm2 = pointAreaKm2
        o.fillPointGaps = fillPointGaps
        o.threads = threads
        let (out, r) = try WorldStage.run(features, file: input, options: o, log: log)
        try log.step("write \(output)") { try GeoJSON.write(out, to: output) }
        if let report { try log.step("write \(report)") { try FileIO.writeAtomically(WorldStage.reportTSV(r), to: report) } }

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
            log.info("dropped under \(f(minIslandKm2)) km²: " + dropped.map { c in
                var parts: [String] = []
                if c.droppedParts > 0 { parts.append("\(c.droppedParts) part\(c.droppedParts == 1 ? "" : "s") (\(f(c.droppedAreaKm2)) km²)") }
                if c.droppedHoles > 0 { parts.append("\(c.droppedHoles) hole\(c.droppedHoles == 1 ? "" : "s")") }
                if c.filledHoles > 0 { parts.append("\(c.filledHoles) hole\(c.filledHoles == 1 ? "" : "s") of a point country filled") }
                return "\(c.id) \(parts.joined(separator: ", "))"
            }.joined(separator: "; "))
        }
        let points = r.countries.filter(\.isPoint)
        let byArea = points.filter { $0.pointFrom != "input" }.map(\.id), inInput = points.filter { $0.pointFrom == "input" }.map(\.id)
        log.info("points because of the area threshold (largest drawable part < \(f(pointAreaKm2)) km²): \(byArea.isEmpty ? "none" : byArea.joined(separator: " ")); "
                 + "points because the input has no polygon for them: \(inInput.isEmpty ? "none" : inInput.joined(separator: " "))")
        if quiet { for w in r.warnings { FileHandle.standardError.write(Data("geo-world: warning: \(w)\n".utf8)) } }

        log.info("point countries (\(points.count), largest drawable part < \(f(pointAreaKm2)) km², or no polygon in the input): "
                 + points.map { "\($0.id)\($0.pointFrom == "input" ? "*" : "")" }.joined(separator: " ") + "  (* = a point in the input)")
        let worst = r.countries.filter { !$0.isPoint }.sorted { ($0.hausdorffKm, $1.id) > ($1.hausdorffKm, $0.id) }.prefix(5)
        log.info("largest Hausdorff (km): " + worst.map { "\($0.id) \(f($0.hausdorffKm))" }.joined(separator: ", "))
        log.summary("\(out.count) countries (\(points.count) points, \(r.fills.count) gap\(r.fills.count == 1 ? "" : "s") filled), \(r.repairs.count) repaired, \(formatCount(r.verticesBefore)) → \(formatCount(r.verticesAfter)) vertices (tolerance \(String(format: "%.3f", r.toleranceKm)) km, \(r.topologyFixes) kept for topology), Hausdorff p95 \(f(r.p95HausdorffKm)) km, max \(f(r.maxHausdorffKm)) km → \(output)")
    }
}

WorldCommand.main()

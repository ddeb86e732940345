import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoGEOS
@testable import IngestStage
@testable import WorldStage

/// Helpers: run ingest on a real Natural Earth slice, then the world stage on its output.
enum WorldRun {
    static func ingest(_ file: String, _ units: Set<String>, set codes: [String]) throws -> [Feature] {
        let dir = temporaryDirectory()
        var o = IngestStage.Options.standard(dataDir: Repo.path("data"), units: try Slices.file(file, units, in: dir))
        o.countrySetPath = writeFile(dir, "set.txt", codes.joined(separator: "\n") + "\n")
        return try IngestStage.build(o, log: StageLog(stage: "test", quiet: true)).features
    }

    static func world(_ input: [Feature], _ configure: (inout WorldStage.Options) -> Void = { _ in }) throws -> (out: [String: Feature], report: WorldStage.Report, features: [Feature]) {
        var o = WorldStage.Options()
        o.simplification = .toleranceKm(1.5)
        configure(&o)
        let (features, report) = try WorldStage.build(input, file: "slice.geojson", options: o, log: StageLog(stage: "test", quiet: true))
        return (Dictionary(uniqueKeysWithValues: features.map { ($0.id!, $0) }), report, features)
    }

    struct Segment: Hashable { var a: Point, b: Point }

    /// Undirected segments of a feature's rings (zero-length ones skipped).
    static func segments(_ f: Feature) -> Set<Segment> {
        var s = Set<Segment>()
        for p in f.geometry.polygons {
            for r in p.rings {
                for k in 0..<(r.count - 1) where r[k] != r[k + 1] {
                    let a = r[k], b = r[k + 1]
                    s.insert((a.x, a.y) < (b.x, b.y) ? Segment(a: a, b: b) : Segment(a: b, b: a))
                }
            }
        }
        return s
    }

    /// The ends of the chains a set of segments forms (vertices used once).
    static func chainEnds(_ segs: Set<Segment>) -> Set<Point> {
        var degree: [Point: Int] = [:]
        for s in segs { degree[s.a, default: 0] += 1; degree[s.b, default: 0] += 1 }
        return Set(degree.filter { $0.value == 1 }.keys)
    }

    /// Two neighbours share their border in the output, segment for segment, from the same
    /// ends as in the input (no gap opened anywhere along it), and do not overlap.
    static func expectSharedBorder(_ a: String, _ b: String, input: [String: Feature], output: [String: Feature],
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = segments(input[a]!).intersection(segments(input[b]!))
        let after = segments(output[a]!).intersection(segments(output[b]!))
        #expect(!before.isEmpty, "\(a)/\(b) share no border in the input", sourceLocation: sourceLocation)
        #expect(!after.isEmpty, "\(a)/\(b) share no border in the output", sourceLocation: sourceLocation)
        #expect(chainEnds(before) == chainEnds(after), "\(a)/\(b): shared border ends differ", sourceLocation: sourceLocation)
        #expect(after.count < before.count, "\(a)/\(b): the shared border was not simplified", sourceLocation: sourceLocation)
        let ctx = GEOSContext()
        let ga = try ctx.geometry(output[a]!.geometry), gb = try ctx.geometry(output[b]!.geometry)
        #expect(try ga.intersection(gb).area() < 1e-12, "\(a)/\(b) overlap", sourceLocation: sourceLocation)
    }

    static func expectValid(_ out: [String: Feature], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ctx = GEOSContext()
        for (id, f) in out.sorted(by: { $0.key < $1.key }) {
            if case .point = f.geometry { continue }
            let g = try ctx.geometry(f.geometry)
            #expect(try g.isValid(), "\(id): \(g.validityReason())", sourceLocation: sourceLocation)
            for p in f.geometry.polygons {
                #expect(RingMath.isCounterClockwise(p.exterior), "\(id): exterior not counter-clockwise", sourceLocation: sourceLocation)
                for h in p.holes { #expect(!RingMath.isCounterClockwise(h), "\(id): hole not clockwise", sourceLocation: sourceLocation) }
            }
        }
    }

    static func byId(_ fs: [Feature]) -> [String: Feature] { Dictionary(uniqueKeysWithValues: fs.map { ($0.id!, $0) }) }
}

@Suite struct WorldTests {
    @Test func franceSpainAndorraKeepIdenticalBorders() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["FXX", "ESP", "AND"], set: ["AD", "ES", "FR"])
        let (out, report, _) = try WorldRun.world(input) { $0.pointAreaKm2 = 0 }
        let src = WorldRun.byId(input)
        try WorldRun.expectValid(out)
        try WorldRun.expectSharedBorder("ES", "FR", input: src, output: out)
        try WorldRun.expectSharedBorder("AD", "FR", input: src, output: out)
        try WorldRun.expectSharedBorder("AD", "ES", input: src, output: out)
        // The two triple points France–Spain–Andorra are junctions: they never move.
        let triple = WorldRun.chainEnds(WorldRun.segments(src["AD"]!).intersection(WorldRun.segments(src["FR"]!)))
        for p in triple {
            for id in ["AD", "ES", "FR"] {
                #expect(out[id]!.geometry.polygons.contains { $0.rings.contains { $0.contains(p) } }, "\(id) lost junction \(p)")
            }
        }
        #expect(report.maxHausdorffKm <= 1.5 * 1.05)
        #expect(report.verticesAfter < report.verticesBefore / 2)
    }

    @Test func andorraBecomesAPointAtItsCapitalAndFranceSpainStillMeet() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["FXX", "ESP", "AND"], set: ["AD", "ES", "FR"])
        let (out, report, _) = try WorldRun.world(input)  // default point threshold: 2,500 km²
        let ad = out["AD"]!
        #expect(ad.string("renderAs") == "point")
        #expect(ad.geometry == .point(Point(ad.double("capitalLon")!, ad.double("capitalLat")!)))
        #expect(report.pointIds == ["AD"])
        #expect(out["FR"]!.string("renderAs") == nil)
        #expect(out["FR"]!.properties["neUnits"] == nil)
        try WorldRun.expectValid(out)
        let shared = WorldRun.segments(out["ES"]!).intersection(WorldRun.segments(out["FR"]!))
        #expect(shared.count > 20)
    }

    @Test func lesothoStaysAHoleInSouthAfricaWithTheSameBorder() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["ZAF", "LSO"], set: ["LS", "ZA"])
        let (out, _, _) = try WorldRun.world(input) { $0.simplification = .toleranceKm(3) }
        try WorldRun.expectValid(out)
        let ls = out["LS"]!.geometry.polygons
        #expect(ls.count == 1)
        let main = out["ZA"]!.geometry.polygons.max { abs(RingMath.signedArea($0.exterior)) < abs(RingMath.signedArea($1.exterior)) }!
        #expect(main.rings.count == 2)
        #expect(Set(main.rings[1]) == Set(ls[0].exterior))
        #expect(ls[0].exterior.count < WorldRun.byId(input)["LS"]!.geometry.vertexCount / 2)
        #expect(!RingMath.contains(main, Point(27.5, -29.5)))
        #expect(RingMath.contains(ls[0], Point(27.5, -29.5)))
    }

    @Test func chileAndArgentinaToABudget() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["CHL", "ARG", "SPI"], set: ["AR", "CL"])
        let (out, report, features) = try WorldRun.world(input) { $0.simplification = .vertexBudget(6_000) }
        try WorldRun.expectValid(out)
        try WorldRun.expectSharedBorder("AR", "CL", input: WorldRun.byId(input), output: out)
        let total = features.reduce(0) { $0 + $1.geometry.vertexCount }
        #expect(total <= 6_000 && total >= 5_880, "total \(total)")
        #expect(report.verticesAfter == total)
        #expect(report.maxHausdorffKm > 0 && report.maxHausdorffKm < 8)
        // Chile's many islands: small ones go, but the country keeps its large parts.
        let cl = report.countries.first { $0.id == "CL" }!
        #expect(cl.droppedParts > 0 && cl.droppedAreaKm2 < 10 * Double(cl.droppedParts))
    }

    @Test func netherlandsAndBelgiumShareTheirBorder() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["NLX", "BFR", "BWR", "BCR"], set: ["BE", "NL"])
        let src = WorldRun.byId(input)
        let (out, _, _) = try WorldRun.world(input)
        try WorldRun.expectValid(out)
        try WorldRun.expectSharedBorder("BE", "NL", input: src, output: out)
        // Baarle: Natural Earth 1:10m draws no Belgian enclaves in the Netherlands (no holes);
        // should a later release add them, every enclave must survive (enclaveKeptEvenWhenTiny).
        let holes = src["NL"]!.geometry.polygons.reduce(0) { $0 + $1.holes.count }
        let outHoles = out["NL"]!.geometry.polygons.reduce(0) { $0 + $1.holes.count }
        #expect(outHoles == holes)
    }

    /// A Baarle-like enclave far under the island threshold: kept, with its border shared.
    @Test func enclaveKeptEvenWhenTiny() throws {
        func feature(_ id: String, _ polys: [Polygon]) -> Feature {
            var p = JSONObject()
            p["name"] = .string(id); p["continent"] = .string("Europe")
            p["capital"] = .string("C"); p["capitalLat"] = .number(51.2); p["capitalLon"] = .number(4.5)
            p["aliases"] = .array([])
            return Feature(id: id, properties: p, geometry: .areal(polys))
        }
        // NL: a 0.3° square with a 0.01° hole (≈ 0.8 km²), filled by a BE part; BE's mainland is south.
        let hole: Ring = [Point(4.70, 51.40), Point(4.70, 51.41), Point(4.71, 51.41), Point(4.71, 51.40), Point(4.70, 51.40)]
        let nl = Polygon(rings: [[Point(4.6, 51.3), Point(4.9, 51.3), Point(4.9, 51.6), Point(4.6, 51.6), Point(4.6, 51.3)], hole])
        let enclave = Polygon(rings: [Array(hole.reversed())])
        let beMain = Polygon(rings: [[Point(4.6, 51.0), Point(4.9, 51.0), Point(4.9, 51.3), Point(4.6, 51.3), Point(4.6, 51.0)]])
        let (out, report, _) = try WorldRun.world([feature("BE", [beMain, enclave]), feature("NL", [nl])]) { $0.pointAreaKm2 = 10 }
        try WorldRun.expectValid(out)
        #expect(out["BE"]!.geometry.polygons.count == 2)
        #expect(out["NL"]!.geometry.polygons[0].holes.count == 1)
        let be = out["BE"]!.geometry.polygons.first { $0.exterior.contains(Point(4.70, 51.40)) }!
        #expect(Set(out["NL"]!.geometry.polygons[0].rings[1]) == Set(be.exterior))
        #expect(be.exterior.count >= 4)
        #expect(report.countries.allSatisfy { $0.droppedParts == 0 && $0.droppedHoles == 0 })
    }

    /// Natural Earth cuts Fiji's islands at ±180°: a 6 km² piece east of the meridian belongs
    /// to a 68 km² island west of it and must not be dropped as a small island.
    @Test func islandPiecesAcrossTheAntimeridianCountAsOneIsland() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["FJI"], set: ["FJ"])
        let (out, _, _) = try WorldRun.world(input) { $0.pointAreaKm2 = 0 }
        try WorldRun.expectValid(out)
        func touches(_ f: Feature, x: Double, lat: ClosedRange<Double>) -> Bool {
            f.geometry.polygons.contains { $0.exterior.contains { $0.x == x && lat.contains($0.y) } }
        }
        let piece = -16.55 ... -16.48
        #expect(touches(WorldRun.byId(input)["FJ"]!, x: 180, lat: piece))
        #expect(touches(out["FJ"]!, x: 180, lat: piece))
        #expect(touches(out["FJ"]!, x: -180, lat: piece))
    }

    @Test func outputIsDeterministic() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["FXX", "ESP", "AND", "PRX"], set: ["AD", "ES", "FR", "PT"])
        let a = try WorldRun.world(input) { $0.simplification = .vertexBudget(4_000) }.features
        let b = try WorldRun.world(input) { $0.simplification = .vertexBudget(4_000); $0.threads = 1 }.features
        #expect(GeoJSON.encode(a) == GeoJSON.encode(b))
    }

    /// The whole 1:110m world: US and Sudan are repaired, the point countries are the app's.
    @Test func wholeWorldAt110m() throws {
        var o = IngestStage.Options.standard(dataDir: Repo.path("data"), units: Repo.countries110m)
        o.pointsFromPath = Repo.units50m
        let input = try IngestStage.build(o, log: StageLog(stage: "test", quiet: true)).features
        let (out, report, features) = try WorldRun.world(input) { $0.simplification = .keepAll }
        try WorldRun.expectValid(out)
        #expect(Set(report.repairs.map(\.id)) == ["SD", "US"])
        for r in report.repairs { #expect(r.reason.contains("Self-intersection")) }
        // The 31 the 1:110m file lacks, plus Luxembourg (2,4xx km² at this detail).
        #expect(report.pointIds == ["AD", "AG", "BB", "BH", "BM", "CV", "DM", "FM", "GD", "GF", "KI", "KM", "KN", "LC", "LI", "LU",
                                    "MC", "MH", "MT", "MU", "MV", "NR", "PW", "SC", "SG", "SM", "ST", "TO", "TV", "VA", "VC", "WS"])
        #expect(features.count == 206)
        // Sudan's repair moved the South Sudan–Ethiopia–Sudan junction; the three still meet without overlap.
        let ctx = GEOSContext()
        for (a, b) in [("ET", "SS"), ("ET", "SD"), ("SD", "SS"), ("CA", "US")] {
            let i = try ctx.geometry(out[a]!.geometry).intersection(try ctx.geometry(out[b]!.geometry))
            #expect(try i.area() == 0, "\(a)/\(b) overlap")
            #expect(!WorldRun.segments(out[a]!).intersection(WorldRun.segments(out[b]!)).isEmpty)
        }
    }
}

@Suite struct WorldSimplifierTests {
    /// Restoring arcs (the fallback when GEOS rejects a rebuilt country) brings back every vertex.
    @Test func restoredArcsKeepEveryVertex() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["ZAF", "LSO"], set: ["LS", "ZA"])
        let graph = ArcGraph(countries: input.map { $0.geometry.polygons }, pinned: { _ in false })
        var s = ArcSimplifier(graph: graph, threads: 2)
        try s.run(.toleranceKm(5))
        let longest = graph.arcs.indices.max { graph.arcs[$0].count < graph.arcs[$1].count }!
        #expect(s.keptIndices(longest).count < graph.arcs[longest].count / 3)
        s.restore([longest])
        try s.run(.toleranceKm(5))
        #expect(s.keptIndices(longest).count == graph.arcs[longest].count)
        // Lesotho's border is one closed arc shared by both rings.
        #expect(graph.uses.filter { $0 == 2 }.count == 1)
    }
}

/// The whole 1:10m world at the default budget: the acceptance bar.
@Suite struct WorldWholeWorldTests {
    @Test func wholeWorldAt10mMeetsTheAcceptanceBar() throws {
        let input = try IngestStage.build(IngestStage.Options.standard(dataDir: Repo.path("data"), units: Repo.units10m),
                                   log: StageLog(stage: "test", quiet: true)).features
        let (out, report, features) = try WorldRun.world(input) { $0.simplification = .vertexBudget(175_000) }
        try WorldRun.expectValid(out)
        let total = features.reduce(0) { $0 + $1.geometry.vertexCount }
        #expect(abs(total - 175_000) <= 3_500, "total \(total)")
        #expect(report.p95HausdorffKm <= 1.5 && report.maxHausdorffKm <= 8, "p95 \(report.p95HausdorffKm) max \(report.maxHausdorffKm)")
        #expect(report.repairs.map(\.id) == ["EG"])
        #expect(report.pointIds.count == 30 && !report.pointIds.contains("GF") && !report.pointIds.contains("LU"))
        // Point countries between neighbours leave no gap: their area goes to the neighbour with
        // the longest shared border in the data (Andorra shares more with Spain than with France
        // at 1:10m, Liechtenstein more with Switzerland than with Austria).
        #expect(report.fills.map { "\($0.from)→\($0.to)" } == ["AD→ES", "LI→CH", "MC→FR", "SM→IT", "VA→IT"])
        // No overlaps and no gaps between any two neighbours (a receiver compared with its input
        // plus the parts it received).
        let src = WorldRun.byId(input)
        var received: [String: Set<WorldRun.Segment>] = [:]
        for fill in report.fills {
            let parts = GapRun.borderingParts(fill.from, in: src, neighbours: [fill.to])
            #expect(!parts.isEmpty, "\(fill.from) shares no border with \(fill.to)")
            received[fill.to] = GapRun.receivedSegments(received[fill.to] ?? WorldRun.segments(src[fill.to]!), parts: parts)
        }
        func segments(_ id: String) -> Set<WorldRun.Segment> { received[id] ?? WorldRun.segments(src[id]!) }
        let ctx = GEOSContext()
        let drawn = features.filter { if case .point = $0.geometry { return false }; return true }
        let geoms = try drawn.map { try ctx.geometry($0.geometry) }
        let boxes = drawn.map { $0.geometry.boundingBox! }
        var overlap = 0.0, pairs = 0
        for i in drawn.indices {
            for j in (i + 1)..<drawn.count where boxes[i].intersects(boxes[j]) {
                overlap += try geoms[i].intersection(geoms[j]).area()
                let a = drawn[i].id!, b = drawn[j].id!
                let before = segments(a).intersection(segments(b))
                if before.isEmpty { continue }
                pairs += 1
                let after = WorldRun.segments(out[a]!).intersection(WorldRun.segments(out[b]!))
                #expect(WorldRun.chainEnds(before) == WorldRun.chainEnds(after), "\(a)/\(b) border ends moved")
            }
        }
        #expect(overlap < 1e-10, "overlap \(overlap) square degrees")
        #expect(pairs > 300)
    }
}

/// Bad input: errors name the file, the feature and the problem.
@Suite struct WorldBadInputTests {
    func feature(_ id: String?, name: String = "Atlantis", _ ring: Ring) -> Feature {
        var p = JSONObject()
        p["name"] = .string(name); p["continent"] = .string("Europe"); p["aliases"] = .array([])
        return Feature(id: id, properties: p, geometry: .polygon(Polygon(rings: [ring])))
    }
    let square: Ring = [Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1), Point(0, 0)]

    func run(_ fs: [Feature]) throws -> WorldStage.Report {
        var o = WorldStage.Options()
        o.simplification = .toleranceKm(1); o.pointAreaKm2 = 0
        return try WorldStage.build(fs, file: "bad.geojson", options: o, log: StageLog(stage: "test", quiet: true)).report
    }


    @Test func aCollapsedPolygonCannotBeRepaired() {
        expectError(["bad.geojson", "feature #1 \"Lineland\" (id ZY)", "make-valid left no polygon"]) {
            _ = try run([feature("ZZ", square), feature("ZY", name: "Lineland", [Point(2, 2), Point(3, 3), Point(4, 4), Point(2, 2)])])
        }
    }

    @Test func aBowTieIsRepairedAndReported() throws {
        let report = try run([feature("ZZ", [Point(0, 0), Point(1, 1), Point(1, 0), Point(0, 1), Point(0, 0)])])
        #expect(report.repairs.count == 1)
        #expect(report.repairs[0].reason.hasPrefix("Self-intersection"))
        #expect(report.repairs[0].newVertices == [Point(0.5, 0.5)])
        #expect(abs(report.repairs[0].areaAfterKm2 - 2 * 3_091) < 100)  // two triangles of ¼ square degree
    }

    @Test func duplicateIds() {
        expectError(["bad.geojson", "feature #1", "repeats the id ZZ"]) { _ = try run([feature("ZZ", square), feature("ZZ", square)]) }
    }

    @Test func missingId() {
        expectError(["bad.geojson", "feature #0 \"Atlantis\"", "two-letter"]) { _ = try run([feature(nil, square)]) }
    }
}

import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoGEOS
@testable import GeoPROJ
@testable import WorldStage

/// Helpers for the point-country gaps (PointGaps): what a receiver's input is once it took a
/// point country's bordering parts, and how much of an area the output leaves uncovered.
enum GapRun {
    /// The input's polygons of `id` that share a border segment with `neighbours`.
    static func borderingParts(_ id: String, in src: [String: Feature], neighbours: [String]) -> [Polygon] {
        let theirs = neighbours.reduce(into: Set<WorldRun.Segment>()) { $0.formUnion(WorldRun.segments(src[$1]!)) }
        return src[id]!.geometry.polygons.filter { !segments($0).isDisjoint(with: theirs) }
    }

    static func segments(_ p: Polygon) -> Set<WorldRun.Segment> {
        WorldRun.segments(Feature(id: nil, properties: JSONObject(), geometry: .polygon(p)))
    }

    /// The receiver's input segments once it took these parts: their common border cancels,
    /// the parts' other borders become the receiver's.
    static func receivedSegments(_ receiver: Set<WorldRun.Segment>, parts: [Polygon]) -> Set<WorldRun.Segment> {
        parts.reduce(receiver) { $0.symmetricDifference(segments($1)) }
    }

    /// Ground length (km) of the border two input features share.
    static func sharedBorderKm(_ a: Feature, _ b: Feature) -> Double {
        WorldRun.segments(a).intersection(WorldRun.segments(b)).reduce(0) { $0 + Geodesic.wgs84.distance($1.a, $1.b) } / 1000
    }

    /// Area (square degrees) of `region` not covered by the union of these output features.
    static func uncovered(_ region: [Polygon], by features: [Feature]) throws -> (gap: Double, area: Double) {
        let ctx = GEOSContext()
        let r = try ctx.multiPolygon(region)
        let land = try ctx.unaryUnion(features.map { try ctx.geometry($0.geometry) })
        return (try r.difference(land).area(), try r.area())
    }

    /// `a` and `b` share their border point for point in the output, with the same chain ends as
    /// in the input as it is after the fills (`before`), and do not overlap.
    static func expectShared(_ a: String, _ b: String, before: Set<WorldRun.Segment>, output: [String: Feature],
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let after = WorldRun.segments(output[a]!).intersection(WorldRun.segments(output[b]!))
        #expect(!after.isEmpty, "\(a)/\(b) share no border in the output", sourceLocation: sourceLocation)
        #expect(WorldRun.chainEnds(before) == WorldRun.chainEnds(after), "\(a)/\(b): shared border ends differ", sourceLocation: sourceLocation)
        #expect(after.count < before.count, "\(a)/\(b): the shared border was not simplified", sourceLocation: sourceLocation)
        let ctx = GEOSContext()
        let overlap = try ctx.geometry(output[a]!.geometry).intersection(try ctx.geometry(output[b]!.geometry)).area()
        #expect(overlap < 1e-12, "\(a)/\(b) overlap", sourceLocation: sourceLocation)
    }
}

@Suite struct WorldGapTests {
    /// Andorra becomes a point; its area goes to the neighbour it shares the longest border
    /// with, and France ∪ Spain covers it with no gap, their border shared point for point.
    @Test func andorraLeavesNoGapBetweenFranceAndSpain() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["FXX", "ESP", "AND"], set: ["AD", "ES", "FR"])
        let src = WorldRun.byId(input)
        let (out, report, _) = try WorldRun.world(input)
        try WorldRun.expectValid(out)
        let ad = out["AD"]!
        #expect(ad.string("renderAs") == "point")
        #expect(ad.geometry == .point(Point(ad.double("capitalLon")!, ad.double("capitalLat")!)))
        // The receiver is the neighbour with the longer shared border, measured here again.
        let fr = GapRun.sharedBorderKm(src["AD"]!, src["FR"]!), es = GapRun.sharedBorderKm(src["AD"]!, src["ES"]!)
        let receiver = es > fr ? "ES" : "FR"
        #expect(report.fills.map { "\($0.from)→\($0.to)" } == ["AD→\(receiver)"])
        #expect(abs(report.fills[0].borderKm - max(fr, es)) < 0.01 * max(fr, es))
        #expect(abs(report.fills[0].totalBorderKm - (fr + es)) < 0.01 * (fr + es))
        let row = report.countries.first { $0.id == receiver }!
        #expect(row.receivedFrom == ["AD"] && report.countries.first { $0.id == "AD" }!.filledInto == [receiver])
        // No gap: Andorra's input area minus France ∪ Spain is nothing.
        let parts = src["AD"]!.geometry.polygons
        let (gap, area) = try GapRun.uncovered(parts, by: [out["FR"]!, out["ES"]!])
        #expect(area > 0.04 && gap < 1e-9 * area, "gap \(gap) of \(area) square degrees")
        // France–Spain now runs through Andorra's old borders, one shared border, point for point.
        let before = GapRun.receivedSegments(WorldRun.segments(src[receiver]!), parts: parts).intersection(WorldRun.segments(src[receiver == "ES" ? "FR" : "ES"]!))
        #expect(WorldRun.chainEnds(before).count == 2)  // the coast ends only: the old triple points are gone
        try GapRun.expectShared("ES", "FR", before: before, output: out)
        // The receiver's Hausdorff distance is measured against its input plus Andorra.
        #expect(report.maxHausdorffKm <= 1.5 * 1.05)
    }

    /// Without filling, Andorra's area is a hole in the land: the check above can fail.
    @Test func withoutFillingAndorraIsAHole() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["FXX", "ESP", "AND"], set: ["AD", "ES", "FR"])
        let (out, report, _) = try WorldRun.world(input) { $0.fillPointGaps = false }
        #expect(report.fills.isEmpty)
        let (gap, area) = try GapRun.uncovered(WorldRun.byId(input)["AD"]!.geometry.polygons, by: [out["FR"]!, out["ES"]!])
        #expect(gap > 0.9 * area)
    }

    /// Monaco, a notch in France's coast: its area goes to France and its coast becomes France's.
    @Test func monacosNotchIsFilledByFrance() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["FXX", "MCO", "ITA"], set: ["FR", "IT", "MC"])
        let src = WorldRun.byId(input)
        let (out, report, _) = try WorldRun.world(input)
        try WorldRun.expectValid(out)
        #expect(out["MC"]!.string("renderAs") == "point")
        #expect(report.fills.map { "\($0.from)→\($0.to)" } == ["MC→FR"])
        let parts = src["MC"]!.geometry.polygons
        let (gap, area) = try GapRun.uncovered(parts, by: [out["FR"]!])
        // Only slivers along France's simplified coast (tolerance 1.5 km) may stay uncovered:
        // at most half the tolerance times Monaco's coast, and nowhere farther than the tolerance
        // from France's output.
        let coast = WorldRun.segments(src["MC"]!).subtracting(WorldRun.segments(src["FR"]!))
        let coastKm = coast.reduce(0) { $0 + Geodesic.wgs84.distance($1.a, $1.b) } / 1000
        let km2 = 111.32 * 111.32 * cos(43.73 * .pi / 180)
        #expect(coastKm > 1 && gap * km2 <= coastKm * 1.5 / 2, "gap \(gap * km2) km² of \(area * km2) km², coast \(coastKm) km")
        let ctx = GEOSContext()
        let france = try ctx.geometry(out["FR"]!.geometry)
        let slivers = try ctx.multiPolygon(parts).difference(france).polygons()
        for v in slivers.flatMap({ $0.rings.flatMap { $0 } }) {
            #expect(try ctx.point(v).distance(france) * 111.32 <= 1.5 * 1.05, "\(v) is far from France")
        }
        // The France–Monaco border is gone: France's output has none of its inner vertices.
        let border = WorldRun.segments(src["MC"]!).intersection(WorldRun.segments(src["FR"]!))
        let ends = WorldRun.chainEnds(border)
        let inner = Set(border.flatMap { [$0.a, $0.b] }).subtracting(ends)
        let frVertices = Set(out["FR"]!.geometry.polygons.flatMap { $0.rings.flatMap { $0 } })
        #expect(!inner.isEmpty && inner.isDisjoint(with: frVertices))
        try GapRun.expectShared("FR", "IT", before: WorldRun.segments(src["FR"]!).intersection(WorldRun.segments(src["IT"]!)), output: out)

        let (open, _, _) = try WorldRun.world(input) { $0.fillPointGaps = false }
        #expect(try GapRun.uncovered(parts, by: [open["FR"]!]).gap > 0.5 * area)
    }

    /// Liechtenstein between Switzerland and Austria.
    @Test func liechtensteinLeavesNoGapBetweenSwitzerlandAndAustria() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["CHE", "AUT", "LIE"], set: ["AT", "CH", "LI"])
        let src = WorldRun.byId(input)
        let (out, report, _) = try WorldRun.world(input)
        try WorldRun.expectValid(out)
        #expect(out["LI"]!.string("renderAs") == "point")
        let ch = GapRun.sharedBorderKm(src["LI"]!, src["CH"]!), at = GapRun.sharedBorderKm(src["LI"]!, src["AT"]!)
        let receiver = ch > at ? "CH" : "AT", other = receiver == "CH" ? "AT" : "CH"
        #expect(report.fills.map { "\($0.from)→\($0.to)" } == ["LI→\(receiver)"])
        let parts = src["LI"]!.geometry.polygons
        let (gap, area) = try GapRun.uncovered(parts, by: [out["AT"]!, out["CH"]!])
        #expect(area > 0.01 && gap < 1e-9 * area, "gap \(gap) of \(area) square degrees")
        let before = GapRun.receivedSegments(WorldRun.segments(src[receiver]!), parts: parts).intersection(WorldRun.segments(src[other]!))
        try GapRun.expectShared("AT", "CH", before: before, output: out)
    }

    /// An island point country (Malta) touches nobody: it is dropped as before and changes
    /// nothing else; the enclaves in Italy (San Marino, Vatican City) go to Italy.
    @Test func anIslandPointCountryChangesNothingElse() throws {
        let with = try WorldRun.ingest(Repo.units10m, ["ITA", "SMR", "VAT", "MLT"], set: ["IT", "MT", "SM", "VA"])
        let without = with.filter { $0.id != "MT" }
        let (a, ra, _) = try WorldRun.world(with)
        let (b, rb, _) = try WorldRun.world(without)
        #expect(a["MT"]!.string("renderAs") == "point")
        #expect(ra.fills.map { "\($0.from)→\($0.to)" } == ["SM→IT", "VA→IT"])
        #expect(ra.fills == rb.fills)
        #expect(ra.countries.first { $0.id == "MT" }!.filledInto.isEmpty)
        #expect(GeoJSON.encode([a["IT"]!]) == GeoJSON.encode([b["IT"]!]))
        // Italy has no hole left where the enclaves were.
        #expect(a["IT"]!.geometry.polygons.allSatisfy { $0.holes.isEmpty })
        // And with filling off, the enclaves' holes are filled as before: the same Italy.
        let (c, rc, _) = try WorldRun.world(with) { $0.fillPointGaps = false }
        #expect(rc.fills.isEmpty)
        #expect(rc.countries.first { $0.id == "IT" }!.filledHoles == 2)
        #expect(c["IT"]!.geometry.polygons.allSatisfy { $0.holes.isEmpty })
    }

    @Test func fillsAreDeterministic() throws {
        let input = try WorldRun.ingest(Repo.units10m, ["FXX", "ESP", "AND", "MCO", "CHE", "AUT", "LIE", "ITA", "SMR", "VAT"],
                                        set: ["AD", "AT", "CH", "ES", "FR", "IT", "LI", "MC", "SM", "VA"])
        let a = try WorldRun.world(input) { $0.simplification = .vertexBudget(5_000) }
        let b = try WorldRun.world(input) { $0.simplification = .vertexBudget(5_000); $0.threads = 1 }
        #expect(GeoJSON.encode(a.features) == GeoJSON.encode(b.features))
        #expect(WorldStage.reportTSV(a.report) == WorldStage.reportTSV(b.report))
        #expect(a.report.fills.count == 5)
        let total = a.features.reduce(0) { $0 + $1.geometry.vertexCount }
        #expect(abs(total - 5_000) <= 100, "total \(total)")
        try WorldRun.expectValid(a.out)
    }

    static func feature(_ id: String, _ rings: [Ring]) -> Feature {
        var p = JSONObject()
        p["name"] = .string(id); p["continent"] = .string("Africa")
        p["capital"] = .string("C"); p["capitalLat"] = .number(0.5); p["capitalLon"] = .number(1.1)
        p["aliases"] = .array([])
        return Feature(id: id, properties: p, geometry: .areal(rings.map { Polygon(rings: [$0]) }))
    }

    /// A point country wrapped in another (XQ touches only XP): XP goes to XN first, then XQ
    /// follows through XP's given part; XN ends up one polygon covering all three.
    @Test func aPointCountryBehindAnotherFollowsIt() throws {
        let n: Ring = [Point(0, 0), Point(1, 0), Point(1, 0.4), Point(1, 0.45), Point(1, 0.6), Point(1, 1), Point(0, 1), Point(0, 0)]
        let p: Ring = [Point(1, 0.4), Point(1.1, 0.4), Point(1.1, 0.45), Point(1.1, 0.55), Point(1.1, 0.6), Point(1, 0.6), Point(1, 0.45), Point(1, 0.4)]
        let q: Ring = [Point(1.1, 0.45), Point(1.2, 0.45), Point(1.2, 0.55), Point(1.1, 0.55), Point(1.1, 0.45)]
        let (out, report, _) = try WorldRun.world([Self.feature("XN", [n]), Self.feature("XP", [p]), Self.feature("XQ", [q])]) {
            $0.pointAreaKm2 = 1_000; $0.simplification = .keepAll
        }
        try WorldRun.expectValid(out)
        #expect(report.pointIds == ["XP", "XQ"])
        #expect(report.fills.map { "\($0.from)→\($0.to)" } == ["XP→XN", "XQ→XN"])
        let polys = out["XN"]!.geometry.polygons
        #expect(polys.count == 1 && polys[0].holes.isEmpty)
        let (gap, _) = try GapRun.uncovered([Polygon(rings: [p]), Polygon(rings: [q])], by: [out["XN"]!])
        #expect(gap == 0)
        // The borders between them are gone; the outline is the three squares' outer edges.
        #expect(!polys[0].exterior.contains(Point(1, 0.45)) && polys[0].exterior.contains(Point(1.2, 0.55)))
    }

    /// Equal borders on both sides: the first neighbour in id order takes the part.
    @Test func aTieGoesToTheFirstNeighbourById() throws {
        let a: Ring = [Point(0, 0), Point(1, 0), Point(1, 0.4), Point(1, 0.6), Point(1, 1), Point(0, 1), Point(0, 0)]
        let b: Ring = [Point(1.2, 0), Point(2.2, 0), Point(2.2, 1), Point(1.2, 1), Point(1.2, 0.6), Point(1.2, 0.4), Point(1.2, 0)]
        let p: Ring = [Point(1, 0.4), Point(1.2, 0.4), Point(1.2, 0.6), Point(1, 0.6), Point(1, 0.4)]
        let (out, report, _) = try WorldRun.world([Self.feature("XB", [b]), Self.feature("XA", [a]), Self.feature("XP", [p])]) {
            $0.pointAreaKm2 = 1_000; $0.simplification = .keepAll
        }
        try WorldRun.expectValid(out)
        #expect(report.fills.map { "\($0.from)→\($0.to)" } == ["XP→XA"])
        #expect(report.fills[0].borderKm * 2 == report.fills[0].totalBorderKm)
        // XP's other border became XA–XB, shared segment for segment.
        let shared = WorldRun.segments(out["XA"]!).intersection(WorldRun.segments(out["XB"]!))
        #expect(shared == [WorldRun.Segment(a: Point(1.2, 0.4), b: Point(1.2, 0.6))])
    }
}

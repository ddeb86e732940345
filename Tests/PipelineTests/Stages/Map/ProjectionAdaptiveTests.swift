import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoGEOS
@testable import GeoPROJ
@testable import MapStage

/// Adaptive densification in the map plane (reviewer finding: 1° lon/lat steps are too coarse
/// near the map's curved edge; with +proj=moll +lon_0=90 Canada's polygon crossed itself and
/// Antarctica had a long straight edge near the pole).
@Suite struct ProjectionAdaptiveTests {
    static func project(_ suA3: String, _ crs: String, refine: Bool) throws -> [Polygon] {
        let polys = try Slices.units(Repo.units10m, [suA3]).flatMap { RingMath.orientedForRFC7946Polygons($0.geometry.polygons) }
        let geos = GEOSContext()
        let map = try MapProjection(crs: crs, context: PROJContext(), geos: geos)
        if !refine { map.curveTolerance = .infinity; map.edgeTolerance = .infinity }
        return try map.project(try map.cut(polys), what: suA3)
    }

    static func invalid(_ polys: [Polygon]) throws -> Int {
        let geos = GEOSContext()
        return try polys.filter { try !geos.polygon($0).isValid() }.count
    }

    static func longestSegment(_ polys: [Polygon]) -> Double {
        var best = 0.0
        for p in polys { for r in p.rings { for i in 1..<r.count { best = max(best, hypot(r[i].x - r[i - 1].x, r[i].y - r[i - 1].y)) } } }
        return best
    }

    /// A piece of Canada's Arctic coast as the world stage leaves it: the polygon crosses the
    /// cut meridian (−90°), and west of it the coast runs 0.0003° from the cut, beside the edge
    /// run that `cut` adds along the map's curved edge. 1° chords of that edge cut the coast.
    @Test func coastBesideTheCurvedEdgeStaysValid() throws {
        var ring: Ring = [Point(-91, 71), Point(-89, 71), Point(-89, 73), Point(-91, 73), Point(-91, 72.6)]
        for k in 0...20 { ring.append(Point(-90.0003, 72.5 - 0.05 * Double(k))) }
        ring += [Point(-91, 71.4), Point(-91, 71)]
        let poly = RingMath.orientedForRFC7946(Polygon(rings: [ring]))
        // (polygons, how many crossed themselves and needed GEOS's repair)
        func project(refine: Bool) throws -> ([Polygon], Int) {
            let map = try MapProjection(crs: "+proj=moll +lon_0=90", context: PROJContext(), geos: GEOSContext())
            if !refine { map.curveTolerance = .infinity; map.edgeTolerance = .infinity }
            let out = try map.project(try map.cut([poly]), what: "test")
            return (out, map.repairedPolygons.count)
        }
        #expect(try project(refine: false).1 > 0, "1° chords of the edge no longer cut the coast")
        let (fine, repaired) = try project(refine: true)
        #expect(repaired == 0, "the refined edge still crosses the coast")
        #expect(fine.count == 2)
        #expect(try Self.invalid(fine) == 0)
        #expect(try project(refine: true).0 == fine)
    }

    @Test func canadaStaysValidAtTheMollweideEdge() throws {
        let ca = try Self.project("CAN", "+proj=moll +lon_0=90", refine: true)
        #expect(try Self.invalid(ca) == 0)
    }

    @Test func antarcticaFollowsTheCurvedEdgeNearThePole() throws {
        let crs = "+proj=moll +lon_0=90"
        let coarse = Self.longestSegment(try Self.project("ATA", crs, refine: false))
        let fine = Self.longestSegment(try Self.project("ATA", crs, refine: true))
        #expect(coarse > 1_000_000, "the slice no longer has a long chord (\(coarse) m)")
        #expect(fine < 200_000, "longest projected segment \(fine) m")
    }

    @Test func chordDistance() {
        #expect(MapProjection.chordDistance(Point(5, 3), Point(0, 0), Point(10, 0)) == 3)
        #expect(MapProjection.chordDistance(Point(-4, 3), Point(0, 0), Point(10, 0)) == 5)
        #expect(MapProjection.chordDistance(Point(3, 4), Point(0, 0), Point(0, 0)) == 5)
    }
}

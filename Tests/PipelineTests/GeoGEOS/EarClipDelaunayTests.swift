import Foundation
import SeededRandom
import Testing
import GeoModel
import Geodesy
@testable import GeoGEOS

/// EarClipDelaunay is GEOS 3.11's constrained Delaunay triangulation in Swift: the same
/// triangles, in the same order, with the same corners, as `GEOSConstrainedDelaunayTriangulation`.
@Suite struct EarClipDelaunayTests {
    static func expectSameAsGEOS(_ ring: Ring, _ what: String, context: GEOSContext) throws {
        let geos = try Triangulation.geosTriangles(Polygon(rings: [ring]), context: context)
        guard let ours = EarClipDelaunay.triangulate(ring: ring) else {
            Issue.record("\(what): not triangulated in Swift")
            return
        }
        let flat = geos.flatMap { [$0.0, $0.1, $0.2] }
        #expect(ours == flat, "\(what): \(ours.count / 3) triangles against GEOS's \(geos.count)")
    }

    /// Every hole-free polygon of the 1:50m map units (lon/lat), and a tile-like square with
    /// points along its axis-parallel sides (the cut lines of Tiling).
    @Test func everyPolygonOf1To50mMapUnitsMatchesGEOS() throws {
        let context = GEOSContext()
        var count = 0
        for f in try GeoJSON.read(path: Repo.units50m) {
            for p in f.geometry.polygons where p.holes.isEmpty && Set(p.exterior.dropLast()).count == p.exterior.count - 1 {
                try Self.expectSameAsGEOS(p.exterior, "\(f.string("SU_A3") ?? "?") polygon of \(p.exterior.count) points", context: context)
                count += 1
            }
        }
        #expect(count > 1000)
    }

    /// The double-precision filter in front of GEOS's extended-precision in-circle test never
    /// answers otherwise than GEOS: on points near and on common circles.
    @Test func inCircleFilterAgreesWithGEOSArithmetic() {
        // A fixed sequence, so that a failure is reproducible.
        var rng = SplitMix64(state: 31)
        var disagreements = 0
        for k in 0..<20_000 {
            let cx = Double.random(in: -1...1, using: &rng), cy = Double.random(in: -1...1, using: &rng)
            let r = Double.random(in: 1e-6...1, using: &rng)
            func onCircle() -> Point {
                let t = Double.random(in: 0..<(2 * Double.pi), using: &rng)
                return Point(cx + r * cos(t), cy + r * sin(t))
            }
            let a = onCircle(), b = onCircle(), c = onCircle()
            var p = onCircle()
            // Every other case nudged by a few units in the last place, inside or out.
            if k % 2 == 1 { p = Point(p.x.nextUp.nextUp, p.y.nextDown) }
            if EarClipDelaunay.isInCircle(a, b, c, p) != EarClipDelaunay.isInCircleExtended(a, b, c, p) { disagreements += 1 }
        }
        #expect(disagreements == 0)
    }

    @Test func collinearSidesAndSmallShapes() throws {
        let context = GEOSContext()
        // A square with many points on each side, counter-clockwise and clockwise.
        var square: Ring = []
        for i in 0..<10 { square.append(Point(Double(i) * 0.1, 0)) }
        for i in 0..<10 { square.append(Point(1, Double(i) * 0.1)) }
        for i in 0..<10 { square.append(Point(1 - Double(i) * 0.1, 1)) }
        for i in 0..<10 { square.append(Point(0, 1 - Double(i) * 0.1)) }
        square.append(square[0])
        try Self.expectSameAsGEOS(square, "square", context: context)
        try Self.expectSameAsGEOS(square.reversed(), "square, clockwise", context: context)
        // A triangle, a star, a comb.
        try Self.expectSameAsGEOS([Point(0, 0), Point(1, 0), Point(0, 1), Point(0, 0)], "triangle", context: context)
        var star: Ring = []
        for k in 0..<18 {
            let r = k % 2 == 0 ? 1.0 : 0.35, a = Double(k) * Double.pi / 9
            star.append(Point(r * cos(a), r * sin(a)))
        }
        star.append(star[0])
        try Self.expectSameAsGEOS(star, "star", context: context)
        var comb: Ring = [Point(0, 0), Point(10, 0)]
        for t in stride(from: 10, to: 0, by: -1) { comb += [Point(Double(t), 5), Point(Double(t) - 0.5, 1)] }
        comb += [Point(0, 5), Point(0, 0)]
        try Self.expectSameAsGEOS(comb, "comb", context: context)
    }
}

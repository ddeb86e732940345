import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoGEOS
@testable import GeoPROJ
@testable import GlobeStage

/// Mesh invariants used by the tests below.
enum MeshCheck {
    static func mesh(_ suA3: Set<String>, id: String, maxEdge: Double = 2.5) throws -> CountryMesh {
        let polys = try Slices.units(Repo.units10m, suA3).flatMap { $0.geometry.polygons }
        return try CountryMesher.mesh(id: id, polygons: polys, options: MeshOptions(maxEdgeDegrees: maxEdge), context: GEOSContext())
    }

    /// Fiji's edges on the ±180° meridian (at its longitude, in the western half): how many are
    /// matched by the other half's reversed edge, and how many open ones have a seam vertex
    /// strictly inside them (a T-junction, i.e. a crack).
    static func fijiSeam(_ fj: CountryMesh) -> (matched: Int, tJunctions: Int) {
        let seam = SphereMap.unit(Point(180, -16.5))
        let onSeam = { (v: Vec3) in abs(v.z - seam.z * (v.x / seam.x)) < 1e-12 && v.x < 0 }
        var seamEdges = Set<Edge>()
        for t in 0..<fj.triangleCount {
            for k in 0..<3 {
                let a = fj.positions[Int(fj.triangles[3 * t + k])], b = fj.positions[Int(fj.triangles[3 * t + (k + 1) % 3])]
                if onSeam(a) && onSeam(b) { seamEdges.insert(Edge(a: a, b: b)) }
            }
        }
        let seamVertices = Set(seamEdges.flatMap { [$0.a.y, $0.b.y] })
        let unmatched = seamEdges.filter { !seamEdges.contains(Edge(a: $0.b, b: $0.a)) }
        let tJunctions = unmatched.filter { e in seamVertices.contains { $0 > min(e.a.y, e.b.y) && $0 < max(e.a.y, e.b.y) } }
        return (seamEdges.count - unmatched.count, tJunctions.count)
    }

    /// Number of triangles that do not face outward (det(a, b, c) ≤ 0).
    static func inward(_ m: CountryMesh) -> Int {
        (0..<m.triangleCount).filter { t in
            let a = m.positions[Int(m.triangles[3 * t])], b = m.positions[Int(m.triangles[3 * t + 1])], c = m.positions[Int(m.triangles[3 * t + 2])]
            return a.dot(b.cross(c)) <= 0
        }.count
    }

    static func longestEdge(_ m: CountryMesh) -> Double {
        var worst = 0.0
        for t in 0..<m.triangleCount {
            for k in 0..<3 {
                let a = m.positions[Int(m.triangles[3 * t + k])], b = m.positions[Int(m.triangles[3 * t + (k + 1) % 3])]
                worst = max(worst, SphereMap.angleDegrees(a, b))
            }
        }
        return worst
    }

    struct Edge: Hashable { var a: Vec3; var b: Vec3 }

    /// Directed edges used by exactly one triangle (the mesh's boundary), by position.
    static func boundary(_ m: CountryMesh) -> Set<Edge> {
        var count: [Edge: Int] = [:]
        for t in 0..<m.triangleCount {
            for k in 0..<3 {
                let a = m.positions[Int(m.triangles[3 * t + k])], b = m.positions[Int(m.triangles[3 * t + (k + 1) % 3])]
                count[Edge(a: a, b: b), default: 0] += 1
            }
        }
        var out = Set<Edge>()
        for (e, n) in count where n == 1 && count[Edge(a: e.b, b: e.a)] == nil { out.insert(e) }
        return out
    }

    /// Whether direction `d` lies in some triangle of the mesh.
    static func covers(_ m: CountryMesh, _ d: Vec3) -> Bool {
        for t in 0..<m.triangleCount {
            let a = m.positions[Int(m.triangles[3 * t])], b = m.positions[Int(m.triangles[3 * t + 1])], c = m.positions[Int(m.triangles[3 * t + 2])]
            if a.cross(b).dot(d) >= -1e-15 && b.cross(c).dot(d) >= -1e-15 && c.cross(a).dot(d) >= -1e-15 && (a + b + c).dot(d) > 0 { return true }
        }
        return false
    }
}

@Suite struct MeshTests {
    @Test func lesothoHoleAndSouthAfricaMeetWithoutCracks() throws {
        // Together, as the stage meshes them: South Africa is meshed in tiles, and the points
        // where its cuts cross the border go into Lesotho's ring too.
        let both = try MeshTilingTests.meshTogether([("ZAF", "ZA"), ("LSO", "LS")], options: MeshOptions())
        let za = both[0], ls = both[1]
        #expect(MeshCheck.inward(za) == 0 && MeshCheck.inward(ls) == 0)
        #expect(MeshCheck.longestEdge(za) <= 2.5 + 1e-9)
        #expect(abs(za.meshArea / za.sphereArea - 1) < 0.005)
        #expect(abs(ls.meshArea / ls.sphereArea - 1) < 0.005)
        // No South African triangle covers Maseru; Lesotho's does.
        let maseru = SphereMap.unit(Point(27.48, -29.31))
        #expect(!MeshCheck.covers(za, maseru))
        #expect(MeshCheck.covers(ls, maseru))
        // Every boundary edge of Lesotho is a boundary edge of South Africa's hole, reversed:
        // the two meshes share their border vertex for vertex (no T-junction cracks).
        let zb = MeshCheck.boundary(za)
        let lb = MeshCheck.boundary(ls)
        #expect(lb.count > 100)
        #expect(lb.allSatisfy { zb.contains(MeshCheck.Edge(a: $0.b, b: $0.a)) })
    }

    @Test func fijiHalvesMeetAtTheAntimeridian() throws {
        let fj = try MeshCheck.mesh(["FJI"], id: "FJ")
        #expect(MeshCheck.inward(fj) == 0)
        #expect(abs(fj.meshArea / fj.sphereArea - 1) < 0.005)
        // Boundary edges on the ±180 meridian: each must be matched by the other half's reversed
        // edge, so nothing of the cut is left open.
        let polys = try Slices.units(Repo.units10m, ["FJI"]).flatMap { $0.geometry.polygons }
        #expect(polys.contains { $0.exterior.contains { $0.x == 180 } } && polys.contains { $0.exterior.contains { $0.x == -180 } })
        // Boundary edges on the ±180 meridian: the halves may leave some open where their coasts
        // meet the cut at different latitudes, but no seam vertex of either half may lie inside
        // an open seam edge (that would be a T-junction, i.e. a crack), and most must be matched.
        let seam = MeshCheck.fijiSeam(fj)
        #expect(seam.matched >= 8, "matched seam edges")
        #expect(seam.tJunctions == 0, "\(seam.tJunctions) T-junctions on the seam")
    }

    @Test func antarcticaCoversTheSouthPole() throws {
        let aq = try MeshCheck.mesh(["ATA"], id: "AQ")
        #expect(MeshCheck.inward(aq) == 0)
        #expect(MeshCheck.longestEdge(aq) <= 2.5 + 1e-9)
        #expect(MeshCheck.covers(aq, Vec3(0, -1, 0)))
        let uncovered = stride(from: -180.0, to: 180, by: 20).filter { !MeshCheck.covers(aq, SphereMap.unit(Point($0, -89.9))) }
        #expect(uncovered.isEmpty, "longitudes not covered at −89.9°: \(uncovered)")
        #expect(abs(aq.meshArea / aq.sphereArea - 1) < 0.005)
        // The pole detour along lat −90 and the ±180 meridians is gone from the outline rings.
        #expect(!aq.rings.contains { $0.contains { $0.y == -90 } })
    }

    @Test func chileLongAndThin() throws {
        let cl = try MeshCheck.mesh(["CHL"], id: "CL")
        #expect(MeshCheck.inward(cl) == 0)
        #expect(MeshCheck.longestEdge(cl) <= 2.5 + 1e-9)
        #expect(abs(cl.meshArea / cl.sphereArea - 1) < 0.005)
        #expect(cl.bbox.minY < -55 && cl.bbox.maxY > -18)
    }

    @Test func indonesiaThousandsOfIslands() throws {
        let id = try MeshCheck.mesh(["IDN"], id: "ID")
        #expect(id.polygonCount > 200)
        #expect(id.polygonStarts.count == id.polygonCount)
        #expect(MeshCheck.inward(id) == 0)
        #expect(abs(id.meshArea / id.sphereArea - 1) < 0.005)
        // Every island has triangles.
        for (k, s) in id.polygonStarts.enumerated() {
            let end = k + 1 < id.polygonStarts.count ? id.polygonStarts[k + 1].index : id.triangles.count
            #expect(end > s.index, "island \(k) has no triangles")
        }
    }

    @Test func refinementSplitsSharedEdgesIdentically() {
        // Two triangles sharing a 20° edge, plus one with a short edge: after refinement every
        // interior edge is used once in each direction (no T-junctions), and nothing is too long.
        var units = [Point(0, 0), Point(20, 0), Point(10, 15), Point(10, -15)].map(SphereMap.unit)
        var tris: [Int32] = [0, 1, 2, 1, 0, 3]
        Refinement(maxEdgeDegrees: 2.5).refine(&units, &tris)
        var m = CountryMesh(id: "T")
        m.positions = units; m.triangles = tris
        #expect(MeshCheck.longestEdge(m) <= 2.5 + 1e-9)
        #expect(MeshCheck.inward(m) == 0)
        var directed: [MeshCheck.Edge: Int] = [:]
        for t in 0..<(tris.count / 3) {
            for k in 0..<3 { directed[MeshCheck.Edge(a: units[Int(tris[3 * t + k])], b: units[Int(tris[3 * t + (k + 1) % 3])]), default: 0] += 1 }
        }
        #expect(directed.values.allSatisfy { $0 == 1 })
        // The boundary is the outer quadrilateral only: its length in edges matches the splits.
        let boundary = directed.keys.filter { directed[MeshCheck.Edge(a: $0.b, b: $0.a)] == nil }
        let interior = directed.keys.filter { directed[MeshCheck.Edge(a: $0.b, b: $0.a)] != nil }
        #expect(interior.count % 2 == 0)
        #expect(boundary.count >= 4 * 8)
    }

    @Test func densifiedBordersAreTheSameFromBothSides() {
        let prep = RingPreparation(maxEdgeDegrees: 2.5)
        let a = Point(-120, 49), b = Point(-95, 49), c = Point(-100, 60)
        let one = prep.prepare([a, b, c, a])!
        let other = prep.prepare([b, a, Point(-110, 40), b])!
        // The shared edge a–b comes out with the same interior points, in reverse order.
        let fwd = Array(one[0...one.firstIndex(of: b)!])
        let back = Array(other[0...other.firstIndex(of: a)!])
        #expect(fwd.count == 8)   // 25° of longitude at 49°N: 16.4° → 7 pieces
        #expect(fwd == back.reversed())
    }

    @Test func lonLatRingAreaMatchesGeodesicOnTheSphere() {
        // A 1° cell at the equator: exact spherical area of a lon/lat rectangle.
        let ring: Ring = [Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1), Point(0, 0)]
        let want = (Double.pi / 180) * sin(Double.pi / 180)
        #expect(abs(SphereMap.lonLatRingArea(ring) - want) < 1e-15)
        #expect(abs(SphereMap.lonLatRingArea(ring.reversed()) + want) < 1e-15)
    }

    @Test func antimeridianBoxes() {
        let east = Polygon(rings: [[Point(177, -18), Point(180, -18), Point(180, -16), Point(177, -16), Point(177, -18)]])
        let west = Polygon(rings: [[Point(-180, -18), Point(-179, -18), Point(-179, -16), Point(-180, -16), Point(-180, -18)]])
        let b = CountryMesher.lonLatBox([east, west])
        #expect(b.minX == 177 && b.maxX == -179)
        let plain = CountryMesher.lonLatBox([Polygon(rings: [[Point(10, 0), Point(20, 0), Point(20, 5), Point(10, 0)]])])
        #expect(plain.minX == 10 && plain.maxX == 20)
    }
}

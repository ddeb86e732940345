import Foundation
import Testing
@testable import GeoModel
@testable import GeoGEOS
@testable import GeoPROJ
@testable import GlobeStage

/// Large polygons are meshed in tiles (Tiling): the tiles must join without cracks inside a
/// country, and the points where cuts cross a border must reach the neighbour too.
@Suite struct MeshTilingTests {
    /// Meshes several countries the way the stage does: every tile plan first, the cut points
    /// shared by all of them, then each polygon.
    static func meshTogether(_ countries: [(suA3: String, id: String)], options: MeshOptions) throws -> [CountryMesh] {
        let ctx = GEOSContext()
        let polys = try countries.map { c in try Slices.units(Repo.units10m, [c.suA3]).flatMap { $0.geometry.polygons } }
        let seams = polys.map { RingPreparation.seamLatitudes(of: $0) }
        var plans: [[TilePlan?]] = []
        for (k, p) in polys.enumerated() { plans.append(p.indices.map { CountryMesher.tilePlan(p, $0, seamLatitudes: seams[k], options: options) }) }
        let cuts = CutPoints(plans.flatMap { $0 })
        return try countries.indices.map { k in
            let parts = try polys[k].indices.map {
                try CountryMesher.meshPolygon(polys[k], $0, seamLatitudes: seams[k], options: options, context: ctx, cuts: cuts, plan: plans[k][$0])
            }
            return CountryMesher.assemble(id: countries[k].id, polygons: polys[k], parts: parts)
        }
    }

    static let whole = MeshOptions(tileAbove: Int.max)

    /// Length (degrees) of the mesh's boundary and its Euler characteristic.
    static func boundaryAndEuler(_ m: CountryMesh) -> (length: Double, euler: Int, nonManifold: Int) {
        var count: [UInt64: Int] = [:]
        for t in 0..<m.triangleCount {
            for k in 0..<3 {
                let a = m.triangles[3 * t + k], b = m.triangles[3 * t + (k + 1) % 3]
                count[UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b))), default: 0] += 1
            }
        }
        var length = 0.0
        for (k, n) in count where n == 1 {
            length += SphereMap.angleDegrees(m.positions[Int(k >> 32)], m.positions[Int(k & 0xFFFF_FFFF)])
        }
        let used = Set(m.triangles).count
        return (length, used - count.count + m.triangleCount, count.values.filter { $0 > 2 }.count)
    }

    @Test func russiaInTilesIsTheWholeMeshCutIntoPieces() throws {
        let tiled = try Self.meshTogether([("RUS", "RU")], options: MeshOptions())[0]
        let whole = try Self.meshTogether([("RUS", "RU")], options: Self.whole)[0]
        let polys = try Slices.units(Repo.units10m, ["RUS"]).flatMap { $0.geometry.polygons }
        let seams = RingPreparation.seamLatitudes(of: polys)
        let plans = polys.indices.compactMap { CountryMesher.tilePlan(polys, $0, seamLatitudes: seams, options: MeshOptions()) }
        #expect(plans.count >= 2 && plans.reduce(0) { $0 + $1.leafCount } > 50, "Russia's large polygons are tiled")
        #expect(MeshCheck.inward(tiled) == 0)
        #expect(MeshCheck.longestEdge(tiled) <= 2.5 + 1e-9)
        #expect(abs(tiled.meshArea / whole.meshArea - 1) < 1e-9)
        // Same boundary (cut points lie on the border's great circles, so its length is the same),
        // same topology (no crack along a cut would keep the Euler characteristic), manifold.
        let t = Self.boundaryAndEuler(tiled), w = Self.boundaryAndEuler(whole)
        #expect(abs(t.length / w.length - 1) < 1e-9, "boundary \(t.length)° tiled vs \(w.length)° whole")
        #expect(t.euler == w.euler)
        #expect(t.nonManifold == 0)
        // The outline rings are the prepared rings, with no cut point.
        #expect(tiled.rings == whole.rings)
    }

    @Test func cutPointsReachTheNeighbour() throws {
        // South Africa cut into small tiles: its cuts cross Lesotho's border, and Lesotho must
        // get the same points, so every Lesotho boundary edge is still a reversed edge of South
        // Africa's hole.
        let options = MeshOptions(tileAbove: 200, tileVertices: 60)
        let both = try Self.meshTogether([("ZAF", "ZA"), ("LSO", "LS")], options: options)
        let za = both[0], ls = both[1]
        let polys = try Slices.units(Repo.units10m, ["ZAF"]).flatMap { $0.geometry.polygons }
        let plans = polys.indices.compactMap { CountryMesher.tilePlan(polys, $0, seamLatitudes: [], options: options) }
        #expect(!plans.isEmpty && CutPoints(plans).count > 0)
        let whole = try Self.meshTogether([("LSO", "LS")], options: Self.whole)[0]
        #expect(MeshCheck.boundary(ls).count > MeshCheck.boundary(whole).count, "Lesotho's border got South Africa's cut points")
        let zb = MeshCheck.boundary(za)
        #expect(MeshCheck.boundary(ls).allSatisfy { zb.contains(MeshCheck.Edge(a: $0.b, b: $0.a)) })
        #expect(MeshCheck.inward(za) == 0 && MeshCheck.inward(ls) == 0)
        #expect(abs(za.meshArea / za.sphereArea - 1) < 0.005)
    }

    @Test func fijiInTilesStillMeetsAtTheAntimeridian() throws {
        let options = MeshOptions(tileAbove: 100, tileVertices: 40)
        let fj = try Self.meshTogether([("FJI", "FJ")], options: options)[0]
        let whole = try Self.meshTogether([("FJI", "FJ")], options: Self.whole)[0]
        #expect(MeshCheck.inward(fj) == 0)
        let t = Self.boundaryAndEuler(fj), w = Self.boundaryAndEuler(whole)
        #expect(abs(t.length / w.length - 1) < 1e-9)
        #expect(t.euler == w.euler)
        // On the ±180 seam no vertex of one half may lie inside an open seam edge of the other
        // (a T-junction): cut points on a seam edge go to both halves.
        let seam = MeshCheck.fijiSeam(fj)
        #expect(seam.matched >= 8, "matched seam edges")
        #expect(seam.tJunctions == 0, "\(seam.tJunctions) T-junctions on the seam")
    }
}

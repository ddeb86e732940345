import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoGEOS
@testable import GlobeStage

/// Reviewer findings on real slices: the 1:50m pole line, float32 slivers at 1:110m.
@Suite struct MeshPoleAndFloat32Tests {
    /// Natural Earth 1:50m puts Antarctica's pole line at −89.998926, not −90: it must still be
    /// recognised as the polar detour (cap over the pole, no outline ring around it).
    @Test func antarcticaAt50mCoversThePoleWithoutAStrayOutline() throws {
        let polys = try Slices.units(Repo.units50m, ["ATA"]).flatMap { $0.geometry.polygons }
        let poleLine = polys.flatMap { $0.exterior }.filter { $0.y < -89.99 }
        #expect(!poleLine.isEmpty && poleLine.allSatisfy { $0.y == -89.998926 }, "the slice no longer has the 1:50m pole line")
        let aq = try CountryMesher.mesh(id: "AQ", polygons: polys, options: MeshOptions(), context: GEOSContext())
        #expect(MeshCheck.inward(aq) == 0)
        #expect(MeshCheck.covers(aq, Vec3(0, -1, 0)), "the South Pole is a hole")
        let uncovered = stride(from: -180.0, to: 180, by: 15).filter { !MeshCheck.covers(aq, SphereMap.unit(Point($0, -89.95))) }
        #expect(uncovered.isEmpty, "longitudes not covered at −89.95°: \(uncovered)")
        #expect(abs(aq.meshArea / aq.sphereArea - 1) < 0.005)
        #expect(!aq.rings.contains { $0.contains { $0.y < -89.99 } }, "the pole detour is still in the rings")
        // No outline vertex near the pole: the pole line draws nothing.
        let sectors = Outlines.build([aq])
        let nearPole = sectors.flatMap(\.positions).filter { $0.y < -sin(89.9 * Double.pi / 180) }
        #expect(nearPole.isEmpty, "\(nearPole.count) outline vertices within 0.1° of the South Pole")
    }

    @Test func artificialSegments() {
        #expect(Outlines.isArtificial(Point(-178.59375, -89.998926), Point(-177.1875, -89.998926)))   // 1:50m pole line
        #expect(Outlines.isArtificial(Point(10, -90), Point(20, -90)))
        #expect(Outlines.isArtificial(Point(180, -16.1), Point(180, -16.2)))                         // antimeridian cut
        #expect(Outlines.isArtificial(Point(-180, -78.5), Point(180, -78.6)))                         // cut, both signs
        #expect(Outlines.isArtificial(Point(-180, 65), Point(180, 65)))                               // ±180 twins
        #expect(!Outlines.isArtificial(Point(179.9, -16.1), Point(180, -16.2)))                       // a real coast to the seam
        #expect(!Outlines.isArtificial(Point(10, -89.9), Point(20, -89.9)))                           // not the pole line
        #expect(!Outlines.isArtificial(Point(40.316589, -10.317096), Point(40.316586, -10.317098)))   // 0.4 m apart: real
    }

    /// Float32 copies of the mesh's positions, absolute (the old writing) or as written now.
    static func inwardInFloat32(_ m: CountryMesh, absolute: Bool) -> Int {
        let r = 1.003
        let world: [Vec3]
        if absolute {
            world = m.positions.map { Vec3(Double(Float($0.x * r)), Double(Float($0.y * r)), Double(Float($0.z * r))) }
        } else {
            let f = FillNodeGeometry(m, radius: r)
            let t = Vec3(Double(f.translation[0]), Double(f.translation[1]), Double(f.translation[2]))
            world = (0..<f.vertexCount).map { Vec3(Double(f.positions[3 * $0]), Double(f.positions[3 * $0 + 1]), Double(f.positions[3 * $0 + 2])) + t }
            return count(world, f.triangles)
        }
        return count(world, m.triangles)
    }

    /// Triangles that are not degenerate and face inward, as check_globe.py tests them.
    static func count(_ v: [Vec3], _ tris: [Int32]) -> Int {
        var bad = 0
        for k in 0..<(tris.count / 3) {
            let a = v[Int(tris[3 * k])], b = v[Int(tris[3 * k + 1])], c = v[Int(tris[3 * k + 2])]
            let n = (b - a).cross(c - a)
            if n.length >= 1e-12 && n.dot(a + b + c) <= 0 { bad += 1 }
        }
        return bad
    }

    /// Mozambique at 1:110m has three coast vertices 0.3–0.5 m apart; written as absolute
    /// float32 one sliver turned inward. Written relative to the node's translation, none does.
    @Test func mozambiqueAt110mFacesOutwardInFloat32() throws {
        let polys = try Slices.units(Repo.countries110m, ["MOZ"]).flatMap { $0.geometry.polygons }
        let mz = try CountryMesher.mesh(id: "MZ", polygons: polys, options: MeshOptions(), context: GEOSContext())
        #expect(MeshCheck.inward(mz) == 0)
        #expect(Self.inwardInFloat32(mz, absolute: true) >= 1, "the slice no longer exercises the float32 sliver")
        #expect(Self.inwardInFloat32(mz, absolute: false) == 0)
        let f = FillNodeGeometry(mz, radius: 1.003)
        #expect(f.triangleCount == mz.triangleCount && f.droppedInFloat32 == 0)
    }

    /// Slivers narrower than float32 can show even relative to the node (a country as wide as a
    /// hemisphere) are left out instead of being written inward.
    @Test func float32SliversAreLeftOut() {
        var m = CountryMesh(id: "XX")
        let big = [Point(-60, -50), Point(60, -50), Point(0, 60)].map(SphereMap.unit)
        m.positions = big
        m.triangles = [0, 1, 2]
        // Slivers: b 6e-8 (≈ 0.4 m) from a towards the far corner c, nearly on the line a–c.
        for k in 0..<40 {
            let lon = 10 + Double(k) * 0.01
            let a = SphereMap.unit(Point(lon, 10)), c = SphereMap.unit(Point(lon + 0.5, 10.3))
            let b = (a + (c - a).normalized * 6e-8).normalized
            let base = Int32(m.positions.count)
            m.positions += [a, b, c]
            // Counter-clockwise seen from outside in double precision.
            if a.dot(b.cross(c)) > 0 { m.triangles += [base, base + 1, base + 2] } else { m.triangles += [base, base + 2, base + 1] }
        }
        #expect(Self.inwardInFloat32(m, absolute: true) > 0, "the slivers do not flip in float32")
        let f = FillNodeGeometry(m, radius: 1.003)
        #expect(f.droppedInFloat32 > 0)
        #expect(Self.inwardInFloat32(m, absolute: false) == 0)
        #expect(f.triangles.prefix(3) == [0, 1, 2])
    }
}

import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ
import GeoFormats

/// A country fill as it is written to the .glb: float32 positions relative to the node's
/// translation (the centre of the mesh's box at the fill radius), and the triangles that still
/// face outward once the positions are float32.
///
/// Float32 at r ≈ 1 resolves about 1.2e-7 (≈ 0.8 m on the Earth), so three vertices a fraction
/// of a metre apart (which the 1:110m data has, in Mozambique) can round into a sliver that
/// faces inward. Relative to the node's centre the coordinates are as small as the country
/// (a small island gets thousands of times finer steps), and every triangle is tested once more
/// with the float32 values a reader gets: the ones that no longer face outward (or have
/// collapsed to no area) are left out. They are sub-metre slivers; what they covered is too
/// small to see.
public struct FillNodeGeometry: Sendable {
    /// The node's translation (float32, as written).
    public var translation: [Float]
    /// x, y, z per vertex, relative to `translation`.
    public var positions: [Float]
    /// Counter-clockwise seen from outside, checked in float32.
    public var triangles: [Int32]
    /// Triangles of the double-precision mesh left out because float32 turns them inward or flat.
    public var droppedInFloat32: Int
    public var vertexCount: Int { positions.count / 3 }
    public var triangleCount: Int { triangles.count / 3 }

    public init(_ mesh: CountryMesh, radius: Double) {
        var lo = Vec3(.infinity, .infinity, .infinity), hi = Vec3(-.infinity, -.infinity, -.infinity)
        for p in mesh.positions {
            lo = Vec3(min(lo.x, p.x), min(lo.y, p.y), min(lo.z, p.z))
            hi = Vec3(max(hi.x, p.x), max(hi.y, p.y), max(hi.z, p.z))
        }
        let c = mesh.positions.isEmpty ? Vec3(0, 0, 0) : (lo + hi) * (radius / 2)
        let t = [Float(c.x), Float(c.y), Float(c.z)]
        let origin = Vec3(Double(t[0]), Double(t[1]), Double(t[2]))
        var pos = [Float](repeating: 0, count: mesh.positions.count * 3)
        for (i, p) in mesh.positions.enumerated() {
            let q = p * radius - origin
            pos[3 * i] = Float(q.x); pos[3 * i + 1] = Float(q.y); pos[3 * i + 2] = Float(q.z)
        }
        func local(_ i: Int32) -> Vec3 {
            let k = 3 * Int(i)
            return Vec3(Double(pos[k]), Double(pos[k + 1]), Double(pos[k + 2]))
        }
        var tris: [Int32] = []
        tris.reserveCapacity(mesh.triangles.count)
        var dropped = 0
        for k in 0..<mesh.triangleCount {
            let ia = mesh.triangles[3 * k], ib = mesh.triangles[3 * k + 1], ic = mesh.triangles[3 * k + 2]
            let a = local(ia), b = local(ib), cc = local(ic)
            // The face normal against the outward direction (the triangle's place on the sphere),
            // as a reader computes it from the float32 data.
            let normal = (b - a).cross(cc - a)
            let outward = a + b + cc + origin * 3
            if normal.dot(outward) > 0 { tris.append(ia); tris.append(ib); tris.append(ic) } else { dropped += 1 }
        }
        translation = t
        positions = pos
        triangles = tris
        droppedInFloat32 = dropped
    }
}

import CGEOS
import Foundation
import GeoModel
import Geodesy

/// A planar triangle mesh in lon/lat: `points` and counter-clockwise triangles as index triples.
public struct PlanarMesh: Sendable {
    public var points: [Point] = []
    public var triangles: [Int32] = []
    public init() {}
    public var triangleCount: Int { triangles.count / 3 }

    @inlinable public static func cross(_ a: Point, _ b: Point, _ c: Point) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }
}

public enum Triangulation {
    /// Triangulates one (prepared, valid) lon/lat polygon with its holes using GEOS's
    /// constrained Delaunay triangulation. No points are added: every triangle corner is a
    /// ring vertex. Triangles come back counter-clockwise; collinear (zero-area) triangles are
    /// flipped away with their neighbour where possible.
    public static func triangulate(_ polygon: Polygon, context: GEOSContext) throws -> PlanarMesh {
        var mesh = PlanarMesh()
        var index = VertexTable(capacity: polygon.vertexCount)
        for ring in polygon.rings {
            for p in ring.dropLast() { _ = index.id(p) }
        }
        mesh.points = index.points
        var degenerate: [Int] = []
        func add(_ pa: Point, _ pb: Point, _ pc: Point) throws {
            guard let a = index.existing(pa), let b = index.existing(pb), let c = index.existing(pc) else {
                throw GEOSError(operation: "triangulation", message: "triangle corner not among the ring vertices near (\(pa.x), \(pa.y))")
            }
            let cr = PlanarMesh.cross(pa, pb, pc)
            mesh.triangles.append(a)
            if cr > 0 { mesh.triangles.append(b); mesh.triangles.append(c) } else { mesh.triangles.append(c); mesh.triangles.append(b) }
            if cr == 0 { degenerate.append(mesh.triangles.count / 3 - 1) }
        }
        // Without holes or repeated vertices, GEOS's own algorithm in Swift (EarClipDelaunay):
        // the same triangles, without a GEOS geometry for the input and each triangle.
        if polygon.holes.isEmpty, mesh.points.count == polygon.exterior.count - 1,
           let corners = EarClipDelaunay.triangulate(ring: polygon.exterior) {
            mesh.triangles.reserveCapacity(corners.count)
            for t in 0..<(corners.count / 3) { try add(corners[3 * t], corners[3 * t + 1], corners[3 * t + 2]) }
        } else {
            for (pa, pb, pc) in try geosTriangles(polygon, context: context) { try add(pa, pb, pc) }
        }
        if !degenerate.isEmpty { flipDegenerate(&mesh, degenerate) }
        return mesh
    }

    /// GEOS's constrained Delaunay triangulation of the polygon: each triangle's corners as GEOS
    /// writes them.
    static func geosTriangles(_ polygon: Polygon, context: GEOSContext) throws -> [(Point, Point, Point)] {
        let g = try context.polygon(polygon)
        let tin = try g.constrainedDelaunayTriangulation()
        let h = context.handle
        let n = GEOSGetNumGeometries_r(h, tin.pointer)
        var out: [(Point, Point, Point)] = []
        out.reserveCapacity(Int(max(n, 0)))
        var buf = [Double](repeating: 0, count: 8)
        for i in 0..<max(n, 0) {
            guard let tri = GEOSGetGeometryN_r(h, tin.pointer, i),
                  let ring = GEOSGetExteriorRing_r(h, tri),
                  let seq = GEOSGeom_getCoordSeq_r(h, ring) else { throw context.fail("triangle \(i)") }
            var size: UInt32 = 0
            _ = GEOSCoordSeq_getSize_r(h, seq, &size)
            guard size == 4 else { throw GEOSError(operation: "triangulation", message: "triangle with \(size) coordinates") }
            let ok = buf.withUnsafeMutableBufferPointer { GEOSCoordSeq_copyToBuffer_r(h, seq, $0.baseAddress, 0, 0) }
            if ok == 0 { throw context.fail("triangle coordinates") }
            out.append((Point(buf[0], buf[1]), Point(buf[2], buf[3]), Point(buf[4], buf[5])))
        }
        return out
    }

    /// Zero-area triangles (a, m, c with m on segment a–c) are removed by flipping their long
    /// edge with the neighbouring triangle (a, c, d) → (a, m, d), (m, c, d). A degenerate
    /// triangle on the polygon boundary (no neighbour) is dropped: it covers no area.
    static func flipDegenerate(_ mesh: inout PlanarMesh, _ list: [Int]) {
        var edgeOwner: [UInt64: Int] = [:]
        let tc = mesh.triangleCount
        edgeOwner.reserveCapacity(tc * 3)
        @inline(__always) func key(_ a: Int32, _ b: Int32) -> UInt64 { UInt64(UInt32(a)) << 32 | UInt64(UInt32(b)) }
        for t in 0..<tc {
            for k in 0..<3 { edgeOwner[key(mesh.triangles[3 * t + k], mesh.triangles[3 * t + (k + 1) % 3])] = t }
        }
        var removed = Set<Int>()
        for t in list {
            guard !removed.contains(t) else { continue }
            let v = [mesh.triangles[3 * t], mesh.triangles[3 * t + 1], mesh.triangles[3 * t + 2]]
            let p = v.map { mesh.points[Int($0)] }
            // Find the longest side (the one the middle point lies on).
            var best = 0, bestLen = -1.0
            for k in 0..<3 {
                let d = (p[(k + 1) % 3].x - p[k].x) * (p[(k + 1) % 3].x - p[k].x) + (p[(k + 1) % 3].y - p[k].y) * (p[(k + 1) % 3].y - p[k].y)
                if d > bestLen { bestLen = d; best = k }
            }
            let a = v[best], c = v[(best + 1) % 3], m = v[(best + 2) % 3]
            // The neighbour holds the edge c→a.
            guard let u = edgeOwner[key(c, a)], u != t, !removed.contains(u) else { removed.insert(t); continue }
            let w = [mesh.triangles[3 * u], mesh.triangles[3 * u + 1], mesh.triangles[3 * u + 2]]
            guard let d = w.first(where: { $0 != a && $0 != c }) else { removed.insert(t); continue }
            let pa = mesh.points[Int(a)], pc = mesh.points[Int(c)], pm = mesh.points[Int(m)], pd = mesh.points[Int(d)]
            guard PlanarMesh.cross(pa, pm, pd) > 0, PlanarMesh.cross(pm, pc, pd) > 0 else { removed.insert(t); continue }
            mesh.triangles[3 * t] = a; mesh.triangles[3 * t + 1] = m; mesh.triangles[3 * t + 2] = d
            mesh.triangles[3 * u] = m; mesh.triangles[3 * u + 1] = c; mesh.triangles[3 * u + 2] = d
            for k in 0..<3 {
                edgeOwner[key(mesh.triangles[3 * t + k], mesh.triangles[3 * t + (k + 1) % 3])] = t
                edgeOwner[key(mesh.triangles[3 * u + k], mesh.triangles[3 * u + (k + 1) % 3])] = u
            }
        }
        if !removed.isEmpty {
            var out: [Int32] = []
            out.reserveCapacity(mesh.triangles.count)
            for t in 0..<tc where !removed.contains(t) { out += mesh.triangles[(3 * t)..<(3 * t + 3)] }
            mesh.triangles = out
        }
    }
}

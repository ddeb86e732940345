import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ
import GeoFormats

/// One country's fill mesh on the unit sphere (scale by the fill radius when writing).
public struct CountryMesh: Sendable {
    public var id: String
    /// Unit vectors (also the per-vertex normals: the fill is a shell of the sphere).
    public var positions: [Vec3] = []
    /// Counter-clockwise seen from outside.
    public var triangles: [Int32] = []
    /// The prepared (densified, seam-conformed) lon/lat rings, outer rings first in each polygon.
    public var rings: [Ring] = []
    /// Area of the mesh on the unit sphere (sum of the spherical triangles of its vertices).
    public var meshArea: Double = 0
    /// Exact unit-sphere area of the input polygons read with lon/lat-straight edges.
    public var sphereArea: Double = 0
    /// Geodesic area on the WGS84 ellipsoid (PROJ/geographiclib), m² (GeodesicAreas; set by the stage).
    public var geodesicArea: Double = 0
    /// Area-weighted centre of the mesh on the sphere, as lon/lat.
    public var centroid: Point = Point(0, 0)
    /// Lon/lat box; west > east when the country crosses the antimeridian (RFC 7946 §5.2).
    public var bbox: BoundingBox = .empty
    public var polygonCount = 0
    /// Triangles dropped because they fold over on the sphere and no edge flip could fix them
    /// (a spike in the input ring that crosses itself on the sphere but not in lon/lat).
    public var droppedFolds = 0
    /// Polygons triangulated in lon/lat because the gnomonic triangulation failed or did not apply.
    public var lonLatFallbacks = 0
    /// Tiled polygons that were meshed whole because a tile could not be triangulated.
    public var tileFallbacks = 0
    /// For each meshed polygon: where its rings start in `rings` and its triangles (×3) in `triangles`.
    public var polygonStarts: [(ring: Int, index: Int)] = []
    public var inputVertices = 0
    public init(id: String) { self.id = id }
    public var vertexCount: Int { positions.count }
    public var triangleCount: Int { triangles.count / 3 }
}

public struct MeshOptions: Sendable {
    /// CONTRACTS §2: triangles and border segments longer than about 2.5° are subdivided.
    public static let contractMaxEdgeDegrees = 2.5
    public var maxEdgeDegrees: Double = contractMaxEdgeDegrees
    public var maxLonStep: Double = 10
    /// Polygons with more prepared vertices than this are meshed in tiles of about
    /// `tileVertices` vertices (Tiling); smaller ones are triangulated whole. One GEOS
    /// triangulation grows faster than linearly in its size (its Delaunay flips), so small
    /// tiles keep the stage linear: measured at 1:10m with every vertex kept and at four
    /// times that, 1,000 / 250 cost about 20 % less CPU than 6,000 / 2,000.
    public var tileAbove = 1000
    public var tileVertices = 250
    public init(maxEdgeDegrees: Double = contractMaxEdgeDegrees, maxLonStep: Double = 10, tileAbove: Int = 1000, tileVertices: Int = 250) {
        self.maxEdgeDegrees = maxEdgeDegrees; self.maxLonStep = maxLonStep
        self.tileAbove = tileAbove; self.tileVertices = tileVertices
    }
}

/// One polygon of a country, meshed (a unit of parallel work).
public struct PolygonMesh: Sendable {
    public var units: [Vec3] = []
    public var triangles: [Int32] = []
    public var rings: [Ring] = []
    public var droppedFolds = 0
    /// 1 when the polygon had to be triangulated in lon/lat instead of the gnomonic projection.
    public var lonLatFallbacks = 0
    /// 1 when the polygon had a tile plan but was meshed whole (a tile could not be triangulated).
    public var tileFallbacks = 0
    public var sphereArea = 0.0
    public var inputVertices = 0
}

public enum CountryMesher {
    /// Meshes the polygons of one feature, one after the other. Errors name the feature.
    public static func mesh(id: String, polygons: [Polygon], options: MeshOptions, context: GEOSContext,
                            file: String = "", ref: FeatureRef? = nil) throws -> CountryMesh {
        let seam = RingPreparation.seamLatitudes(of: polygons)
        let plans = polygons.indices.map { tilePlan(polygons, $0, seamLatitudes: seam, options: options) }
        let cuts = CutPoints(plans)
        let parts = try polygons.indices.map {
            try meshPolygon(polygons, $0, seamLatitudes: seam, options: options, context: context, file: file, ref: ref,
                            cuts: cuts, plan: plans[$0])
        }
        var mesh = assemble(id: id, polygons: polygons, parts: parts)
        mesh.geodesicArea = GeodesicAreas.countries([polygons], threads: 1)[0]
        return mesh
    }

    /// Meshes polygon `pi` of a feature's `polygons`. `seamLatitudes` are the feature's (all its
    /// polygons' vertices on ±180), so the halves of a polygon cut at the antimeridian match.
    /// `cuts`: points where tile cuts (of this or any other polygon) cross this polygon's ring
    /// edges, inserted before meshing; `plan`: this polygon's tiles (from `tilePlan`), nil to mesh it whole.
    public static func meshPolygon(_ polygons: [Polygon], _ pi: Int, seamLatitudes: [Double], options: MeshOptions,
                                   context: GEOSContext, file: String = "", ref: FeatureRef? = nil,
                                   cuts: CutPoints = CutPoints(), plan: TilePlan? = nil) throws -> PolygonMesh {
        let poly = polygons[pi]
        var out = PolygonMesh()
        let prep = RingPreparation(maxEdgeDegrees: options.maxEdgeDegrees, maxLonStep: options.maxLonStep, seamLatitudes: seamLatitudes)
        out.inputVertices = poly.vertexCount
        out.sphereArea = SphereMap.lonLatArea(poly)
        guard let outline = prep.prepare(poly).map(PolarCap.closeAroundPole) else { return out }
        // The outline keeps the prepared rings; the fill also gets the tile cut points on them.
        let prepared = cuts.insert(into: outline)
        var units: [Vec3] = []
        var triangles: [Int32] = []
        if let plan, let m = try? Tiling.mesh(prepared, plan: plan, context: context) {
            (units, triangles) = (m.units, m.triangles)
            out.droppedFolds += dropFolds(units, &triangles)
        } else { do {
            if plan != nil { out.tileFallbacks = 1 }
            let m = try triangulateOnSphere(prepared, context: context)
            (units, triangles) = (m.units, m.triangles)
            if !m.gnomonic { out.lonLatFallbacks += 1 }
            out.droppedFolds += dropFolds(units, &triangles)
        } catch {
            // Self-touching or otherwise invalid input: repair, re-prepare and retry once.
            let repaired = try context.polygon(prepared).makeValid().polygons()
            for r in repaired {
                guard let rp = prep.prepare(RingMath.orientedForRFC7946(r)) else { continue }
                do {
                    var m = try triangulateOnSphere(rp, context: context)
                    if !m.gnomonic { out.lonLatFallbacks += 1 }
                    out.droppedFolds += dropFolds(m.units, &m.triangles)
                    let off = Int32(units.count)
                    units += m.units
                    triangles += m.triangles.map { $0 + off }
                } catch {
                    throw InputError(file: file, feature: ref, "polygon \(pi + 1) of \(polygons.count) cannot be triangulated: \(error)")
                }
            }
        } }
        out.rings = outline.rings
        Refinement(maxEdgeDegrees: options.maxEdgeDegrees).refine(&units, &triangles)
        out.units = units
        out.triangles.reserveCapacity(triangles.count)
        for t in 0..<(triangles.count / 3) {
            let a = triangles[3 * t], b = triangles[3 * t + 1], c = triangles[3 * t + 2]
            let ua = units[Int(a)], ub = units[Int(b)], uc = units[Int(c)]
            // Corners that coincide on the sphere (antimeridian or pole duplicates): no area.
            if ua == ub || ub == uc || uc == ua { continue }
            out.triangles.append(a); out.triangles.append(b); out.triangles.append(c)
        }
        return out
    }

    /// The tile plan of polygon `pi` (nil when it is meshed whole): the first pass, before any
    /// polygon is meshed, so that every polygon gets the cut points on its edges.
    public static func tilePlan(_ polygons: [Polygon], _ pi: Int, seamLatitudes: [Double], options: MeshOptions) -> TilePlan? {
        let prep = RingPreparation(maxEdgeDegrees: options.maxEdgeDegrees, maxLonStep: options.maxLonStep, seamLatitudes: seamLatitudes)
        guard polygons[pi].vertexCount > options.tileAbove / 8, let prepared = prep.prepare(polygons[pi]) else { return nil }
        return Tiling.plan(PolarCap.closeAroundPole(prepared), maxEdgeDegrees: options.maxEdgeDegrees,
                           tileAbove: options.tileAbove, leafVertices: options.tileVertices)
    }

    /// The country mesh from its polygons' meshes, in polygon order.
    public static func assemble(id: String, polygons: [Polygon], parts: [PolygonMesh]) -> CountryMesh {
        var out = CountryMesh(id: id)
        out.polygonCount = polygons.count
        out.positions.reserveCapacity(parts.reduce(0) { $0 + $1.units.count })
        out.triangles.reserveCapacity(parts.reduce(0) { $0 + $1.triangles.count })
        for p in parts {
            out.inputVertices += p.inputVertices
            out.sphereArea += p.sphereArea
            out.droppedFolds += p.droppedFolds
            out.lonLatFallbacks += p.lonLatFallbacks
            out.tileFallbacks += p.tileFallbacks
            guard !p.rings.isEmpty else { continue }
            out.polygonStarts.append((out.rings.count, out.triangles.count))
            out.rings += p.rings
            let base = Int32(out.positions.count)
            out.positions += p.units
            out.triangles += p.triangles.map { $0 + base }
        }
        finishStats(&out, polygons: polygons)
        return out
    }

    /// Triangulates a prepared lon/lat polygon as seen on the sphere: in the gnomonic projection
    /// centred on the polygon (great circles are straight lines there, so a triangle that is
    /// counter-clockwise in the plane is counter-clockwise on the sphere, thin ones included), or
    /// in lon/lat when the polygon reaches too far from its centre for a gnomonic projection.
    /// Returns unit vectors and counter-clockwise triangles.
    static func triangulateOnSphere(_ polygon: Polygon, context: GEOSContext) throws -> (units: [Vec3], triangles: [Int32], gnomonic: Bool) {
        do {
            return try triangulateOnSphere(polygon, context: context, allowGnomonic: true)
        } catch {
            // GEOS 3.11's ear clipper can give up on nearly collinear corners ("Unable to find a
            // convex corner"); in lon/lat the densified points are exactly collinear, which it handles.
            return try triangulateOnSphere(polygon, context: context, allowGnomonic: false)
        }
    }

    static func triangulateOnSphere(_ polygon: Polygon, context: GEOSContext, allowGnomonic: Bool) throws -> (units: [Vec3], triangles: [Int32], gnomonic: Bool) {
        var sum = Vec3(0, 0, 0)
        for p in polygon.exterior.dropLast() { sum = sum + SphereMap.unit(p) }
        let center = sum.normalized
        let f = GlobeShapes.frame(SphereMap.lonLat(center))
        var gnomonic = allowGnomonic && sum.length > 1e-9
        var planar: [Ring] = []
        // The unit vector of each planar point (the last occurrence's).
        var unitOf = PlanarUnits(capacity: polygon.vertexCount)
        if gnomonic {
            outer: for ring in polygon.rings {
                var r: Ring = []
                r.reserveCapacity(ring.count)
                for p in ring {
                    let u = SphereMap.unit(p)
                    let d = u.dot(f.up)
                    if d < 0.2 { gnomonic = false; break outer }
                    let q = Point(u.dot(f.east) / d, u.dot(f.north) / d)
                    unitOf.set(q, u)
                    r.append(q)
                }
                planar.append(r)
            }
        }
        if !gnomonic {
            planar = polygon.rings
            unitOf = PlanarUnits(capacity: polygon.vertexCount)
            for ring in polygon.rings { for p in ring { unitOf.set(p, SphereMap.unit(p)) } }
        }
        let m = try triangulateChecked(Polygon(rings: planar), context: context)
        let units = m.points.map { unitOf[$0] }
        var tris = m.triangles
        if !gnomonic { SphereRepair.fixInverted(units, &tris) }
        return (units, tris, gnomonic)
    }

    /// Removes triangles that still face inward on the sphere; returns how many.
    static func dropFolds(_ units: [Vec3], _ tris: inout [Int32]) -> Int {
        @inline(__always) func folds(_ t: Int) -> Bool {
            let a = units[Int(tris[3 * t])], b = units[Int(tris[3 * t + 1])], c = units[Int(tris[3 * t + 2])]
            return a.dot(b.cross(c)) <= 0 && a != b && b != c && c != a
        }
        // Almost always none: then nothing is copied.
        guard let first = (0..<(tris.count / 3)).first(where: folds) else { return 0 }
        var out = Array(tris[0..<(3 * first)])
        out.reserveCapacity(tris.count)
        var dropped = 1
        for t in (first + 1)..<(tris.count / 3) {
            if folds(t) { dropped += 1; continue }
            out.append(tris[3 * t]); out.append(tris[3 * t + 1]); out.append(tris[3 * t + 2])
        }
        tris = out
        return dropped
    }

    /// GEOS triangulation, checked: the triangles' planar area must equal the polygon's.
    static func triangulateChecked(_ polygon: Polygon, context: GEOSContext) throws -> PlanarMesh {
        let m = try Triangulation.triangulate(polygon, context: context)
        var area = 0.0
        for t in 0..<m.triangleCount {
            area += PlanarMesh.cross(m.points[Int(m.triangles[3 * t])], m.points[Int(m.triangles[3 * t + 1])], m.points[Int(m.triangles[3 * t + 2])]) / 2
        }
        var want = abs(RingMath.signedArea(polygon.exterior))
        for h in polygon.holes { want -= abs(RingMath.signedArea(h)) }
        if abs(area - want) > 1e-9 * max(1, want) + 1e-15 {
            throw StageError("triangulated area \(area) differs from the polygon's \(want)")
        }
        return m
    }

    static func finishStats(_ m: inout CountryMesh, polygons: [Polygon]) {
        var area = 0.0
        var c = Vec3(0, 0, 0)
        for t in 0..<m.triangleCount {
            let a = m.positions[Int(m.triangles[3 * t])], b = m.positions[Int(m.triangles[3 * t + 1])], cc = m.positions[Int(m.triangles[3 * t + 2])]
            let s = SphereMap.triangleArea(a, b, cc)
            area += s
            c = c + (a + b + cc) * (s / 3)
        }
        m.meshArea = area
        m.centroid = c.length > 0 ? SphereMap.lonLat(c) : (polygons.first.map { $0.exterior[0] } ?? Point(0, 0))
        m.bbox = lonLatBox(polygons)
    }

    /// The smallest lon/lat box, allowing it to cross the antimeridian (west > east then).
    public static func lonLatBox(_ polygons: [Polygon]) -> BoundingBox {
        var intervals: [(Double, Double)] = []
        var minY = Double.infinity, maxY = -Double.infinity
        for p in polygons {
            var lo = Double.infinity, hi = -Double.infinity
            for q in p.exterior { lo = min(lo, q.x); hi = max(hi, q.x); minY = min(minY, q.y); maxY = max(maxY, q.y) }
            intervals.append((lo, hi))
        }
        guard !intervals.isEmpty else { return .empty }
        intervals.sort { $0 < $1 }
        // Merge, then find the widest gap in longitude coverage around the circle.
        var merged: [(Double, Double)] = []
        for iv in intervals {
            if let last = merged.last, iv.0 <= last.1 { merged[merged.count - 1].1 = max(last.1, iv.1) } else { merged.append(iv) }
        }
        var bestGap = (merged[0].0 + 360) - merged[merged.count - 1].1
        var west = merged[0].0, east = merged[merged.count - 1].1
        for i in 1..<merged.count {
            let gap = merged[i].0 - merged[i - 1].1
            if gap > bestGap { bestGap = gap; west = merged[i].0; east = merged[i - 1].1 }
        }
        return BoundingBox(minX: west, minY: minY, maxX: east, maxY: maxY)
    }
}

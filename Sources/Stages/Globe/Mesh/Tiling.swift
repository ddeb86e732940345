import Foundation
import GeoModel
import Geodesy
import GeoGEOS

/// Meshing a large polygon in tiles, so that no single GEOS triangulation grows with the
/// polygon (GEOS's ear clipping and Delaunay flips grow faster than linearly in the ring size).
///
/// The polygon is triangulated in the gnomonic projection centred on it, as before, where
/// straight lines are great circles. A k-d tree over its projected vertices cuts the plane
/// along axis-parallel lines (great circles on the sphere) until each leaf holds at most
/// `leafVertices` vertices; each leaf rectangle is clipped out of the polygon (GEOS's
/// rectangle clip) and triangulated on its own, and the pieces are merged by their shared
/// vertices. Watertight by construction:
///   * along a cut inside the polygon, both sides get the same vertices: the points where ring
///     edges cross the cut, every tile corner that lies on the cut line, and equal pieces
///     (≤ `maxEdgeDegrees` on the sphere) between consecutive ones, computed the same way from
///     either side;
///   * where a cut crosses a ring edge, the crossing is a new ring vertex on the edge's great
///     circle, computed once and inserted into every polygon that has the edge (`CutPoints`:
///     the neighbouring country, the other half across the antimeridian), so borders between
///     countries stay vertex for vertex the same (no T-junction between a tiled country and
///     its neighbour). The outline rings are not changed.
public struct TilePlan: Sendable {
    struct Node: Sendable {
        var minX, minY, maxX, maxY: Double
        /// 0: split at x = value, 1: at y = value, -1: leaf.
        var axis = -1
        var value = 0.0
        var left = -1, right = -1
    }
    struct Line: Hashable, Sendable { var axis: Int; var value: Double }

    var up: Vec3, east: Vec3, north: Vec3
    var nodes: [Node] = []
    /// Tile corners on each cut line (the ends of the cuts that end on it), sorted.
    var corners: [Line: [Double]] = [:]
    var splitX = Set<Double>(), splitY = Set<Double>()
    /// Plane length of one piece of a cut (the gnomonic plane stretches: plane length ≥ arc).
    var step: Double
    /// This polygon's own crossings: lon/lat point → its planar position, exactly on the cut.
    var own: [Point: Point] = [:]
    /// (edge, crossing point) for `CutPoints`.
    var crossings: [(CutPoints.EdgeKey, Point)] = []
    public var leafCount: Int { nodes.reduce(0) { $0 + ($1.axis < 0 ? 1 : 0) } }

    @inline(__always) func project(_ u: Vec3) -> Point? {
        let d = u.dot(up)
        guard d >= 0.2 else { return nil }
        return Point(u.dot(east) / d, u.dot(north) / d)
    }
    @inline(__always) func unproject(_ q: Point) -> Vec3 { (up + east * q.x + north * q.y).normalized }
}

public enum Tiling {
    /// The tile plan of a prepared (pole-closed) polygon, or nil when it is small or reaches too
    /// far from its centre for the gnomonic projection (it is then meshed whole, as before).
    public static func plan(_ prepared: Polygon, maxEdgeDegrees: Double, tileAbove: Int, leafVertices: Int) -> TilePlan? {
        let count = prepared.rings.reduce(0) { $0 + $1.count - 1 }
        guard count > tileAbove else { return nil }
        // The same centre and frame as the whole-polygon triangulation.
        var sum = Vec3(0, 0, 0)
        for p in prepared.exterior.dropLast() { sum = sum + SphereMap.unit(p) }
        guard sum.length > 1e-9 else { return nil }
        let f = GlobeShapes.frame(SphereMap.lonLat(sum.normalized))
        var plan = TilePlan(up: f.up, east: f.east, north: f.north, step: maxEdgeDegrees * Double.pi / 180 * 0.999)
        var pts: [Point] = []
        pts.reserveCapacity(count)
        var lo = Point(.infinity, .infinity), hi = Point(-.infinity, -.infinity)
        for ring in prepared.rings {
            for p in ring.dropLast() {
                guard let q = plan.project(SphereMap.unit(p)) else { return nil }
                pts.append(q)
                lo = Point(min(lo.x, q.x), min(lo.y, q.y)); hi = Point(max(hi.x, q.x), max(hi.y, q.y))
            }
        }
        // The root cell reaches well past the polygon, so its sides are never cuts.
        plan.nodes.append(TilePlan.Node(minX: lo.x - 1, minY: lo.y - 1, maxX: hi.x + 1, maxY: hi.y + 1))
        var coords: [Double] = []
        func build(_ k: Int, _ ids: [Int32]) {
            guard ids.count > leafVertices else { return }
            var a = Point(.infinity, .infinity), b = Point(-.infinity, -.infinity)
            for i in ids { let q = pts[Int(i)]; a = Point(min(a.x, q.x), min(a.y, q.y)); b = Point(max(b.x, q.x), max(b.y, q.y)) }
            let axis = (b.x - a.x) >= (b.y - a.y) ? 0 : 1
            coords.removeAll(keepingCapacity: true)
            for i in ids { coords.append(axis == 0 ? pts[Int(i)].x : pts[Int(i)].y) }
            coords.sort()
            let m = coords.count / 2
            // Halfway between the two middle coordinates, so that no vertex lies on the cut.
            let v = coords[m - 1] < coords[m] ? coords[m - 1] + (coords[m] - coords[m - 1]) / 2 : coords[m]
            var left: [Int32] = [], right: [Int32] = []
            left.reserveCapacity(m + 1); right.reserveCapacity(ids.count - m + 1)
            for i in ids { if (axis == 0 ? pts[Int(i)].x : pts[Int(i)].y) < v { left.append(i) } else { right.append(i) } }
            guard !left.isEmpty && !right.isEmpty else { return }
            let n = plan.nodes[k]
            guard axis == 0 ? (v > n.minX && v < n.maxX) : (v > n.minY && v < n.maxY) else { return }
            var l = n, r = n
            if axis == 0 {
                l.maxX = v; r.minX = v
                plan.splitX.insert(v)
                plan.corners[TilePlan.Line(axis: 1, value: n.minY), default: []].append(v)
                plan.corners[TilePlan.Line(axis: 1, value: n.maxY), default: []].append(v)
            } else {
                l.maxY = v; r.minY = v
                plan.splitY.insert(v)
                plan.corners[TilePlan.Line(axis: 0, value: n.minX), default: []].append(v)
                plan.corners[TilePlan.Line(axis: 0, value: n.maxX), default: []].append(v)
            }
            plan.nodes[k].axis = axis; plan.nodes[k].value = v
            plan.nodes[k].left = plan.nodes.count; plan.nodes.append(l)
            plan.nodes[k].right = plan.nodes.count; plan.nodes.append(r)
            let (li, ri) = (plan.nodes[k].left, plan.nodes[k].right)
            build(li, left)
            left = []
            build(ri, right)
        }
        build(0, (0..<Int32(pts.count)).map { $0 })
        guard plan.nodes.count > 1 else { return nil }
        for (k, v) in plan.corners { plan.corners[k] = Array(Set(v)).sorted() }

        // Where the cuts cross ring edges: a vertex on the edge's great circle, exactly on the cut in the plane.
        var base = 0
        for ring in prepared.rings {
            let m = ring.count - 1
            for i in 0..<m {
                crossings(plan: &plan, ring[i], ring[i + 1], pts[base + i], pts[base + (i + 1) % m])
            }
            base += m
        }
        return plan
    }

    /// Records the cuts that edge a→b (planar qa→qb) crosses.
    static func crossings(plan: inout TilePlan, _ a: Point, _ b: Point, _ qa: Point, _ qb: Point) {
        var stack = [0]
        var found: [(axis: Int, value: Double)] = []
        while let k = stack.popLast() {
            let n = plan.nodes[k]
            guard n.axis >= 0 else { continue }
            let ca = n.axis == 0 ? qa.x : qa.y, cb = n.axis == 0 ? qb.x : qb.y
            let v = n.value
            if (ca < v && cb > v) || (ca > v && cb < v) {
                let oa = n.axis == 0 ? qa.y : qa.x, ob = n.axis == 0 ? qb.y : qb.x
                let o = oa + (ob - oa) * ((v - ca) / (cb - ca))
                let (omin, omax) = n.axis == 0 ? (n.minY, n.maxY) : (n.minX, n.maxX)
                if o > omin && o < omax { found.append((n.axis, v)) }
            }
            if min(ca, cb) <= v { stack.append(n.left) }
            if max(ca, cb) >= v { stack.append(n.right) }
        }
        guard !found.isEmpty else { return }
        let ua = SphereMap.unit(a), ub = SphereMap.unit(b)
        let n1 = ua.cross(ub)
        for (axis, v) in found {
            let n2 = axis == 0 ? (plan.up + plan.east * v).cross(plan.north) : (plan.up + plan.north * v).cross(plan.east)
            var p = n1.cross(n2).normalized
            if p.dot(ua + ub) < 0 { p = p * -1 }
            var c = SphereMap.lonLat(p)
            if a.x == b.x {
                c.x = a.x
            } else {
                // Longitude is monotonic along the edge; keep the point on the edge's side of ±180.
                if c.x > 0 && max(a.x, b.x) <= 0 { c.x -= 360 } else if c.x < 0 && min(a.x, b.x) >= 0 { c.x += 360 }
                c.x = min(max(c.x, min(a.x, b.x)), max(a.x, b.x))
            }
            guard c != a && c != b, var q = plan.project(SphereMap.unit(c)) else { continue }
            if axis == 0 { q.x = v } else { q.y = v }
            plan.own[c] = q
            plan.crossings.append((CutPoints.EdgeKey(a, b), c))
            if a.x == b.x && abs(a.x) == 180 {
                // The other half across the antimeridian has the same edge at the opposite sign.
                plan.crossings.append((CutPoints.EdgeKey(Point(-a.x, a.y), Point(-b.x, b.y)), Point(-c.x, c.y)))
            }
        }
    }

    /// The polygon (prepared, with every cut point inserted) triangulated tile by tile: unit
    /// vectors and counter-clockwise triangles. Throws when a tile cannot be triangulated or the
    /// tiles do not add up to the polygon (the caller then meshes it whole).
    static func mesh(_ polygon: Polygon, plan: TilePlan, context: GEOSContext) throws -> (units: [Vec3], triangles: [Int32]) {
        // Each planar point's unit vector, by its id in `planes` (a ring point's: the last
        // occurrence's; a cut point's: unprojected when first met).
        var unitOf = PlanarUnits(capacity: polygon.vertexCount * 5 / 4)
        var planar: [Ring] = []
        for ring in polygon.rings {
            var r: Ring = []
            r.reserveCapacity(ring.count)
            for p in ring {
                let u = SphereMap.unit(p)
                guard let q0 = plan.project(u) else { throw StageError("polygon leaves the gnomonic projection") }
                let q = plan.own[p] ?? q0
                unitOf.set(q, u)
                r.append(q)
            }
            planar.append(r)
        }
        let whole = Polygon(rings: planar)
        var want = abs(RingMath.signedArea(whole.exterior))
        for h in whole.holes { want -= abs(RingMath.signedArea(h)) }

        var pieces: [Polygon] = []
        func walk(_ g: GEOSGeometry, _ k: Int) throws {
            let n = plan.nodes[k]
            guard n.axis >= 0 else { pieces += try g.polygons(); return }
            for c in [n.left, n.right] {
                let r = plan.nodes[c]
                let part = try g.clipped(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: r.maxY)
                if !part.isEmpty { try walk(part, c) }
            }
        }
        try walk(try context.polygon(whole), 0)

        var units: [Vec3] = []
        var triangles: [Int32] = []
        var index = VertexTable(capacity: unitOf.count * 5 / 4)
        units.reserveCapacity(unitOf.count * 5 / 4)
        var got = 0.0
        for piece in pieces {
            let rings = piece.rings.map { densifyCuts($0, plan: plan, unitOf: &unitOf) }
            let m = try CountryMesher.triangulateChecked(Polygon(rings: rings), context: context)
            var map: [Int32] = []
            map.reserveCapacity(m.points.count)
            for q in m.points {
                let i = index.id(q)
                if Int(i) == units.count { units.append(unitOf[q]) }
                map.append(i)
            }
            for t in m.triangles { triangles.append(map[Int(t)]) }
            var a = abs(RingMath.signedArea(rings[0]))
            for h in rings.dropFirst() { a -= abs(RingMath.signedArea(h)) }
            got += a
        }
        guard abs(got - want) <= 1e-9 * max(1, want) else { throw StageError("tiles cover \(got), the polygon \(want)") }
        return (units, triangles)
    }

    /// A tile piece's ring with its cut edges (both ends on one cut line) given the cut's
    /// vertices: the tile corners on that line between the ends, and equal pieces between
    /// consecutive ones, computed from the smaller end so both sides get the same points.
    static func densifyCuts(_ ring: Ring, plan: TilePlan, unitOf: inout PlanarUnits) -> Ring {
        var out: [Point] = []
        out.reserveCapacity(ring.count + 8)
        func add(_ q: Point) {
            if out.last == q { return }
            unitOf.setIfAbsent(q) { plan.unproject(q) }
            out.append(q)
        }
        for i in 0..<(ring.count - 1) {
            let p = ring[i], q = ring[i + 1]
            add(p)
            let axis: Int
            if p.x == q.x && plan.splitX.contains(p.x) { axis = 0 } else if p.y == q.y && plan.splitY.contains(p.y) { axis = 1 } else { continue }
            let v = axis == 0 ? p.x : p.y
            let s0 = axis == 0 ? p.y : p.x, s1 = axis == 0 ? q.y : q.x
            let point = { (s: Double) in axis == 0 ? Point(v, s) : Point(s, v) }
            var stops = [s0]
            let lo = min(s0, s1), hi = max(s0, s1)
            let cs = (plan.corners[TilePlan.Line(axis: axis, value: v)] ?? []).filter { $0 > lo && $0 < hi }
            stops += s0 < s1 ? cs : cs.reversed()
            stops.append(s1)
            for j in 0..<(stops.count - 1) {
                let u = stops[j], w = stops[j + 1]
                let a = min(u, w), b = max(u, w)
                let n = Int(((b - a) / plan.step).rounded(.up))
                if n > 1 {
                    let inner = (1..<n).map { a + (b - a) * (Double($0) / Double(n)) }
                    for s in (u < w ? inner : inner.reversed()) { add(point(s)) }
                }
                if j + 1 < stops.count - 1 { add(point(w)) }
            }
        }
        if let first = out.first, out.last != first { out.append(first) }
        return out
    }
}

/// Points where tile cuts cross prepared ring edges, for every polygon that has the edge.
public struct CutPoints: Sendable {
    struct EdgeKey: Hashable, Sendable {
        var ax: Double, ay: Double, bx: Double, by: Double
        init(_ a: Point, _ b: Point) {
            if (a.x, a.y) < (b.x, b.y) { ax = a.x; ay = a.y; bx = b.x; by = b.y } else { ax = b.x; ay = b.y; bx = a.x; by = a.y }
        }
    }
    /// The edges that have cut points (`PointPairTable.undirected` keys): a table rather than
    /// a Dictionary, for the lookup of every ring edge (`insert`), where almost every edge misses.
    var edges = PointPairTable(capacity: 0)
    /// Per edge id, its cut points ordered from the edge's lexicographically smaller end.
    var pointsByEdge: [[Point]] = []
    public init() {}
    public var isEmpty: Bool { pointsByEdge.isEmpty }
    public var count: Int { pointsByEdge.reduce(0) { $0 + $1.count } }

    public init(_ plans: [TilePlan?]) {
        var all: [EdgeKey: [Point]] = [:]
        for case let p? in plans { for (k, c) in p.crossings { all[k, default: []].append(c) } }
        for (k, pts) in all {
            let a = SphereMap.unit(Point(k.ax, k.ay))
            let d = { (p: Point) -> Double in let v = SphereMap.unit(p) - a; return v.dot(v) }
            // Sorted along the edge (distance from its smaller end; ties by coordinates), duplicates dropped.
            var sorted = Array(Set(pts)).sorted { (d($0), $0.x, $0.y) < (d($1), $1.x, $1.y) }
            sorted.removeAll { $0 == Point(k.ax, k.ay) || $0 == Point(k.bx, k.by) }
            all[k] = sorted
        }
        edges = PointPairTable(capacity: all.count)
        for (k, v) in all {
            let key = PointPairTable.undirected(Point(k.ax, k.ay), Point(k.bx, k.by))
            _ = edges.insert(key.0, key.1)
            pointsByEdge.append(v)
        }
    }

    /// The ring with the cut points of its edges inserted.
    public func insert(into ring: Ring) -> Ring {
        guard !isEmpty, ring.count > 1 else { return ring }
        var out: [Point] = []
        var changed = false
        for i in 0..<(ring.count - 1) {
            let a = ring[i], b = ring[i + 1]
            out.append(a)
            let key = PointPairTable.undirected(a, b)
            if let id = edges.find(key.0, key.1) {
                let pts = pointsByEdge[Int(id)]
                if !changed { out.reserveCapacity(ring.count + 16); changed = true }
                if (a.x, a.y) < (b.x, b.y) { out += pts } else { out += pts.reversed() }
            }
        }
        guard changed else { return ring }
        out.append(ring[ring.count - 1])
        return out
    }

    public func insert(into polygon: Polygon) -> Polygon {
        guard !isEmpty else { return polygon }
        return Polygon(rings: polygon.rings.map { insert(into: $0) })
    }
}

import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ

/// A planar coverage (countries that meet edge to edge) as a graph of arcs: every ring is a
/// cycle of arcs, and a border two countries share is ONE arc used by both (in opposite
/// directions). Simplifying each arc once and rebuilding the rings from the arcs keeps shared
/// borders identical on both sides.
///
/// Vertices are matched exactly (Natural Earth's neighbours share their border vertices bit
/// for bit). A vertex is a junction where the rings through it do not all continue through
/// the same two neighbours (the set of adjacent rings changes there), or where the caller
/// pins it (points on the ±180° meridian). A ring with no junction is cut at its smallest
/// vertex (x, then y), so two identical rings (Lesotho and the hole it fills) give one arc.
struct ArcGraph {
    /// One use of an arc by a ring.
    struct ArcUse: Hashable {
        var arc: Int32
        var reversed: Bool
    }

    struct Ring {
        var country: Int
        var polygon: Int
        /// 0 for the exterior ring, 1… for holes.
        var index: Int
        var arcs: [ArcUse]
    }

    /// Vertex id → position (lon/lat).
    var points: [Point] = []
    /// Vertex ids along each arc; a closed arc (a ring without junctions) starts and ends on the same id.
    var arcs: [[Int32]] = []
    /// How many rings use each arc now (2 for a shared border, 1 for a coast, 0 once unused).
    var uses: [Int32] = []
    var rings: [Ring] = []
    /// Per country, per polygon: ring indices (exterior first).
    var polygons: [[[Int]]] = []
    var junctionCount = 0

    /// `countries[c]` are the polygons of country c (rings closed, any winding).
    init(countries: [[Polygon]], pinned: (Point) -> Bool) {
        // 1. Vertex ids, and every ring as ids without the closing repeat or repeated points.
        let total = countries.reduce(0) { $0 + $1.reduce(0) { $0 + $1.vertexCount } }
        var table = VertexTable(capacity: total)
        var ringIDs: [[Int32]] = []
        for (c, polys) in countries.enumerated() {
            var cp: [[Int]] = []
            for (p, poly) in polys.enumerated() {
                var rp: [Int] = []
                for (r, ring) in poly.rings.enumerated() {
                    var out: [Int32] = []
                    out.reserveCapacity(ring.count)
                    for pt in ring.dropLast() {
                        let id = table.id(pt)
                        if out.last != id { out.append(id) }
                    }
                    while out.count > 1 && out.first == out.last { out.removeLast() }
                    rp.append(rings.count)
                    rings.append(Ring(country: c, polygon: p, index: r, arcs: []))
                    ringIDs.append(out)
                }
                cp.append(rp)
            }
            polygons.append(cp)
        }

        points = table.points

        // 2. Junctions: a vertex met twice with different neighbour pairs, or pinned.
        let n = points.count
        var prev = [Int32](repeating: -1, count: n), next = [Int32](repeating: -1, count: n)
        var junction = [Bool](repeating: false, count: n)
        for i in 0..<n where pinned(points[i]) { junction[i] = true }
        for r in ringIDs where r.count >= 3 {
            let m = r.count
            for i in 0..<m {
                let v = Int(r[i]), p = r[(i + m - 1) % m], q = r[(i + 1) % m]
                if prev[v] < 0 { prev[v] = p; next[v] = q }
                else if !((prev[v] == p && next[v] == q) || (prev[v] == q && next[v] == p)) { junction[v] = true }
            }
        }
        junctionCount = junction.reduce(0) { $0 + ($1 ? 1 : 0) }

        // 3. Cut every ring at its junctions; an arc is known by its first directed segment.
        var byFirstSegment: [Int64: ArcUse] = [:]
        byFirstSegment.reserveCapacity(total / 4)
        @inline(__always) func key(_ a: Int32, _ b: Int32) -> Int64 { Int64(a) << 32 | Int64(UInt32(bitPattern: b)) }
        for (ri, r) in ringIDs.enumerated() {
            let m = r.count
            guard m >= 3 else { continue }
            var start = -1
            for i in 0..<m where junction[Int(r[i])] { start = i; break }
            if start < 0 {
                // No junction: start at the smallest vertex so identical rings cut alike.
                start = 0
                for i in 1..<m {
                    let a = points[Int(r[i])], b = points[Int(r[start])]
                    if a.x < b.x || (a.x == b.x && a.y < b.y) { start = i }
                }
            }
            var uses: [ArcUse] = []
            var piece: [Int32] = [r[start]]
            for step in 1...m {
                let v = r[(start + step) % m]
                piece.append(v)
                if step == m || junction[Int(v)] {
                    if let found = byFirstSegment[key(piece[0], piece[1])] {
                        uses.append(found)
                    } else {
                        let arc = Int32(arcs.count)
                        arcs.append(piece)
                        byFirstSegment[key(piece[0], piece[1])] = ArcUse(arc: arc, reversed: false)
                        byFirstSegment[key(piece[piece.count - 1], piece[piece.count - 2])] = ArcUse(arc: arc, reversed: true)
                        uses.append(ArcUse(arc: arc, reversed: false))
                    }
                    piece = [v]
                }
            }
            rings[ri].arcs = uses
        }
        self.uses = [Int32](repeating: 0, count: arcs.count)
        for r in rings { for u in r.arcs { self.uses[Int(u.arc)] += 1 } }
    }

    /// A ring is free when no other ring shares any of its arcs (an island coast, an empty hole).
    func isFree(_ ring: Int) -> Bool { rings[ring].arcs.allSatisfy { uses[Int($0.arc)] <= 1 } }

    /// Removes a ring from the coverage (its arcs lose one use).
    mutating func release(_ ring: Int) {
        for u in rings[ring].arcs { uses[Int(u.arc)] -= 1 }
        rings[ring].arcs = []
    }

    /// The ring rebuilt from arcs, keeping for each arc the vertex positions `kept` lists
    /// (indices into the arc); closed with the first point repeated.
    func ringPoints(_ ring: Int, kept: [[Int32]]) -> [Point] {
        var out: [Point] = []
        for u in rings[ring].arcs {
            let idx = kept[Int(u.arc)]
            let arc = arcs[Int(u.arc)]
            if u.reversed {
                for k in stride(from: idx.count - 1, to: 0, by: -1) { out.append(points[Int(arc[Int(idx[k])])]) }
            } else {
                for k in 0..<(idx.count - 1) { out.append(points[Int(arc[Int(idx[k])])]) }
            }
        }
        if let f = out.first { out.append(f) }
        return out
    }

    /// The original ring (every vertex) rebuilt from its arcs.
    func originalRing(_ ring: Int) -> [Point] {
        var out: [Point] = []
        for u in rings[ring].arcs {
            let arc = arcs[Int(u.arc)]
            if u.reversed { for k in stride(from: arc.count - 1, to: 0, by: -1) { out.append(points[Int(arc[k])]) } }
            else { for k in 0..<(arc.count - 1) { out.append(points[Int(arc[k])]) } }
        }
        if let f = out.first { out.append(f) }
        return out
    }
}

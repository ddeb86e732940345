import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ
import Parallelism

/// Simplifies the arcs of an ArcGraph once each, as a coverage.
///
/// Error is measured on the Earth: Douglas–Peucker with the ground distance (km) of each
/// vertex to the lon/lat segment that would replace it (EarthDistance). Every vertex gets a DP importance
/// (the largest tolerance at which DP would still keep it, made monotone down the DP
/// hierarchy), so one tolerance ε selects "importance > ε" on every arc, and ε is found by
/// bisection to hit the vertex budget (a shared arc's vertex costs two positions, one in each
/// country). Arc ends (junctions, ±180° points) never move.
///
/// Topology is then enforced: no two simplified segments may cross or overlap (grid index
/// over all segments), no kept vertex of any arc may end up on the other side of a
/// simplified segment (the region between the segment and the chain it replaces must hold
/// no other vertex), and every ring keeps at least three distinct points. Where a check fails
/// the offending segment gets back its most important removed vertex (which becomes fixed),
/// and the budget is re-solved with the fixed vertices counted, until a pass finds nothing.
/// Should that not settle within the round limit, the arcs still in conflict go back to full
/// detail and the checks run again (or the run throws): nothing leaves unchecked.
///
/// `.keepAll` (or a budget at or above the input's size) keeps every vertex, collinear ones
/// (importance 0) included: the selection is then `importance > keepAll` (−1).
struct ArcSimplifier {
    /// The selection threshold that keeps every vertex (importances are ≥ 0).
    static let keepAll = -1.0
    let graph: ArcGraph
    /// cos(latitude) of the graph's vertices.
    let cosLat: [Double]
    var importance: [[Double]] = []
    var forced: [[Bool]] = []
    var keep: [[Bool]] = []
    /// The tolerance (km) of the last selection (`keepAll` when every vertex is kept).
    var epsilon: Double = 0
    var rounds = 0
    /// Arcs put back to full detail because the topology rounds did not settle within the limit.
    var restoredAtRoundLimit: [Int] = []
    /// Threads for the importances and the topology checks (the fixes are applied on one, in order).
    let threads: Int

    init(graph: ArcGraph, threads: Int = 1) {
        self.graph = graph
        self.threads = max(1, threads)
        let cosLat = graph.points.map(EarthDistance.cosLat)
        self.cosLat = cosLat
        forced = graph.arcs.map { [Bool](repeating: false, count: $0.count) }
        keep = forced
        let f = forced
        importance = parallelMap(graph.arcs.count, threads: threads) { a in
            graph.uses[a] > 0 ? Self.importance(graph.arcs[a], forced: f[a], points: graph.points, cosLat: cosLat)
                              : [Double](repeating: 0, count: graph.arcs[a].count)
        }
    }

    /// DP importance of every vertex of arc `a`; ends and forced vertices are +∞ and split the arc.
    mutating func computeImportance(_ a: Int) {
        importance[a] = Self.importance(graph.arcs[a], forced: forced[a], points: graph.points, cosLat: cosLat)
    }

    static func importance(_ ids: [Int32], forced f: [Bool], points pts: [Point], cosLat: [Double]) -> [Double] {
        let m = ids.count
        var imp = [Double](repeating: 0, count: m)
        imp[0] = .infinity; imp[m - 1] = .infinity
        var stack: [(Int, Int, Double)] = []
        var start = 0
        for k in 1..<m where k == m - 1 || f[k] {
            imp[k] = .infinity
            stack.append((start, k, .infinity))
            start = k
        }
        cosLat.withUnsafeBufferPointer { cl in
            while let (i, j, cap) = stack.popLast() {
                if j - i < 2 { continue }
                let pa = pts[Int(ids[i])], pb = pts[Int(ids[j])]
                var best = -1.0, bk = i + 1
                for k in (i + 1)..<j {
                    let v = Int(ids[k])
                    let d = EarthDistance.toSegment(pts[v], cosLat: cl[v], pa, pb)
                    if d > best { best = d; bk = k }
                }
                let v = min(best, cap)
                imp[bk] = v
                stack.append((i, bk, v))
                stack.append((bk, j, v))
            }
        }
        return imp
    }
}

extension ArcSimplifier {
    /// Selects `importance > eps` on every arc.
    mutating func select(_ eps: Double) {
        epsilon = eps
        for a in graph.arcs.indices where graph.uses[a] > 0 {
            keep[a] = importance[a].map { $0 > eps }
        }
    }

    /// The smallest tolerance whose output has at most `budget` positions: a coarse bisection
    /// over a flat list of importances and costs, then an exact walk down the few values left
    /// in the final interval (ties stay together: a tolerance cannot split equal importances).
    /// `keepAll` when the whole input fits.
    func tolerance(forBudget budget: Int) -> Double {
        var fixed = 0
        for r in graph.rings where !r.arcs.isEmpty { fixed += 1 }
        var values: [Double] = [], costs: [Int] = []
        values.reserveCapacity(graph.points.count); costs.reserveCapacity(graph.points.count)
        var top = 0.0
        for a in graph.arcs.indices where graph.uses[a] > 0 {
            let u = Int(graph.uses[a])
            var kept = 0
            for v in importance[a] {
                if v == .infinity { kept += 1 } else { values.append(v); costs.append(u); top = max(top, v) }
            }
            fixed += u * (kept - 1)
        }
        // The positions kept at `eps`: the values in `threads` contiguous slices, one a thread.
        let slices = threads, total = values.count
        func count(_ eps: Double) -> Int {
            let parts: [Int] = parallelMap(slices, threads: slices) { [values, costs] k in
                values.withUnsafeBufferPointer { vb in
                    costs.withUnsafeBufferPointer { cb in
                        // Without a branch (the comparison's outcome is a coin toss, and this
                        // pass runs some 80 times): a mask of the comparison selects the cost.
                        var n = 0
                        for i in (total * k / slices)..<(total * (k + 1) / slices) {
                            n &+= cb[i] & (0 &- (vb[i] > eps ? 1 : 0))
                        }
                        return n
                    }
                }
            }
            return parts.reduce(fixed, +)
        }
        if count(Self.keepAll) <= budget { return Self.keepAll }
        if count(0) <= budget { return 0 }
        // count(lo) > budget >= count(hi)
        var lo = 0.0, hi = top
        for _ in 0..<24 {
            let mid = (lo + hi) / 2
            if count(mid) <= budget { hi = mid } else { lo = mid }
        }
        var between: [(Double, Int)] = []
        for i in values.indices where values[i] > lo && values[i] <= hi { between.append((values[i], costs[i])) }
        between.sort { $0.0 > $1.0 }
        var n = count(hi)
        var eps = hi
        var k = 0
        while k < between.count {
            var j = k, add = 0
            while j < between.count && between[j].0 == between[k].0 { add += between[j].1; j += 1 }
            if n + add > budget { break }
            n += add
            eps = j < between.count ? between[j].0 : lo
            k = j
        }
        return eps
    }

    /// Puts these arcs back to full detail: every vertex fixed.
    mutating func restore(_ arcs: Set<Int>) {
        for a in arcs.sorted() {
            forced[a] = [Bool](repeating: true, count: forced[a].count)
            computeImportance(a)
        }
    }

    /// Kept vertex indices of arc `a`.
    func keptIndices(_ a: Int) -> [Int32] {
        var out: [Int32] = []
        for (i, k) in keep[a].enumerated() where k { out.append(Int32(i)) }
        return out
    }

    /// Forces back the most important removed vertex between kept indices i0 and i1 of arc a.
    /// Returns false if there is none (the segment is an original one).
    mutating func split(_ a: Int, _ i0: Int, _ i1: Int) -> Bool {
        guard i1 - i0 >= 2 else { return false }
        var best = i0 + 1
        for k in (i0 + 1)..<i1 where importance[a][k] > importance[a][best] { best = k }
        forced[a][best] = true
        keep[a][best] = true
        return true
    }

    /// Simplification with the topology checks, to `mode` (a vertex budget counts the arcs'
    /// positions only; a tolerance is km on the ground). When `maxRounds` rounds do not
    /// settle, the arcs still in conflict are restored to full detail at the last tolerance and
    /// checked again, pass after pass (a restored arc cannot be refined further, so each pass
    /// restores others); should a conflict remain between arcs already at full detail (input
    /// that crosses itself), it throws a StageError naming the arcs and the countries using them. On return the selection has
    /// passed every check. `countryName` names a graph country in messages.
    mutating func run(_ mode: WorldStage.Simplification, maxRounds: Int = 40, log: StageLog? = nil,
                      countryName: (Int) -> String = { "country #\($0)" }) throws {
        var dirty = Set<Int>()
        var settled = false
        for round in 1...maxRounds {
            rounds = round
            let t0 = log?.elapsed ?? 0
            for a in dirty.sorted() { computeImportance(a) }
            dirty.removeAll()
            let eps: Double
            switch mode {
            case .keepAll: eps = Self.keepAll
            case .toleranceKm(let t): eps = t
            case .vertexBudget(let n): eps = tolerance(forBudget: n)
            }
            select(eps)
            let t1 = log?.elapsed ?? 0
            let rings = fixRings()
            let crossings = fixCrossings()
            let t2 = log?.elapsed ?? 0
            let sides = fixSidedness()
            let t3 = log?.elapsed ?? 0
            let changed = rings.union(crossings).union(sides)
            log?.info(String(format: "round %d: tolerance %.4f km (%.3fs), arcs refined: %d for ring size, %d for crossings (%.3fs), %d for sidedness (%.3fs)",
                             round, max(0, eps), t1 - t0, rings.count, crossings.count, t2 - t1, sides.count, t3 - t2))
            if changed.isEmpty { settled = true; break }
            dirty = changed
        }
        if settled { return }
        // The round limit: the arcs refined in the last round go back to full detail, at the same
        // tolerance, and the checks run again. A restored arc has no segment left to refine, so each
        // pass restores other arcs and this ends; should a pass find only restored arcs, it throws.
        var conflicted = dirty
        var restored = Set<Int>()
        var pass = 0
        while !conflicted.isEmpty {
            guard !conflicted.isSubset(of: restored) else {
                throw StageError("simplification: arcs still in conflict at full detail after \(maxRounds) rounds: \(describe(conflicted, countryName))")
            }
            pass += 1
            log?.info("warning: topology not settled after \(maxRounds) rounds; restoring \(conflicted.count) arcs to full detail (\(describe(conflicted, countryName))), check pass \(pass)")
            restored.formUnion(conflicted)
            restoredAtRoundLimit += conflicted.sorted()
            restore(conflicted)
            select(epsilon)
            conflicted = fixRings().union(fixCrossings()).union(fixSidedness())
        }
    }

    /// "arc 12 (FR, ES), arc 40 (IT)": arcs with the countries whose rings use them (first 20 arcs).
    func describe(_ arcs: Set<Int>, _ countryName: (Int) -> String) -> String {
        var users: [Int: Set<Int>] = [:]
        for r in graph.rings { for u in r.arcs where arcs.contains(Int(u.arc)) { users[Int(u.arc), default: []].insert(r.country) } }
        let sorted = arcs.sorted()
        let text = sorted.prefix(20).map { a in "arc \(a) (\((users[a] ?? []).sorted().map(countryName).joined(separator: ", ")))" }.joined(separator: ", ")
        return sorted.count > 20 ? text + ", … (\(sorted.count) arcs)" : text
    }

    /// Every ring keeps at least three distinct points.
    mutating func fixRings() -> Set<Int> {
        var changed = Set<Int>()
        for r in graph.rings where !r.arcs.isEmpty {
            while true {
                var distinct = 0
                for u in r.arcs { distinct += keep[Int(u.arc)].reduce(0) { $0 + ($1 ? 1 : 0) } - 1 }
                if distinct >= 3 { break }
                var bestArc = -1, bestK = -1, bestV = -Double.infinity
                for u in r.arcs {
                    let a = Int(u.arc)
                    for k in importance[a].indices where !keep[a][k] && importance[a][k] > bestV {
                        bestV = importance[a][k]; bestArc = a; bestK = k
                    }
                }
                if bestArc < 0 { break }
                forced[bestArc][bestK] = true; keep[bestArc][bestK] = true
                changed.insert(bestArc)
            }
        }
        return changed
    }

    struct Segment {
        var arc: Int32, i0: Int32, i1: Int32
        var a: Int32, b: Int32  // vertex ids
    }

    func segments() -> [Segment] {
        var out: [Segment] = []
        for a in graph.arcs.indices where graph.uses[a] > 0 {
            let ids = graph.arcs[a]
            var prev = 0
            for k in 1..<ids.count where keep[a][k] {
                out.append(Segment(arc: Int32(a), i0: Int32(prev), i1: Int32(k), a: ids[prev], b: ids[k]))
                prev = k
            }
        }
        return out
    }

    static let cellSize = 0.25

    /// No two simplified segments may cross, touch away from a shared end, or overlap.
    mutating func fixCrossings() -> Set<Int> {
        let segs = segments()
        let pts = graph.points
        let boxes = segs.map { s -> BoundingBox in
            let p = pts[Int(s.a)], q = pts[Int(s.b)]
            return BoundingBox(minX: min(p.x, q.x), minY: min(p.y, q.y), maxX: max(p.x, q.x), maxY: max(p.y, q.y))
        }
        var grid = GridIndex(cellSize: Self.cellSize)
        grid.build(boxes: boxes)
        // The cells in contiguous slices on the threads; the conflicts come back in cell order.
        let index = grid, slices = Self.slices(threads), cells = grid.cellCount
        let found: [[(Int, Int)]] = parallelMap(slices, threads: threads) { k in
            var conflicts: [(Int, Int)] = []
            index.forEachCell(in: (cells * k / slices)..<(cells * (k + 1) / slices)) { key, group in
                let n = group.count
                let g = Array(group)
                for x in 0..<(n - 1) {
                    let i = Int(g[x]), bi = boxes[i]
                    for y in (x + 1)..<n {
                        let j = Int(g[y]), bj = boxes[j]
                        guard bi.intersects(bj) else { continue }
                        // Test each pair once: in the cell holding the corner of the boxes' overlap.
                        let ox = max(bi.minX, bj.minX), oy = max(bi.minY, bj.minY)
                        guard index.cell(index.cellX(ox), index.cellY(oy)) == key else { continue }
                        if Self.conflict(segs[i], segs[j], pts) { conflicts.append((i, j)) }
                    }
                }
            }
            return conflicts
        }
        var changed = Set<Int>()
        let conflicts = found.joined()
        for (i, j) in conflicts {
            for s in [segs[i], segs[j]] where split(Int(s.arc), Int(s.i0), Int(s.i1)) { changed.insert(Int(s.arc)) }
        }
        return changed
    }

    /// Slices of a check's work: several per thread, so that dense regions even out.
    static func slices(_ threads: Int) -> Int { threads == 1 ? 1 : 8 * threads }

    @inline(__always) static func orient(_ a: Point, _ b: Point, _ c: Point) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// `c` (collinear with a–b) lies within the segment's extent.
    @inline(__always) static func within(_ a: Point, _ b: Point, _ c: Point) -> Bool {
        min(a.x, b.x) <= c.x && c.x <= max(a.x, b.x) && min(a.y, b.y) <= c.y && c.y <= max(a.y, b.y)
    }

    static func conflict(_ s: Segment, _ t: Segment, _ pts: [Point]) -> Bool {
        let sharedA = s.a == t.a || s.a == t.b, sharedB = s.b == t.a || s.b == t.b
        if sharedA && sharedB { return !(s.arc == t.arc && s.i0 == t.i0) }  // the same edge twice
        let a = pts[Int(s.a)], b = pts[Int(s.b)], c = pts[Int(t.a)], d = pts[Int(t.b)]
        if sharedA || sharedB {
            // Touching at a common end is fine; running back along each other is not.
            let sOther = sharedA ? b : a
            let tOther = (t.a == (sharedA ? s.a : s.b)) ? d : c
            if orient(a, b, tOther) != 0 { return false }
            return within(a, b, tOther) || within(c, d, sOther)
        }
        let o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b)
        if ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)) { return true }
        if o1 == 0 && within(a, b, c) { return true }
        if o2 == 0 && within(a, b, d) { return true }
        if o3 == 0 && within(c, d, a) { return true }
        if o4 == 0 && within(c, d, b) { return true }
        return false
    }

    /// No kept vertex may lie in the region between a simplified segment and the chain of
    /// original vertices it replaces (it would change sides: an island swallowed by a coast,
    /// a neighbour's corner cut off).
    mutating func fixSidedness() -> Set<Int> {
        let pts = graph.points
        // Kept vertices, once each.
        var seen = [Bool](repeating: false, count: pts.count)
        var kept: [Int32] = []
        for a in graph.arcs.indices where graph.uses[a] > 0 {
            for (k, v) in graph.arcs[a].enumerated() where keep[a][k] && !seen[Int(v)] { seen[Int(v)] = true; kept.append(v) }
        }
        var grid = GridIndex(cellSize: Self.cellSize)
        grid.build(boxes: kept.map { let p = pts[Int($0)]; return BoundingBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y) })
        // The segments in contiguous slices on the threads; the hits come back in segment order.
        let segs = segments().filter { $0.i1 - $0.i0 >= 2 }
        let index = grid, arcs = graph.arcs, slices = Self.slices(threads)
        let hits: [[Segment]] = parallelMap(slices, threads: threads) { [kept] k in
            var out: [Segment] = []
            for s in segs[(segs.count * k / slices)..<(segs.count * (k + 1) / slices)] {
                let ids = arcs[Int(s.arc)]
                var box = BoundingBox.empty
                for j in Int(s.i0)...Int(s.i1) { box.extend(pts[Int(ids[j])]) }
                let x0 = index.cellX(box.minX), x1 = index.cellX(box.maxX), y0 = index.cellY(box.minY), y1 = index.cellY(box.maxY)
                outer: for cy in y0...y1 {
                    for cx in x0...x1 {
                        for slot in index.range(of: index.cell(cx, cy)) {
                            let v = kept[Int(index.items[slot])]
                            if v == s.a || v == s.b { continue }
                            let p = pts[Int(v)]
                            guard p.x >= box.minX, p.x <= box.maxX, p.y >= box.minY, p.y <= box.maxY else { continue }
                            if Self.insideChain(p, ids, Int(s.i0), Int(s.i1), pts) { out.append(s); break outer }
                        }
                    }
                }
            }
            return out
        }
        var changed = Set<Int>()
        for s in hits.joined() where split(Int(s.arc), Int(s.i0), Int(s.i1)) { changed.insert(Int(s.arc)) }
        return changed
    }

    /// Even-odd test of `p` in the closed polygon chain[i0…i1] + back to chain[i0].
    static func insideChain(_ p: Point, _ ids: [Int32], _ i0: Int, _ i1: Int, _ pts: [Point]) -> Bool {
        var inside = false
        var j = i1
        for i in i0...i1 {
            let a = pts[Int(ids[i])], b = pts[Int(ids[j])]
            if (a.y > p.y) != (b.y > p.y) {
                let x = (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x
                if p.x < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}

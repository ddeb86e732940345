import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ

/// Point countries that sit between neighbours or on a coast (Andorra between France and
/// Spain, Liechtenstein between Switzerland and Austria, Monaco in a notch of France's coast)
/// would leave a hole in the land once their rings leave the coverage. Each of their polygon
/// parts that shares a border with a drawn country is given to the drawn country it shares the
/// longest border with (ground length of the shared arcs), BEFORE the arcs are simplified: the
/// part and the neighbour's touching polygons are merged (GEOS coverage union: the shared
/// border's segments cancel, every other vertex stays exactly where it was), so the point
/// country's other borders (Andorra–Spain) become borders of the neighbour (France–Spain), are
/// simplified once and stay shared point for point. Parts that touch no drawn country, directly
/// or through parts already given away (islands: Malta, the Maldives), are dropped as before.
/// Enclaves (Vatican City, San Marino) are the simplest case: their one neighbour takes them.
public enum PointGaps {
    /// One point country's parts given to one neighbour (reported as is).
    public struct Fill: Sendable, Equatable {
        /// Country ids: the point country and the receiver.
        public var from: String
        public var to: String
        public var parts: Int
        /// Geodesic area of the parts given (km²).
        public var areaKm2: Double
        /// Ground length (km) of the border the given parts shared with the receiver in the input.
        public var borderKm: Double
        /// Ground length (km) of all the borders the given parts shared with drawn countries or with parts given before them.
        public var totalBorderKm: Double
    }

    struct Plan {
        /// Per country, per polygon: the receiving country, for parts of point countries that are given away.
        var receiver: [[Int?]]
        /// By point country, then receiver (id order).
        var fills: [Fill]
    }

    /// Decides who receives which part. `graph` is the arc graph of the whole coverage (no ring
    /// released), `isPoint` the point decision, `ringAreaKm2` the graph rings' areas, `ids` the
    /// graph countries' ids.
    /// Rounds: first the parts touching a drawn country; then parts touching only parts given
    /// in an earlier round (a point country wrapped in another), until nothing changes.
    static func plan(graph: ArcGraph, isPoint: [Bool], ringAreaKm2: [Double], ids: [String]) -> Plan {
        // The (at most two) rings using each arc.
        var userA = [Int32](repeating: -1, count: graph.arcs.count), userB = userA
        for (r, ring) in graph.rings.enumerated() {
            for u in ring.arcs {
                let a = Int(u.arc)
                if userA[a] < 0 { userA[a] = Int32(r) } else if userB[a] < 0 { userB[a] = Int32(r) }
            }
        }
        var arcKm = [Double](repeating: -1, count: graph.arcs.count)
        func length(_ a: Int) -> Double {
            if arcKm[a] < 0 {
                let ids = graph.arcs[a]
                var s = 0.0
                for k in 1..<ids.count { s += Geodesic.wgs84.distance(graph.points[Int(ids[k - 1])], graph.points[Int(ids[k])]) }
                arcKm[a] = s / 1000
            }
            return arcKm[a]
        }

        var receiver = graph.polygons.map { [Int?](repeating: nil, count: $0.count) }
        var candidates: [(c: Int, p: Int)] = []
        for c in graph.polygons.indices where isPoint[c] {
            for p in graph.polygons[c].indices { candidates.append((c, p)) }
        }
        var border: [Int: (to: Double, total: Double)] = [:]  // key c * 65536 + p
        while true {
            var decided: [(c: Int, p: Int, to: Int, km: Double, total: Double)] = []
            for (c, p) in candidates where receiver[c][p] == nil {
                var byOwner: [Int: Double] = [:]
                for r in graph.polygons[c][p] {
                    for u in graph.rings[r].arcs {
                        let a = Int(u.arc)
                        let other = Int(userA[a]) == r ? Int(userB[a]) : Int(userA[a])
                        guard other >= 0 else { continue }
                        let oc = graph.rings[other].country, op = graph.rings[other].polygon
                        if oc == c && op == p { continue }
                        guard let owner = isPoint[oc] ? receiver[oc][op] : oc, owner != c else { continue }
                        byOwner[owner, default: 0] += length(a)
                    }
                }
                // Longest shared border; ties go to the first country in id order.
                guard let best = byOwner.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { continue }
                decided.append((c, p, best.key, best.value, byOwner.keys.sorted().reduce(0) { $0 + byOwner[$1]! }))  // fixed order: bit-stable
            }
            if decided.isEmpty { break }
            for d in decided {
                receiver[d.c][d.p] = d.to
                border[d.c * 65_536 + d.p] = (d.km, d.total)
            }
        }

        var fills: [Fill] = []
        for c in graph.polygons.indices where isPoint[c] {
            var byTo: [Int: Fill] = [:]
            for (p, rs) in graph.polygons[c].enumerated() {
                guard let to = receiver[c][p] else { continue }
                let area = ringAreaKm2[rs[0]] - rs.dropFirst().reduce(0) { $0 + ringAreaKm2[$1] }
                let b = border[c * 65_536 + p]!
                var f = byTo[to] ?? Fill(from: ids[c], to: ids[to], parts: 0, areaKm2: 0, borderKm: 0, totalBorderKm: 0)
                f.parts += 1; f.areaKm2 += area; f.borderKm += b.to; f.totalBorderKm += b.total
                byTo[to] = f
            }
            fills += byTo.keys.sorted().map { byTo[$0]! }
        }
        return Plan(receiver: receiver, fills: fills)
    }

    /// The countries' polygons with the plan applied: each receiver's polygons that touch a
    /// given part (directly or through another given part) are merged with the parts (GEOS
    /// coverage union, exact: vertices are only removed along the cancelled borders), the given
    /// parts leave their point countries. Untouched polygons are returned as they were, and
    /// `origin[c][p]` is the index a returned polygon had in `countries[c]` (nil for merged ones).
    /// `refs` name the countries of `file` in errors.
    static func apply(_ plan: Plan, graph: ArcGraph, countries: [[Polygon]], refs: [FeatureRef], file: String,
                      ctx: GEOSContext) throws -> (countries: [[Polygon]], origin: [[Int?]]) {
        var out = countries
        var origin: [[Int?]] = countries.map { Array($0.indices) }
        let receivers = Set(plan.receiver.joined().compactMap { $0 }).sorted()
        guard !receivers.isEmpty else { return (out, origin) }
        var ringsOfArc: [Int32: [Int]] = [:]
        for (r, ring) in graph.rings.enumerated() { for u in ring.arcs { ringsOfArc[u.arc, default: []].append(r) } }
        func polygonFromGraph(_ c: Int, _ p: Int) -> Polygon {
            Polygon(rings: graph.polygons[c][p].map { graph.originalRing($0) }.filter { $0.count >= 4 })
        }
        for t in receivers {
            // The given parts, and the receiver's polygons reachable from them through shared arcs.
            var parts: [(c: Int, p: Int)] = []
            for c in plan.receiver.indices {
                for p in plan.receiver[c].indices where plan.receiver[c][p] == t { parts.append((c, p)) }
            }
            var own = Set<Int>()
            for (c, p) in parts {
                for r in graph.polygons[c][p] {
                    for u in graph.rings[r].arcs {
                        for o in ringsOfArc[u.arc] ?? [] where graph.rings[o].country == t { own.insert(graph.rings[o].polygon) }
                    }
                }
            }
            let ownSorted = own.sorted()
            let merged: [Polygon]
            do {
                let inputs = try (ownSorted.map { polygonFromGraph(t, $0) } + parts.map { polygonFromGraph($0.c, $0.p) }).map { try ctx.polygon($0) }
                merged = try ctx.coverageUnion(inputs).polygons()
            } catch {
                let names = parts.map { "\(refs[$0.c].id ?? "?") part #\($0.p)" }.joined(separator: ", ")
                throw InputError(file: file, feature: refs[t],
                                 "filling point-country gaps: merging \(names) into it failed (their shared border must match vertex for vertex; --no-fill-point-gaps skips this): \(error)")
            }
            let untouched = out[t].indices.filter { !own.contains($0) }
            out[t] = untouched.map { out[t][$0] } + merged
            origin[t] = untouched.map { Optional($0) } + merged.map { _ in nil }
        }
        for c in plan.receiver.indices {
            let given = plan.receiver[c].indices.filter { plan.receiver[c][$0] != nil }
            if !given.isEmpty {
                let kept = out[c].indices.filter { !given.contains($0) }
                out[c] = kept.map { out[c][$0] }
                origin[c] = kept.map { Optional($0) }
            }
        }
        return (out, origin)
    }
}

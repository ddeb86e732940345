import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ

/// Which polygon parts and holes survive at this detail, and which countries are too small
/// to draw and become points. Decided from the data (geodesic areas), not from a hand list.
///
/// - A part (outer ring with its holes) or a hole whose rings share no border with another
///   country (an island, an empty hole) is dropped when its area is below the minimum island
///   area. Parts and holes that share a border (enclaves such as Baarle's, Lesotho's hole in
///   South Africa) are kept: dropping one side of a shared border would open a gap or an overlap.
/// - Natural Earth cuts islands at ±180° (Fiji's Vanua Levu and Taveuni); the pieces on
///   either side that meet along the meridian count as one island for the threshold.
/// - A country never disappears: if every part would go, its largest part stays.
/// - A country whose largest drawable part (of the parts it keeps) is below the point-area
///   threshold becomes a point: an archipelago of small islands (Cabo Verde, Samoa) has
///   nothing big enough to see or tap however many islands it has, while a compact country
///   of the same total area (Luxembourg) does; its rings leave the coverage, and a hole of a neighbour that only it
///   filled is filled by the neighbour (Vatican City and San Marino in Italy).
/// - A hole that would be dropped or filled stays when a kept part of another polygon lies in it.
enum PointCountries {
    struct Decision {
        /// Per country: kept polygon indices; per kept polygon, kept hole ring indices (graph rings).
        var keptPolygons: [[Int]] = []
        var keptHoles: [[Int: [Int]]] = []
        var isPoint: [Bool] = []
        var drawableKm2: [Double] = []
        var largestPartKm2: [Double] = []
        var droppedParts: [Int] = []
        var droppedHoles: [Int] = []
        var filledHoles: [Int] = []
        var droppedAreaKm2: [Double] = []
    }

    /// `ringAreaKm2[r]` is the unsigned geodesic area of graph ring r.
    /// `points`, when given, fixes which countries are points (the second pass after their
    /// gaps were filled, PointGaps: the parts they gave away no longer count).
    static func decide(graph: inout ArcGraph, ringAreaKm2: [Double], minIslandKm2: Double, pointAreaKm2: Double,
                       points: [Bool]? = nil) -> Decision {
        let nc = graph.polygons.count
        var d = Decision()
        d.isPoint = [Bool](repeating: false, count: nc)
        d.drawableKm2 = [Double](repeating: 0, count: nc)
        d.largestPartKm2 = [Double](repeating: 0, count: nc)
        d.droppedParts = [Int](repeating: 0, count: nc)
        d.droppedHoles = [Int](repeating: 0, count: nc)
        d.filledHoles = [Int](repeating: 0, count: nc)
        d.droppedAreaKm2 = [Double](repeating: 0, count: nc)

        func partArea(_ c: Int, _ p: Int) -> Double {
            let rs = graph.polygons[c][p]
            return ringAreaKm2[rs[0]] - rs.dropFirst().reduce(0) { $0 + ringAreaKm2[$1] }
        }
        // Island area across the antimeridian: pieces meeting along ±180° are summed.
        var islandArea: [[Double]] = []
        for c in 0..<nc {
            let polys = graph.polygons[c]
            var parent = Array(polys.indices)
            func find(_ x: Int) -> Int { var x = x; while parent[x] != x { x = parent[x] }; return x }
            // Latitude span each piece has on the meridian (NE's cuts differ by ~1e-4° on either side).
            var east: [Int: (Double, Double)] = [:], west: [Int: (Double, Double)] = [:]
            for p in polys.indices {
                for pt in graph.originalRing(polys[p][0]) where abs(pt.x) == 180 {
                    if pt.x > 0 { let e = east[p] ?? (pt.y, pt.y); east[p] = (min(e.0, pt.y), max(e.1, pt.y)) }
                    else { let w = west[p] ?? (pt.y, pt.y); west[p] = (min(w.0, pt.y), max(w.1, pt.y)) }
                }
            }
            for (p, e) in east.sorted(by: { $0.key < $1.key }) {
                for (q, w) in west.sorted(by: { $0.key < $1.key }) {
                    let overlap = min(e.1, w.1) - max(e.0, w.0)
                    guard overlap > 0, overlap >= 0.5 * min(e.1 - e.0, w.1 - w.0) else { continue }
                    let a = find(p), b = find(q)
                    if a != b { parent[max(a, b)] = min(a, b) }
                }
            }
            var total = [Int: Double]()
            for p in polys.indices { total[find(p), default: 0] += partArea(c, p) }
            islandArea.append(polys.indices.map { total[find($0)]! })
        }
        func keptParts(_ c: Int) -> [Int] {
            let polys = graph.polygons[c]
            var kept = polys.indices.filter { p in !graph.isFree(polys[p][0]) || islandArea[c][p] >= minIslandKm2 }
            if kept.isEmpty, let largest = polys.indices.max(by: { (partArea(c, $0), $1) < (partArea(c, $1), $0) }) {
                kept = [largest]
            }
            return kept
        }

        // 1. Point countries, from the drawable area with the whole coverage in place.
        var wasShared = [Bool](repeating: false, count: graph.rings.count)
        for r in graph.rings.indices { wasShared[r] = !graph.isFree(r) }
        for c in 0..<nc {
            let areas = keptParts(c).map { partArea(c, $0) }
            d.drawableKm2[c] = areas.reduce(0, +)
            d.largestPartKm2[c] = areas.max() ?? 0
            d.isPoint[c] = points?[c] ?? (d.largestPartKm2[c] < pointAreaKm2)
        }
        for c in 0..<nc where d.isPoint[c] {
            for poly in graph.polygons[c] { for r in poly { graph.release(r) } }
        }

        // 2. Parts of the drawn countries, then their holes.
        d.keptPolygons = [[Int]](repeating: [], count: nc)
        d.keptHoles = [[Int: [Int]]](repeating: [:], count: nc)
        var kept = [Set<Int>](repeating: [], count: nc)
        for c in 0..<nc where !d.isPoint[c] {
            kept[c] = Set(keptParts(c))
            for (p, rs) in graph.polygons[c].enumerated() where !kept[c].contains(p) {
                d.droppedParts[c] += 1
                d.droppedAreaKm2[c] += partArea(c, p)
                for r in rs { graph.release(r) }
            }
        }
        // A hole that would be dropped or filled stays when a kept part of another polygon lies
        // inside it (an island in a small lake drawn as its own country, possible when the point
        // threshold is below the island threshold; an enclave inside a point country): filling
        // it would cover that part. The kept exteriors' boxes are found once, when first needed.
        var exteriors: [(c: Int, p: Int, box: BoundingBox, ring: Int)]? = nil
        func holdsAnotherPart(_ hole: Int, of c: Int, _ p: Int) -> Bool {
            if exteriors == nil {
                exteriors = []
                for c2 in 0..<nc where !d.isPoint[c2] {
                    for p2 in kept[c2].sorted() {
                        let r = graph.polygons[c2][p2][0]
                        var box = BoundingBox.empty
                        for pt in graph.originalRing(r) { box.extend(pt) }
                        exteriors!.append((c2, p2, box, r))
                    }
                }
            }
            let ring = graph.originalRing(hole)
            var box = BoundingBox.empty
            for pt in ring { box.extend(pt) }
            let onHole = Set(ring)
            for e in exteriors! where !(e.c == c && e.p == p) && e.box.minX >= box.minX && e.box.maxX <= box.maxX && e.box.minY >= box.minY && e.box.maxY <= box.maxY {
                // Rings of a valid coverage do not cross: one vertex off the hole's ring decides.
                if let v = graph.originalRing(e.ring).first(where: { !onHole.contains($0) }), RingMath.contains(ring, v) { return true }
            }
            return false
        }
        for c in 0..<nc where !d.isPoint[c] {
            for (p, rs) in graph.polygons[c].enumerated() where kept[c].contains(p) {
                var holes: [Int] = []
                for r in rs.dropFirst() {
                    let free = graph.isFree(r)
                    if free && (wasShared[r] || ringAreaKm2[r] < minIslandKm2) && holdsAnotherPart(r, of: c, p) {
                        holes.append(r)
                    } else if free && wasShared[r] {
                        d.filledHoles[c] += 1; graph.release(r)
                    } else if free && ringAreaKm2[r] < minIslandKm2 {
                        d.droppedHoles[c] += 1; graph.release(r)
                    } else {
                        holes.append(r)
                    }
                }
                d.keptPolygons[c].append(p)
                d.keptHoles[c][p] = holes
            }
        }
        return d
    }
}

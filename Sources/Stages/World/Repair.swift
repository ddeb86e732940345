import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ
import Parallelism

/// Checks every country with GEOS and repairs the invalid ones with make-valid (structure
/// method: polygons stay polygons). Each repair is reported with GEOS's reason and the
/// geodesic area before and after.
public enum Repair {
    /// One repaired country (reported as is).
    public struct Record: Sendable {
        public var id: String
        /// GEOS's reason the input was invalid.
        public var reason: String
        public var areaBeforeKm2: Double
        public var areaAfterKm2: Double
        public var verticesBefore: Int
        public var verticesAfter: Int
        /// Vertices make-valid created (self-intersection nodes), rounded to the output grid
        /// (the rounded node may coincide with an input vertex).
        public var newVertices: [Point]
        /// The same vertices before rounding (where they lie exactly on the crossing segments).
        public var rawVertices: [Point]
    }

    /// Returns the polygons of each country (repaired where needed) and the repairs.
    /// `decimals` is the output precision: new vertices are rounded to it so the written file
    /// is what was validated.
    static func run(_ countries: [(ref: FeatureRef, id: String, polygons: [Polygon])], decimals: Int, threads: Int,
                    file: String) throws -> (polygons: [[Polygon]], repairs: [Record]) {
        let scale = pow(10.0, Double(decimals))
        let results: [([Polygon], Record?)] = try parallelMap(countries.count, threads: threads) { i, ctx in
          let (ref, id, polys) = countries[i]
          return try forFeature(file: file, ref) {
            let g = try ctx.multiPolygon(polys)
            if try g.isValid() { return (polys, nil) }
            let reason = g.validityReason()
            var fixed = try g.makeValid().polygons()
            let known = Set(polys.flatMap { $0.rings.flatMap { $0 } })
            var created: [Point] = [], raw: [Point] = []
            // Round what make-valid created to the output grid; rounding can collapse a sliver
            // or make a new tiny crossing, so clean up and repair again (a few times at most).
            var attempt = 0
            while true {
                fixed = snap(fixed, known: known, scale: scale, created: &created, raw: &raw)
                guard !fixed.isEmpty else {
                    throw InputError(file: file, feature: ref,
                                     "is invalid (\(reason)) and GEOS make-valid left no polygon")
                }
                let check = try ctx.multiPolygon(fixed)
                if try check.isValid() { break }
                attempt += 1
                guard attempt < 4 else {
                    throw InputError(file: file, feature: ref,
                                     "is invalid (\(reason)); GEOS make-valid's result is still invalid on the \(decimals)-decimal output grid (\(check.validityReason()))")
                }
                fixed = try check.makeValid().polygons()
            }
            let present = Set(fixed.flatMap { $0.rings.flatMap { $0 } })
            let keptNew = created.indices.filter { present.contains(created[$0]) }
            created = keptNew.map { created[$0] }; raw = keptNew.map { raw[$0] }
            let geod = Geodesic.wgs84
            let before = polys.reduce(0.0) { $0 + geod.area($1) } / 1e6
            let after = fixed.reduce(0.0) { $0 + geod.area($1) } / 1e6
            return (fixed, Record(id: id, reason: reason, areaBeforeKm2: before, areaAfterKm2: after,
                                  verticesBefore: polys.reduce(0) { $0 + $1.vertexCount },
                                  verticesAfter: fixed.reduce(0) { $0 + $1.vertexCount }, newVertices: created, rawVertices: raw))
          }
        }
        var polygons = results.map(\.0)
        let repairs = results.compactMap(\.1)
        // A node make-valid added on a border must exist on the neighbour's side too, or the
        // shared border would no longer match vertex for vertex.
        let created = repairs.flatMap { r in zip(r.rawVertices, r.newVertices).map { (r.id, $0.0, $0.1) } }
        if !created.isEmpty {
            for c in polygons.indices {
                for (owner, raw, rounded) in created where owner != countries[c].id {
                    insert(rounded, at: raw, into: &polygons[c])
                }
            }
        }
        return (polygons, repairs)
    }

    /// Rounds vertices that are not input vertices to the grid, removes repeated points, and
    /// drops rings that collapse (a collapsed outer ring drops its polygon).
    static func snap(_ polys: [Polygon], known: Set<Point>, scale: Double, created: inout [Point], raw: inout [Point]) -> [Polygon] {
        var out: [Polygon] = []
        for poly in polys {
            var rings: [Ring] = []
            for (ri, ring) in poly.rings.enumerated() {
                var r: Ring = []
                for q in ring {
                    var v = q
                    if !known.contains(q) {
                        v = Point((q.x * scale).rounded() / scale, (q.y * scale).rounded() / scale)
                        if !raw.contains(q) { created.append(v); raw.append(q) }
                    }
                    if r.last != v { r.append(v) }
                }
                let collapsed = r.count < 4 || RingMath.signedArea(r) == 0
                if collapsed { if ri == 0 { break } else { continue } }
                rings.append(r)
            }
            if !rings.isEmpty { out.append(Polygon(rings: rings)) }
        }
        return out
    }

    /// Inserts `v` into every segment of these polygons that passes through `at`.
    static func insert(_ v: Point, at: Point, into polys: inout [Polygon]) {
        for p in polys.indices {
            for r in polys[p].rings.indices {
                var ring = polys[p].rings[r]
                var k = 0
                var changed = false
                while k < ring.count - 1 {
                    let a = ring[k], b = ring[k + 1]
                    if a != v && b != v && onSegment(at, a, b) {
                        ring.insert(v, at: k + 1); changed = true; k += 1
                    }
                    k += 1
                }
                if changed { polys[p].rings[r] = ring }
            }
        }
    }

    /// `v` lies on segment a–b (within a hair of the 6-decimal grid).
    static func onSegment(_ v: Point, _ a: Point, _ b: Point) -> Bool {
        guard v.x >= min(a.x, b.x) - 1e-9, v.x <= max(a.x, b.x) + 1e-9,
              v.y >= min(a.y, b.y) - 1e-9, v.y <= max(a.y, b.y) + 1e-9 else { return false }
        let cross = (b.x - a.x) * (v.y - a.y) - (b.y - a.y) * (v.x - a.x)
        let len = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        return len > 0 && abs(cross) / len < 1e-9
    }
}

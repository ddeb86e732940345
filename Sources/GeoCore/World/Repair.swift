import Foundation

/// Checks every country with GEOS and repairs the invalid ones with make-valid (structure
/// method: polygons stay polygons). Each repair is reported with GEOS's reason and the
/// geodesic area before and after.
enum Repair {
    struct Record: Sendable {
        var id: String
        var reason: String
        var areaBeforeKm2: Double
        var areaAfterKm2: Double
        var verticesBefore: Int
        var verticesAfter: Int
        /// Vertices make-valid created (self-intersection nodes), rounded to the output grid.
        var newVertices: [Point]
        /// The same vertices before rounding (where they lie exactly on the crossing segments).
        var rawVertices: [Point]
    }

    /// Returns the polygons of each country (repaired where needed) and the repairs.
    /// `decimals` is the output precision: new vertices are rounded to it so the written file
    /// is what was validated.
    static func run(_ countries: [(id: String, polygons: [Polygon])], decimals: Int, threads: Int,
                    file: String) throws -> (polygons: [[Polygon]], repairs: [Record]) {
        let scale = pow(10.0, Double(decimals))
        let results: [([Polygon], Record?)] = try parallelMap(countries.count, threads: threads) { i, ctx in
            let (id, polys) = countries[i]
            let g = try ctx.multiPolygon(polys)
            if try g.isValid() { return (polys, nil) }
            let reason = g.validityReason()
            var fixed = try g.makeValid().polygons()
            guard !fixed.isEmpty else {
                throw InputError(file: file, feature: FeatureRef(index: nil, name: nil, id: id),
                                 "is invalid (\(reason)) and GEOS make-valid left no polygon")
            }
            let known = Set(polys.flatMap { $0.rings.flatMap { $0 } })
            var created: [Point] = [], raw: [Point] = []
            for p in fixed.indices {
                for r in fixed[p].rings.indices {
                    for k in fixed[p].rings[r].indices where !known.contains(fixed[p].rings[r][k]) {
                        let q = fixed[p].rings[r][k]
                        let rounded = Point((q.x * scale).rounded() / scale, (q.y * scale).rounded() / scale)
                        fixed[p].rings[r][k] = rounded
                        if !raw.contains(q) { created.append(rounded); raw.append(q) }
                    }
                }
            }
            let check = try ctx.multiPolygon(fixed)
            guard try check.isValid() else {
                throw InputError(file: file, feature: FeatureRef(index: nil, name: nil, id: id),
                                 "is invalid (\(reason)); GEOS make-valid's result is still invalid on the \(decimals)-decimal output grid (\(check.validityReason()))")
            }
            let geod = Geodesic.wgs84
            let before = polys.reduce(0.0) { $0 + geod.area($1) } / 1e6
            let after = fixed.reduce(0.0) { $0 + geod.area($1) } / 1e6
            return (fixed, Record(id: id, reason: reason, areaBeforeKm2: before, areaAfterKm2: after,
                                  verticesBefore: polys.reduce(0) { $0 + $1.vertexCount },
                                  verticesAfter: fixed.reduce(0) { $0 + $1.vertexCount }, newVertices: created, rawVertices: raw))
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

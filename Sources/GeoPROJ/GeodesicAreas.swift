import Foundation
import GeoModel
import Geodesy
import Parallelism

/// Areas on the WGS84 ellipsoid of many countries at once (the globe manifest's
/// `geodesicAreaKm2`), equal bit for bit to PROJ's `geod_polygonarea` of each ring (outer
/// minus holes, summed over the polygons in order, as `Geodesic.area`), with each edge's
/// geodesic solved once: a border two countries share is one inverse problem, not two (a
/// quarter of the world's edges).
public enum GeodesicAreas {
    /// Area in m² of each country (its polygons), with `threads` solving the edges.
    public static func countries(_ countries: [[Polygon]], threads: Int) -> [Double] {
        // Every ring as geod_polygonarea reads it (no closing point, longitudes normalised),
        // each edge as a signed reference to a unique edge: +(k + 1) forward, −(k + 1) reversed.
        let vertices = countries.reduce(0) { $0 + $1.reduce(0) { $0 + $1.vertexCount } }
        var table = PointPairTable(capacity: vertices)
        var rings: [[Point]] = []
        var refs: [[Int32]] = []
        for polygons in countries {
            for p in polygons {
                for ring in p.rings {
                    var pts = ring
                    if pts.count > 1 && pts.first == pts.last { pts.removeLast() }
                    for i in pts.indices { pts[i].x = Geodesic.normalizedLongitude(pts[i].x) }
                    var r: [Int32] = []
                    if pts.count >= 3 {
                        r.reserveCapacity(pts.count)
                        for i in pts.indices {
                            let a = pts[i], b = pts[(i + 1) % pts.count]
                            let forward = (a.x, a.y) <= (b.x, b.y)
                            let k = forward ? table.insert(a, b).id : table.insert(b, a).id
                            r.append(forward ? k + 1 : -(k + 1))
                        }
                    }
                    rings.append(pts)
                    refs.append(r)
                }
            }
        }
        // Keys by bit pattern (PointPairTable): a ±0 longitude is solved as written.
        let ends = table.pairs
        table = PointPairTable(capacity: 0)
        // The edges' area terms, in chunks over the threads.
        let chunk = 4096, chunks = (ends.count + chunk - 1) / chunk
        let geodesic = Geodesic.wgs84
        let parts = parallelMap(chunks, threads: max(1, threads)) { [ends] c in
            (c * chunk..<min(ends.count, (c + 1) * chunk)).map { geodesic.edgeArea(ends[$0].0, ends[$0].1) }
        }
        let terms = parts.flatMap { $0 }
        // Each ring's signed area, then outer minus holes per polygon, summed per country.
        var out: [Double] = []
        out.reserveCapacity(countries.count)
        var ri = 0
        for polygons in countries {
            var total = 0.0
            for p in polygons {
                var a = 0.0
                for (k, _) in p.rings.enumerated() {
                    let r = refs[ri]
                    let ring = r.isEmpty ? 0 : abs(geodesic.ringArea(rings[ri]) { i in
                        let e = Int(r[i])
                        return e > 0 ? terms[e - 1] : -terms[-e - 1]
                    })
                    a = k == 0 ? ring : a - ring
                    ri += 1
                }
                total += a
            }
            out.append(total)
        }
        return out
    }
}

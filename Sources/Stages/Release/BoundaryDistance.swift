import Foundation
import Geodesy
import GeoModel

/// How far one country's boundary moved between two versions: the Hausdorff distance (km on the
/// ground, EarthDistance) between the two boundaries as sets of lon/lat segments.
///
/// Only what changed is measured: a segment present in both versions is at distance 0 from the
/// other boundary, so only segments of one version missing from the other are sampled (their
/// ends, and points every `stepKm` between) and each sample's distance to the nearest segment of
/// the other version is found through a lon/lat grid. An edit that moves one vertex costs a few
/// dozen distance evaluations; two unrelated boundaries cost about samples × log. Sampling makes
/// the result a lower bound within `stepKm / 2` of the exact distance. A Point geometry is a
/// boundary of one degenerate segment (a point country's move is its distance).
public enum BoundaryDistance {
    /// A segment's two ends, in the order the ring has them.
    struct Segment: Hashable { var a: Point, b: Point }

    static func segments(_ g: Geometry) -> [Segment] {
        switch g {
        case .point(let p): return [Segment(a: p, b: p)]
        case .polygon, .multiPolygon:
            var out: [Segment] = []
            for poly in g.polygons {
                for ring in poly.rings where ring.count >= 2 {
                    for i in 1..<ring.count where ring[i] != ring[i - 1] { out.append(Segment(a: ring[i - 1], b: ring[i])) }
                }
            }
            return out
        }
    }

    /// The Hausdorff distance (km) between the boundaries of `a` and `b`; 0 when they have the
    /// same segments (whatever their order, direction or ring starts).
    public static func hausdorffKm(_ a: Geometry, _ b: Geometry, stepKm: Double = 0.25) -> Double {
        let sa = segments(a), sb = segments(b)
        return max(directed(sa, sb, stepKm: stepKm), directed(sb, sa, stepKm: stepKm))
    }

    /// The farthest sample of `from`'s segments missing from `to` from the boundary `to`.
    static func directed(_ from: [Segment], _ to: [Segment], stepKm: Double) -> Double {
        var present = Set<Segment>()
        present.reserveCapacity(to.count * 2)
        for s in to { present.insert(s); present.insert(Segment(a: s.b, b: s.a)) }
        let changed = from.filter { !present.contains($0) }
        guard !changed.isEmpty else { return 0 }
        guard !to.isEmpty else { return .infinity }
        let grid = NearestSegmentGrid(to)
        var worst = 0.0
        for s in changed {
            let lengthKm = EarthDistance.toSegment(s.a, cosLat: EarthDistance.cosLat(s.a), s.b, s.b)
            let n = min(Int((lengthKm / stepKm).rounded(.up)), 4096)
            for k in 0...max(n, 0) {
                let t = n == 0 ? 0 : Double(k) / Double(n)
                let p = Point(s.a.x + (s.b.x - s.a.x) * t, s.a.y + (s.b.y - s.a.y) * t)
                worst = max(worst, grid.distanceKm(p, atLeast: worst))
            }
        }
        return worst
    }
}

/// Segments bucketed on a lon/lat grid, for the distance from a point to the nearest one.
struct NearestSegmentGrid {
    let segments: [BoundaryDistance.Segment]
    let cell: Double
    let box: BoundingBox
    let columns: Int, rows: Int
    var buckets: [[Int32]]

    init(_ segments: [BoundaryDistance.Segment]) {
        self.segments = segments
        var box = BoundingBox.empty
        for s in segments { box.extend(s.a); box.extend(s.b) }
        self.box = box
        // About four segments a cell on average, at least 0.01° and at most 2°.
        let area = max(box.width * box.height, 1e-6)
        cell = min(max((area * 4 / Double(max(segments.count, 1))).squareRoot(), 0.01), 2)
        columns = Int(box.width / cell) + 1
        rows = Int(box.height / cell) + 1
        buckets = [[Int32]](repeating: [], count: columns * rows)
        for (i, s) in segments.enumerated() {
            let x0 = col(min(s.a.x, s.b.x)), x1 = col(max(s.a.x, s.b.x))
            let y0 = row(min(s.a.y, s.b.y)), y1 = row(max(s.a.y, s.b.y))
            for y in y0...y1 { for x in x0...x1 { buckets[y * columns + x].append(Int32(i)) } }
        }
    }

    func col(_ x: Double) -> Int { min(max(Int((x - box.minX) / cell), 0), columns - 1) }
    func row(_ y: Double) -> Int { min(max(Int((y - box.minY) / cell), 0), rows - 1) }

    /// Distance (km) from `p` to the nearest segment. Cells are searched in square rings around
    /// `p`'s cell until no unsearched cell can hold anything nearer; once the nearest found is
    /// below `atLeast` the answer cannot raise a running maximum, so the search stops there.
    func distanceKm(_ p: Point, atLeast floor: Double) -> Double {
        let cp = EarthDistance.cosLat(p)
        let cx = Int(((p.x - box.minX) / cell).rounded(.down)), cy = Int(((p.y - box.minY) / cell).rounded(.down))
        var best = Double.infinity
        let maxRing = max(columns, rows) + abs(cx) + abs(cy)
        var r = 0
        while r <= maxRing {
            for y in (cy - r)...(cy + r) where y >= 0 && y < rows {
                let edgeRow = y == cy - r || y == cy + r
                for x in (cx - r)...(cx + r) where x >= 0 && x < columns {
                    if !edgeRow && x != cx - r && x != cx + r { continue }
                    for i in buckets[y * columns + x] {
                        let s = segments[Int(i)]
                        best = min(best, EarthDistance.toSegment(p, cosLat: cp, s.a, s.b))
                    }
                }
            }
            if best <= floor { return best }
            // Anything outside ring r is at least r cells away in latitude or in longitude, and
            // EarthDistance measures in p's own frame (a degree of longitude is cos φ of one of latitude).
            let bound = Double(r) * cell * Earth.kmPerDegree * cp
            if best <= bound { return best }
            r += 1
        }
        return best
    }
}

import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ
import GeoFormats

/// A country's silhouette for the quiz (CONTRACTS §4): the country in a Lambert azimuthal
/// equal-area projection centred on its own extent on the sphere, fitted and centred in a
/// square viewBox, simplified to the picture's scale, coordinates on the viewBox grid.
public enum Silhouette {
    public struct Options: Sendable {
        /// The square viewBox's side, the same for every country.
        public var size = 1000.0
        /// Empty margin on every side, in viewBox units.
        public var padding = 40.0
        /// Parts (islands) with less than this share of the country's area are dropped.
        /// The largest part is always kept.
        public var minPartShare = 0.0005
        /// Douglas–Peucker tolerance in viewBox units.
        public var tolerance = 0.7
        /// Decimals of the path coordinates (0: whole viewBox units).
        public var decimals = 0
        /// Rings (islands, holes) smaller than this many square viewBox units after
        /// simplification are too small to see and are dropped.
        public var minRingArea = 2.0
        /// Parts under this share of the country's area are "minor": they are dropped when
        /// farther than `remoteDistance` × √(country area) from every major part.
        public var remoteShare = 0.02
        public var remoteDistance = 1.0
        /// Byte budget per SVG: the tolerance grows ×1.5 (up to 5 times) while a file is larger.
        /// 0 turns it off.
        public var maxBytes = 10_000
        public var fill = SVGDocuments.Palette.land
        public init() {}
    }

    public struct Drawing: Sendable {
        public var id: String
        public var name: String
        /// The equal-area projection's centre (lon, lat).
        public var centre: Point
        public var pathData: String
        /// The drawn rings on the viewBox grid (units of 10^-decimals), y down, open.
        public var gridRings: [[GridPoint]]
        /// Indexes of the feature's polygons (in its MultiPolygon order) that are drawn.
        public var drawnParts: [Int]
        public var totalParts: Int
        public var rings: Int
        public var vertices: Int
        /// The simplification tolerance finally used (after the byte budget).
        public var tolerance: Double
        /// The drawn shape's extent in viewBox units.
        public var box: BoundingBox
        public var svg: String
    }

    /// Draws one country. `polygons` are its lon/lat polygons (RFC 7946).
    public static func draw(id: String, name: String, polygons: [Polygon], options o: Options,
                            proj: PROJContext, geos: GEOSContext) throws -> Drawing {
        guard !polygons.isEmpty else { throw StageError("\(id): no polygon to draw") }
        // 1. Join parts that Natural Earth split at ±180°, remembering where each came from.
        let joined = try Antimeridian.joinAcross180WithOrigins(polygons, context: geos)
        // 2–4. Which parts are drawn (`choose`): decided on the parts' spherical area estimates
        //    when no comparison is close enough for their error to matter, else on their
        //    geodesic areas (WGS84, Karney), as before. A part the estimate does not apply to
        //    (a long edge, a pole) brings its geodesic area, which is within any margin.
        let estimates = joined.map { estimatedArea($0.polygon) ?? Geodesic.wgs84.area($0.polygon) }
        let choice = try choose(joined, areas: estimates, margin: estimateMargin, id: id, o: o, proj: proj)
            ?? choose(joined, areas: joined.map { Geodesic.wgs84.area($0.polygon) }, margin: 0, id: id, o: o, proj: proj)!
        let (kept, largest, centre, projected) = (choice.kept, choice.largest, choice.centre, choice.projected)
        // 5. Fit, simplify, quantise; refit once if parts vanished at this scale; simplify
        //    more while the file is over its byte budget.
        var tolerance = o.tolerance
        var result: (rings: [[GridPoint]], survivors: [Int]) = ([], [])
        var svg = "", d = ""
        for attempt in 0..<6 {
            var parts = kept
            for _ in 0..<2 {
                result = fit(parts, projected, largest: largest, tolerance: tolerance, o: o)
                if result.survivors == parts { break }
                parts = result.survivors
            }
            guard !result.rings.isEmpty else { throw StageError("\(id): the silhouette is empty at a \(o.size) viewBox") }
            d = SVGPathData.encode(result.rings, decimals: o.decimals)
            svg = SVGDocuments.silhouette(id: id, name: name, pathData: d, size: o.size, fill: o.fill)
            if o.maxBytes <= 0 || svg.utf8.count <= o.maxBytes || attempt == 5 { break }
            tolerance *= 1.5
        }
        var drawnBox = BoundingBox.empty
        let unit = PowersOfTen.table[o.decimals]
        for r in result.rings { for g in r { drawnBox.extend(Point(Double(g.x) / unit, Double(g.y) / unit)) } }
        return Drawing(id: id, name: name, centre: centre, pathData: d, gridRings: result.rings,
                       drawnParts: Set(result.survivors.flatMap { joined[$0].origins }).sorted(), totalParts: polygons.count,
                       rings: result.rings.count, vertices: result.rings.reduce(0) { $0 + $1.count },
                       tolerance: tolerance, box: drawnBox, svg: svg)
    }

    /// The relative error allowed to a part's area estimate (`estimatedArea`): about 4 times
    /// the worst measured against PROJ's geodesic area for edges up to 30°, 8 times the worst
    /// part of the 1:110m world (SphericalArea.authalicRingArea). Decisions within it of a
    /// threshold are made on the geodesic areas.
    static let estimateMargin = 1e-3

    /// A polygon's area (m²) estimated on the authalic sphere (SphericalArea.authalicRingArea):
    /// what the decisions in `choose` are made on when none is close. Nil where the estimate
    /// does not apply (long edges, a pole).
    static func estimatedArea(_ polygon: Polygon) -> Double? {
        guard var a = SphericalArea.authalicRingArea(polygon.exterior) else { return nil }
        for h in polygon.holes {
            guard let ha = SphericalArea.authalicRingArea(h) else { return nil }
            a -= ha
        }
        return a
    }

    struct Choice {
        var largest: Int
        var kept: [Int]
        var centre: Point
        var projected: [Int: [Ring]]
    }

    /// Steps 2–4 of `draw` on the parts' `areas`, each known within the relative `margin`
    /// (0: exact). Nil when a comparison is too close to call at that margin, so that the
    /// answer is always the one the exact areas give.
    ///  2. drop parts too small relative to the country (never the largest);
    ///  3. centre on the sphere and project;
    ///  4. small remote parts (Canary Islands for Spain, Hawaii for the US, Rotuma for Fiji)
    ///     would shrink the country to a corner of the picture: drop minor parts whose bounding
    ///     box is farther than remoteDistance × √area from every major part's.
    static func choose(_ joined: [(polygon: Polygon, origins: [Int])], areas: [Double], margin: Double,
                       id: String, o: Options, proj: PROJContext) throws -> Choice? {
        let f = (1 + margin) / (1 - margin)
        /// a ≥ b for areas (or sums of areas) each within `margin`; nil when too close to call.
        func atLeast(_ a: Double, _ b: Double) -> Bool? {
            if margin == 0 { return a >= b }
            if a >= b * f { return true }
            if a * f < b { return false }
            return nil
        }
        let total = areas.reduce(0, +)
        guard total > 0 else {
            if margin > 0 { return nil }
            throw StageError("\(id): the geometry has no area")
        }
        let largest = areas.indices.max { areas[$0] < areas[$1] }!
        if margin > 0, areas.indices.contains(where: { $0 != largest && atLeast(areas[$0], areas[largest]) != false }) { return nil }
        var kept: [Int] = []
        for i in areas.indices {
            guard i != largest else { kept.append(i); continue }
            guard let keep = atLeast(areas[i], o.minPartShare * total) else { return nil }
            if keep { kept.append(i) }
        }
        var majors: [Int] = []
        for i in kept {
            guard i != largest else { majors.append(i); continue }
            guard let major = atLeast(areas[i], o.remoteShare * total) else { return nil }
            if major { majors.append(i) }
        }
        var (centre, projected) = try project(kept, joined, id: id, proj: proj)
        let boxes = Dictionary(uniqueKeysWithValues: kept.map { i -> (Int, BoundingBox) in
            var b = BoundingBox.empty
            for p in projected[i]![0] { b.extend(p) }
            return (i, b)
        })
        // The limit scales with √area: within √f of the exact areas' limit.
        let limit = o.remoteDistance * total.squareRoot(), slack = f.squareRoot()
        var near: [Int] = []
        for i in kept {
            if majors.contains(i) { near.append(i); continue }
            let gaps = majors.map { gap(boxes[i]!, boxes[$0]!) }
            if gaps.contains(where: { $0 <= limit / slack }) { near.append(i); continue }
            if margin > 0 && gaps.contains(where: { $0 <= limit * slack }) { return nil }
        }
        if near != kept {
            (centre, projected) = try project(near, joined, id: id, proj: proj)
        }
        return Choice(largest: largest, kept: near, centre: centre, projected: projected)
    }

    /// Distance between two boxes (0 when they overlap).
    static func gap(_ a: BoundingBox, _ b: BoundingBox) -> Double {
        let dx = max(0, max(a.minX - b.maxX, b.minX - a.maxX))
        let dy = max(0, max(a.minY - b.maxY, b.minY - a.maxY))
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The parts `kept` of `joined` in a Lambert azimuthal equal-area centred on them.
    static func project(_ kept: [Int], _ joined: [(polygon: Polygon, origins: [Int])], id: String, proj: PROJContext) throws -> (Point, [Int: [Ring]]) {
        guard let centre = SphereCentre.of(kept.map { joined[$0].polygon }) else { throw StageError("\(id): no centre for the geometry") }
        let laea = try PROJPipeline.lambertAzimuthalEqualArea(context: proj, centre: centre)
        var flat: [Point] = []
        for i in kept { for r in joined[i].polygon.rings { flat += r } }
        let failed = try laea.forward(&flat)
        guard failed == 0 else { throw StageError("\(id): \(failed) points cannot be projected around \(centre)") }
        var projected: [Int: [Ring]] = [:]
        var k = 0
        for i in kept {
            projected[i] = joined[i].polygon.rings.map { r in defer { k += r.count }; return Array(flat[k..<(k + r.count)]) }
        }
        return (centre, projected)
    }

    /// Fits `parts` into the viewBox (bounding box centred, longer side = size − 2·padding),
    /// simplifies and quantises every ring. Exteriors that vanish take their holes with them;
    /// the largest part is kept unsimplified rather than lost.
    static func fit(_ parts: [Int], _ projected: [Int: [Ring]], largest: Int, tolerance: Double, o: Options) -> (rings: [[GridPoint]], survivors: [Int]) {
        var box = BoundingBox.empty
        for i in parts { for p in projected[i]![0] { box.extend(p) } }
        let side = max(box.width, box.height, 1e-9)
        let k = (o.size - 2 * o.padding) / side
        let cx = (box.minX + box.maxX) / 2, cy = (box.minY + box.maxY) / 2
        let half = o.size / 2
        let unit = PowersOfTen.table[o.decimals]
        let minTwiceArea = Int64(2 * o.minRingArea * unit * unit)
        var rings: [[GridPoint]] = [], survivors: [Int] = []
        for i in parts {
            for (ri, r) in projected[i]!.enumerated() {
                let pic = r.map { Point(half + ($0.x - cx) * k, half - ($0.y - cy) * k) }
                let simple = Simplify.douglasPeucker(ring: pic, tolerance: tolerance)
                var q = SVGPathData.quantize(simple, decimals: o.decimals)
                if abs(SVGPathData.twiceArea(q)) < minTwiceArea { q = [] }
                if ri == 0 {
                    if q.isEmpty && i == largest { q = SVGPathData.quantize(pic, decimals: o.decimals) }
                    if q.isEmpty { break }
                    survivors.append(i)
                }
                if !q.isEmpty { rings.append(q) }
            }
        }
        return (rings, survivors)
    }

}

public enum Simplify {
    /// Douglas–Peucker on a closed ring (first == last): split at the vertex farthest from the
    /// first, simplify both halves. Keeps at least 4 points for rings that had them.
    public static func douglasPeucker(ring: [Point], tolerance: Double) -> [Point] {
        let n = ring.count
        guard n > 4, tolerance > 0 else { return ring }
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true; keep[n - 1] = true
        var far = 0, best = -1.0
        let a = ring[0]
        for i in 1..<(n - 1) {
            let dx = ring[i].x - a.x, dy = ring[i].y - a.y
            let d = dx * dx + dy * dy
            if d > best { best = d; far = i }
        }
        keep[far] = true
        let tol2 = tolerance * tolerance
        var stack: [(Int, Int)] = [(0, far), (far, n - 1)]
        ring.withUnsafeBufferPointer { r in
            while let (s, e) = stack.popLast() {
                guard e > s + 1 else { continue }
                let p = r[s], q = r[e]
                let vx = q.x - p.x, vy = q.y - p.y
                let len2 = vx * vx + vy * vy
                var maxD = -1.0, idx = s
                for i in (s + 1)..<e {
                    let wx = r[i].x - p.x, wy = r[i].y - p.y
                    var d: Double
                    if len2 == 0 {
                        d = wx * wx + wy * wy
                    } else {
                        let t = max(0, min(1, (wx * vx + wy * vy) / len2))
                        let ex = wx - t * vx, ey = wy - t * vy
                        d = ex * ex + ey * ey
                    }
                    if d > maxD { maxD = d; idx = i }
                }
                if maxD > tol2 {
                    keep[idx] = true
                    stack.append((s, idx)); stack.append((idx, e))
                }
            }
        }
        var out: [Point] = []
        for i in 0..<n where keep[i] { out.append(ring[i]) }
        if out.count < 4 {
            // A ring reduced to a line: keep the point farthest from that line as well.
            return ring.count <= 5 ? ring : Array([ring[0], ring[far / 2], ring[far], ring[(far + n - 1) / 2], ring[n - 1]])
        }
        return out
    }
}

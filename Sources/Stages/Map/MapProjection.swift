import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ
import GeoFormats

/// A flat world map through PROJ: the data cut at the map's edge (the antimeridian of the
/// projection's central meridian), clipped in latitude where the projection cannot reach the
/// poles (Mercator), densified so long edges follow the projection's curves, then projected.
public final class MapProjection {
    public let crs: String
    public let centralMeridian: Double
    /// The western edge of the map in longitude, in (-180, 180]; the map covers [west, west + 360].
    public let west: Double
    /// Latitude limit when the poles do not project (Mercator), else 90.
    public let maxLatitude: Double
    /// Segments longer than this (degrees) are subdivided before projecting.
    public var densifyDegrees = 1.0
    /// After projecting, a segment is split at its lon/lat midpoint while that midpoint's
    /// projection lies farther than this (map units) from the straight projected chord.
    /// Default: 0.05 % of the map's width.
    public var curveTolerance: Double
    /// The same for segments along the map's edge (the cut meridian), where coasts come
    /// arbitrarily close to the curved edge: 3e-9 of the map's width (≈ 0.1 m on a world map).
    public var edgeTolerance: Double
    /// How many times a segment may be halved (2^-12 of a 1° step ≈ 30 m).
    public var maxSplitDepth = 12
    let transformation: Transformation
    let geos: GEOSContext

    /// Nudge off the map's edge so that PROJ puts a point on the correct side.
    static let edgeNudge = 1e-7

    public init(crs: String, context: PROJContext, geos: GEOSContext) throws {
        self.crs = crs
        self.geos = geos
        transformation = try Transformation(context: context, from: "EPSG:4326", to: crs)
        centralMeridian = try ProjectionInfo.centralMeridian(of: crs, context: context)
        var w = centralMeridian - 180
        while w <= -180 { w += 360 }
        while w > 180 { w -= 360 }
        if abs(w - 180) < 1e-12 || abs(w + 180) < 1e-12 { w = -180 }
        west = w
        // Poles that do not project, or project absurdly far (Mercator gives y ≈ 12 × the
        // equator's half-width at 90°), mean the map has to stop short of them.
        var probe = [Point(centralMeridian, 90), Point(centralMeridian, -90), Point(centralMeridian + 179.999, 0), Point(centralMeridian, 0)]
        let failed = (try? transformation.transform(&probe)) ?? 4
        let halfWidth = abs(probe[2].x - probe[3].x)
        let poleFails = failed > 0 || !(halfWidth > 0)
            || abs(probe[0].y - probe[3].y) > 4 * halfWidth || abs(probe[1].y - probe[3].y) > 4 * halfWidth
        maxLatitude = poleFails ? 85.051128779806 : 90
        let width = halfWidth.isFinite && halfWidth > 0 ? 2 * halfWidth : 4e7
        curveTolerance = 5e-4 * width
        edgeTolerance = 3e-9 * width
    }

    /// Whether the map's edge is the ±180° meridian (nothing to cut in Natural Earth data).
    public var edgeIsAntimeridian: Bool { west == -180 }

    /// The pieces of a country's polygons in lon/lat, cut at the map's edge, shifted into
    /// [west, west + 360], nudged off the edge, clipped in latitude and densified.
    public func cut(_ polygons: [Polygon]) throws -> [Polygon] {
        var pieces: [Polygon] = []
        let east = west + 360
        for p in polygons {
            var box = BoundingBox.empty
            for q in p.exterior { box.extend(q) }
            var seams: [Double] = []
            var k = ((box.minX - west) / 360).rounded(.down)
            while true {
                let s = west + 360 * k
                if s > box.minX + 1e-12 && s < box.maxX - 1e-12 { seams.append(s) }
                if s >= box.maxX { break }
                k += 1
            }
            let latClip = box.minY < -maxLatitude || box.maxY > maxLatitude
            var parts: [Polygon]
            if seams.isEmpty && !latClip {
                parts = [p]
            } else {
                let bounds = [box.minX - 1] + seams + [box.maxX + 1]
                parts = []
                for i in 0..<(bounds.count - 1) {
                    parts += try clip(p, minX: bounds[i], maxX: bounds[i + 1], maxLat: maxLatitude)
                }
            }
            for var part in parts {
                var b = BoundingBox.empty
                for q in part.exterior { b.extend(q) }
                let mid = (b.minX + b.maxX) / 2
                let shift = 360 * ((mid - west) / 360).rounded(.down) * -1
                for r in part.rings.indices {
                    for i in part.rings[r].indices {
                        var x = part.rings[r][i].x + shift
                        if x < west + 1e-9 { x = west + Self.edgeNudge }
                        if x > east - 1e-9 { x = east - Self.edgeNudge }
                        part.rings[r][i].x = x
                    }
                }
                pieces.append(part)
            }
        }
        // Parts that Natural Earth split at ±180° now sit side by side inside the map: join them.
        if !edgeIsAntimeridian {
            pieces = try joinAt180(pieces)
        }
        return pieces.map { Polygon(rings: $0.rings.map { densify($0) }) }
    }

    func clip(_ p: Polygon, minX: Double, maxX: Double, maxLat: Double) throws -> [Polygon] {
        let rect = Polygon(rings: [[Point(minX, -maxLat), Point(maxX, -maxLat), Point(maxX, maxLat), Point(minX, maxLat), Point(minX, -maxLat)]])
        let r = try geos.polygon(rect)
        do {
            return try geos.polygon(p).intersection(r).polygons()
        } catch {
            return try geos.polygon(p).makeValid().intersection(r).polygons()
        }
    }

    func joinAt180(_ pieces: [Polygon]) throws -> [Polygon] {
        var touching: [Int] = []
        for (i, p) in pieces.enumerated() where p.exterior.contains(where: { abs($0.x - 180) < 1e-9 }) { touching.append(i) }
        guard touching.count >= 2 else { return pieces }
        let snapped = touching.map { i in
            Polygon(rings: pieces[i].rings.map { $0.map { abs($0.x - 180) < 1e-9 ? Point(180, $0.y) : $0 } })
        }
        let merged = try Antimeridian.unionOrKeep(snapped, context: geos)
        var out: [Polygon] = []
        let set = Set(touching)
        for i in pieces.indices {
            if i == touching[0] { out += merged } else if !set.contains(i) { out.append(pieces[i]) }
        }
        return out
    }

    func densify(_ ring: Ring) -> Ring {
        guard ring.count >= 2 else { return ring }
        var out: Ring = [ring[0]]
        out.reserveCapacity(ring.count)
        for i in 1..<ring.count {
            let a = ring[i - 1], b = ring[i]
            let d = max(abs(b.x - a.x), abs(b.y - a.y))
            if d > densifyDegrees {
                let n = Int((d / densifyDegrees).rounded(.up))
                for j in 1..<n {
                    let t = Double(j) / Double(n)
                    out.append(Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t))
                }
            }
            out.append(b)
        }
        return out
    }

    /// Projects polygons (already cut) to map metres, RFC 7946 winding in the map plane.
    /// Segments are split adaptively where the projection bends them (see `curveTolerance`).
    /// Throws when PROJ cannot project a point; `what` labels the polygon in the repair log.
    public func project(_ polygons: [Polygon], what: String) throws -> [Polygon] {
        var flat: [Point] = []
        flat.reserveCapacity(polygons.reduce(0) { $0 + $1.vertexCount })
        for p in polygons { for r in p.rings { flat += r } }
        var xy = flat
        let failed = try transformation.transform(&xy)
        guard failed == 0 else {
            throw StageError("\(failed) of \(flat.count) points cannot be projected with \(crs) (outside the projection's domain)")
        }
        var rings: [(lonLat: [Point], xy: [Point])] = []
        var k = 0
        for p in polygons {
            for r in p.rings {
                rings.append((Array(flat[k..<(k + r.count)]), Array(xy[k..<(k + r.count)])))
                k += r.count
            }
        }
        try refine(&rings, what: what)
        var ri = 0
        var out: [Polygon] = []
        for p in polygons {
            let q = Polygon(rings: p.rings.map { _ in
                defer { ri += 1 }
                return rings[ri].xy
            })
            // Chords stand in for curves: where two edges of a ring nearly touch (a spike in
            // the input), one may be split and the other not, and their chords cross. Such a
            // polygon is repaired by GEOS (its sliver is dropped or split off), and counted.
            let g = try geos.polygon(q)
            if try g.isValid() {
                out.append(RingMath.orientedForRFC7946(q))
            } else {
                repairedPolygons.append(what)
                out += try g.makeValid().polygons().map(RingMath.orientedForRFC7946)
            }
        }
        return out
    }

    /// The `what` of every projected polygon that crossed itself in the map plane and was repaired.
    public private(set) var repairedPolygons: [String] = []

    /// Whether a lon/lat point lies on the map's edge (where `cut` put it).
    @inline(__always) func onEdge(_ p: Point) -> Bool {
        abs(p.x - (west + Self.edgeNudge)) < 1e-9 || abs(p.x - (west + 360 - Self.edgeNudge)) < 1e-9
    }

    /// Adaptive densification in the map plane: each pass projects the lon/lat midpoints of all
    /// open segments in one PROJ call and splits those whose midpoint strays from the chord by
    /// more than the tolerance; the halves stay open. Deterministic (no order dependence).
    func refine(_ rings: inout [(lonLat: [Point], xy: [Point])], what: String) throws {
        // open[r][i]: segment i → i+1 of ring r still needs a test.
        var open = rings.map { [Bool](repeating: true, count: max(0, $0.lonLat.count - 1)) }
        for depth in 0...maxSplitDepth {
            var mids: [Point] = []
            var at: [(ring: Int, seg: Int)] = []
            for (r, ring) in rings.enumerated() {
                for i in 0..<open[r].count where open[r][i] {
                    let a = ring.lonLat[i], b = ring.lonLat[i + 1]
                    mids.append(Point((a.x + b.x) / 2, (a.y + b.y) / 2))
                    at.append((r, i))
                }
            }
            if mids.isEmpty { return }
            var projected = mids
            let failed = try transformation.transform(&projected)
            guard failed == 0 else {
                throw StageError("\(failed) of \(mids.count) densified points cannot be projected with \(crs) (outside the projection's domain)")
            }
            // Which segments split, per ring (in segment order).
            var splits = rings.map { _ in [Int]() }
            var midOf: [[Int: (Point, Point)]] = rings.map { _ in [:] }
            for (n, s) in at.enumerated() {
                let ring = rings[s.ring]
                let a = ring.xy[s.seg], b = ring.xy[s.seg + 1], m = projected[n]
                let edge = onEdge(ring.lonLat[s.seg]) && onEdge(ring.lonLat[s.seg + 1])
                if depth < maxSplitDepth && MapProjection.chordDistance(m, a, b) > (edge ? edgeTolerance : curveTolerance) {
                    splits[s.ring].append(s.seg)
                    midOf[s.ring][s.seg] = (mids[n], m)
                }
            }
            for r in rings.indices {
                guard !splits[r].isEmpty else { open[r] = [Bool](repeating: false, count: open[r].count); continue }
                var ll: [Point] = [], pts: [Point] = [], op: [Bool] = []
                ll.reserveCapacity(rings[r].lonLat.count + splits[r].count)
                pts.reserveCapacity(ll.capacity); op.reserveCapacity(ll.capacity)
                for i in 0..<open[r].count {
                    ll.append(rings[r].lonLat[i]); pts.append(rings[r].xy[i])
                    if let m = midOf[r][i] {
                        ll.append(m.0); pts.append(m.1)
                        op += [true, true]
                    } else {
                        op.append(false)
                    }
                }
                ll.append(rings[r].lonLat[rings[r].lonLat.count - 1]); pts.append(rings[r].xy[rings[r].xy.count - 1])
                rings[r] = (ll, pts)
                open[r] = op
            }
        }
    }

    /// Distance from `m` to the segment a–b (to `a` when the segment has no length).
    @inline(__always) static func chordDistance(_ m: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        guard len2 > 0 else { return ((m.x - a.x) * (m.x - a.x) + (m.y - a.y) * (m.y - a.y)).squareRoot() }
        let t = max(0, min(1, ((m.x - a.x) * dx + (m.y - a.y) * dy) / len2))
        let px = a.x + t * dx - m.x, py = a.y + t * dy - m.y
        return (px * px + py * py).squareRoot()
    }

    public func project(_ point: Point, what: String) throws -> Point {
        var x = point.x
        while x < west { x += 360 }
        while x > west + 360 { x -= 360 }
        var pts = [Point(x, max(-maxLatitude, min(maxLatitude, point.y)))]
        guard try transformation.transform(&pts) == 0 else {
            throw StageError("the point (\(point.x), \(point.y)) cannot be projected with \(crs)")
        }
        return pts[0]
    }

    /// The map's outline (the edge of the projected globe) in map metres, as a closed ring,
    /// or nil when PROJ cannot project the edge (then the data's extent frames the map).
    public func outline(stepDegrees: Double = 0.5) -> Ring? {
        let w = west + Self.edgeNudge, e = west + 360 - Self.edgeNudge, l = maxLatitude
        var ring: Ring = []
        let nx = Int((360 / stepDegrees).rounded()), ny = Int((2 * l / stepDegrees).rounded(.up))
        for i in 0...nx { ring.append(Point(w + (e - w) * Double(i) / Double(nx), -l)) }
        for j in 1...ny { ring.append(Point(e, -l + 2 * l * Double(j) / Double(ny))) }
        for i in 1...nx { ring.append(Point(e - (e - w) * Double(i) / Double(nx), l)) }
        for j in 1...ny { ring.append(Point(w, l - 2 * l * Double(j) / Double(ny))) }
        guard (try? transformation.transform(&ring)) == 0 else { return nil }
        ring[ring.count - 1] = ring[0]
        return ring
    }
}

import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ
import GeoFormats

/// Prepares lon/lat rings for meshing on the sphere, so that every place two rings share an
/// edge they end up with exactly the same vertices (no T-junction cracks):
///   1. consecutive duplicate points are dropped;
///   2. edges on the antimeridian (both ends at lon ±180) get every "seam latitude" of the
///      feature inserted, so the two halves Natural Earth cut at ±180 (Fiji, Russia,
///      Antarctica's ±180 edges) carry the same vertices on both sides;
///   3. every edge is densified into equal pieces (interpolated in lon/lat from its
///      lexicographically smaller end, so both sides of a shared border compute bit-identical
///      points) until no piece spans more than `maxEdgeDegrees` on the sphere nor more than
///      `maxLonStep` degrees of longitude (the latter keeps triangles near the poles from folding).
public struct RingPreparation: Sendable {
    public var maxEdgeDegrees: Double
    public var maxLonStep: Double
    /// Latitudes of the feature's vertices on lon ±180, sorted.
    public var seamLatitudes: [Double]

    public init(maxEdgeDegrees: Double, maxLonStep: Double = 10, seamLatitudes: [Double] = []) {
        self.maxEdgeDegrees = maxEdgeDegrees
        self.maxLonStep = maxLonStep
        self.seamLatitudes = seamLatitudes
    }

    /// The sorted, de-duplicated latitudes of vertices at lon ±180 in these polygons.
    public static func seamLatitudes(of polygons: [Polygon]) -> [Double] {
        var s = Set<Double>()
        for poly in polygons { for ring in poly.rings { for p in ring where abs(p.x) == 180 { s.insert(p.y) } } }
        return s.sorted()
    }

    /// How many equal pieces the edge a→b needs (≥ 1). Symmetric in a and b.
    @inlinable public func pieces(_ a: Point, _ b: Point) -> Int {
        let dLon = abs(b.x - a.x)
        // Most edges are short: no path between a and b on the sphere (the great circle, the
        // lon/lat line) is longer than the lon/lat segment taken with cos(lat) = 1, so when that
        // is clearly under both limits the edge is one piece, with no trigonometry. The margin
        // covers the rounding of the angle computed below.
        let dLat = b.y - a.y
        if dLon <= maxLonStep && (dLon * dLon + dLat * dLat).squareRoot() <= maxEdgeDegrees * (1 - 1e-9) { return 1 }
        var n = 1
        if dLon > maxLonStep { n = Int((dLon / maxLonStep).rounded(.up)) }
        let ang = SphereMap.angleDegrees(SphereMap.unit(a), SphereMap.unit(b))
        // The lon/lat path is never shorter than the great circle; measure it along the
        // parallel nearer the equator to stay on the safe side.
        let cosLat = cos(min(abs(a.y), abs(b.y)) * Double.pi / 180)
        let path = max(ang, ((dLon * cosLat) * (dLon * cosLat) + (b.y - a.y) * (b.y - a.y)).squareRoot())
        if path > maxEdgeDegrees { n = max(n, Int((path / maxEdgeDegrees).rounded(.up))) }
        return n
    }

    /// Appends the interior points of edge a→b cut into `n` pieces (not a, not b).
    @inlinable static func appendInterior(_ a: Point, _ b: Point, _ n: Int, to out: inout [Point]) {
        guard n > 1 else { return }
        let forward = (a.x, a.y) < (b.x, b.y)
        let lo = forward ? a : b, hi = forward ? b : a
        let dx = hi.x - lo.x, dy = hi.y - lo.y
        let nd = Double(n)
        if forward {
            for i in 1..<n { let t = Double(i) / nd; out.append(Point(lo.x + dx * t, lo.y + dy * t)) }
        } else {
            for i in stride(from: n - 1, through: 1, by: -1) { let t = Double(i) / nd; out.append(Point(lo.x + dx * t, lo.y + dy * t)) }
        }
    }

    /// The prepared ring (closed) or nil when fewer than 3 distinct points remain.
    public func prepare(_ ring: Ring) -> Ring? {
        var pts: [Point] = []
        pts.reserveCapacity(ring.count + 8)
        for p in ring where pts.last != p { pts.append(p) }
        if pts.count > 1 && pts.first == pts.last { pts.removeLast() }
        guard pts.count >= 3 else { return nil }
        var out: [Point] = []
        out.reserveCapacity(pts.count * 2)
        var seam: [Point] = []
        for i in 0..<pts.count {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            out.append(a)
            // Antimeridian edge: split at the feature's other seam vertices between a and b.
            if a.x == b.x && abs(a.x) == 180 && !seamLatitudes.isEmpty {
                let lo = min(a.y, b.y), hi = max(a.y, b.y)
                seam.removeAll(keepingCapacity: true)
                seam.append(a)
                let inside = seamLatitudes.filter { $0 > lo && $0 < hi }
                for y in (a.y < b.y ? inside : inside.reversed()) { seam.append(Point(a.x, y)) }
                seam.append(b)
                for k in 0..<(seam.count - 1) {
                    if k > 0 { out.append(seam[k]) }
                    RingPreparation.appendInterior(seam[k], seam[k + 1], pieces(seam[k], seam[k + 1]), to: &out)
                }
            } else {
                RingPreparation.appendInterior(a, b, pieces(a, b), to: &out)
            }
        }
        out.append(out[0])
        return out
    }

    /// The polygon with every ring prepared; nil when the exterior vanishes. Holes that vanish are dropped.
    public func prepare(_ polygon: Polygon) -> Polygon? {
        guard let ext = prepare(polygon.exterior) else { return nil }
        var rings = [ext]
        for h in polygon.holes { if let r = prepare(h) { rings.append(r) } }
        return Polygon(rings: rings)
    }
}

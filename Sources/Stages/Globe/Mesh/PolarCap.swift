import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ
import GeoFormats

/// Natural Earth closes Antarctica's main ring with a detour: down the +180 meridian to the
/// South Pole, along the "pole line" lat −90 to −180, and back up the −180 meridian. The pole
/// line is not always at exactly ±90: the 1:50m data has it at −89.998926, so any point within
/// `poleTolerance` degrees of a pole counts as on the pole line. On the
/// sphere that detour has no area (the pole line is one point, the two meridians coincide), and
/// it would make the ring touch itself in any projection centred on the pole. `closeAroundPole`
/// cuts it out, so the ring becomes the coast loop around the pole, which the triangulation then
/// covers as a polar cap.
public enum PolarCap {
    /// The polygon with the pole detour removed from each ring that has one; other rings unchanged.
    public static func closeAroundPole(_ polygon: Polygon) -> Polygon {
        Polygon(rings: polygon.rings.map(closeRing))
    }

    /// How close (degrees of latitude) to a pole a point must be to count as on the pole line.
    public static let poleTolerance = 0.01

    static func onPoleLine(_ p: Point) -> Bool { abs(p.y) >= 90 - poleTolerance }
    static func onDetour(_ p: Point) -> Bool { onPoleLine(p) || abs(p.x) == 180 }

    public static func closeRing(_ ring: Ring) -> Ring {
        var pts = Array(ring.dropLast())
        guard let pole = pts.firstIndex(where: onPoleLine) else { return ring }
        let n = pts.count
        // The detour: the maximal cyclic block of meridian-±180 and pole points around `pole`.
        var first = pole, last = pole, steps = 0
        while onDetour(pts[(first - 1 + n) % n]) && steps < n { first = (first - 1 + n) % n; steps += 1 }
        while onDetour(pts[(last + 1) % n]) && steps < n { last = (last + 1) % n; steps += 1 }
        guard steps < n - 2 else { return ring }   // the whole ring is on the detour: leave it
        // A detour reaches the pole along a ±180 meridian: a block without one is a real vertex
        // near the pole, not Natural Earth's closing run.
        var reachesSeam = false
        var j = first
        while true { if abs(pts[j].x) == 180 { reachesSeam = true; break }; if j == last { break }; j = (j + 1) % n }
        guard reachesSeam else { return ring }
        // Keep the block's two ends (where the coast meets ±180), or one if they coincide on the sphere.
        let a = pts[first], b = pts[last]
        var kept: [Point] = [a]
        if SphereMap.unit(a) != SphereMap.unit(b) { kept.append(b) }
        var rotated: [Point] = []
        var i = (last + 1) % n
        while i != first { rotated.append(pts[i]); i = (i + 1) % n }
        pts = kept + rotated
        pts.append(pts[0])
        return pts
    }
}

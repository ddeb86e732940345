import Foundation
import Geodesy
import GeoModel

// Geometry on the sphere and at the antimeridian: the centre of a country from its own extent
// (so Fiji, Russia or Kiribati are not split into halves at ±180°), and joining the parts that
// Natural Earth cuts at ±180° back together.

public enum SphereCentre {
    /// The area-weighted mean direction of the polygons on the unit sphere, as lon/lat degrees.
    /// Each ring contributes the first moment of the cone from the Earth's centre over a fan
    /// of triangles around the ring's mean vertex; holes count negatively. Because it works on
    /// 3D vectors, longitude wrap-around plays no role: parts at 179°E and 179°W average to 180°.
    public static func of(_ polygons: [Polygon]) -> Point? {
        var sx = 0.0, sy = 0.0, sz = 0.0
        var vx = 0.0, vy = 0.0, vz = 0.0   // plain vertex mean, the fallback
        for poly in polygons {
            for (ri, ring) in poly.rings.enumerated() {
                let n = ring.count - 1          // closed ring: skip the repeated last point
                guard n >= 3 else { continue }
                var ux = [Double](repeating: 0, count: n + 1), uy = ux, uz = ux
                var cx = 0.0, cy = 0.0, cz = 0.0
                for i in 0...n {
                    let lon = ring[i].x * .pi / 180, lat = ring[i].y * .pi / 180
                    let c = cos(lat)
                    ux[i] = c * cos(lon); uy[i] = c * sin(lon); uz[i] = sin(lat)
                    if i < n { cx += ux[i]; cy += uy[i]; cz += uz[i] }
                }
                vx += cx; vy += cy; vz += cz
                let len = (cx * cx + cy * cy + cz * cz).squareRoot()
                guard len > 0 else { continue }
                cx /= len; cy /= len; cz /= len
                var rx = 0.0, ry = 0.0, rz = 0.0, w = 0.0
                for i in 0..<n {
                    let bx = ux[i], by = uy[i], bz = uz[i], dx = ux[i + 1], dy = uy[i + 1], dz = uz[i + 1]
                    // det(c, b, d) = c · (b × d): six times the signed cone volume.
                    let det = cx * (by * dz - bz * dy) + cy * (bz * dx - bx * dz) + cz * (bx * dy - by * dx)
                    rx += det * (cx + bx + dx); ry += det * (cy + by + dy); rz += det * (cz + bz + dz)
                    w += det
                }
                // Exteriors count positively, holes negatively, whatever the winding.
                let sign: Double = ((ri == 0) == (w >= 0)) ? 1 : -1
                sx += sign * rx; sy += sign * ry; sz += sign * rz
            }
        }
        var (x, y, z) = (sx, sy, sz)
        var len = (x * x + y * y + z * z).squareRoot()
        if !(len > 1e-12) { (x, y, z) = (vx, vy, vz); len = (x * x + y * y + z * z).squareRoot() }
        guard len > 1e-12 else { return nil }
        let lat = asin(max(-1, min(1, z / len))) * 180 / .pi
        let lon = abs(lat) > 89.999999 ? 0 : atan2(y, x) * 180 / .pi
        return Point(lon, lat)
    }
}

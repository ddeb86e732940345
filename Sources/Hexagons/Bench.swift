import Foundation
import GeoModel
import Geodesy
import H3

extension Hexagons {
    /// In-process timings of the H3 library on one core (bench/h3_speed.py): latLngToCell,
    /// cellToBoundary and polygonToCells of a ~5 km² loop; one line per measure.
    public static func bench(points: Int, cells: Int) throws -> [String] {
        var rng = SystemRandomNumberGenerator()
        var pts: [LatLng] = []
        pts.reserveCapacity(points)
        for _ in 0..<points {
            let z = Double.random(in: -1...1, using: &rng)
            pts.append(LatLng(lat: asin(z), lng: Double.random(in: -Double.pi..<Double.pi, using: &rng)))
        }
        // CPU time of this thread: the machine is shared, wall time would measure the neighbours.
        func now() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }
        var t0 = now()
        var acc: UInt64 = 0
        for (i, p) in pts.enumerated() { acc ^= try H3.latLngToCell(p, res: i % 16).value }
        let llps = Double(points) / (now() - t0)
        let ids = try pts.prefix(cells).enumerated().map { try H3.latLngToCell($0.element, res: $0.offset % 16) }
        var b = CellBoundary()
        t0 = now()
        var vsum = 0
        for h in ids { try H3.cellToBoundary(h, into: &b); vsum += b.count }
        let bps = Double(ids.count) / (now() - t0)
        // a ~5 km² loop (a wobbly circle of radius ≈1.26 km) in Zürich at res 9
        var loop: [LatLng] = []
        for i in 0..<64 {
            let a = Double(i) / 64 * 2 * Double.pi
            let r = 1.26 * (1 + 0.05 * sin(5 * a)) / Earth.meanRadiusKm
            loop.append(LatLng(lat: 47.3769 * Double.pi / 180 + r * sin(a), lng: 8.5417 * Double.pi / 180 + r * cos(a) / cos(47.3769 * Double.pi / 180)))
        }
        let poly = GeoPolygon(outer: loop)
        var n = 0
        let reps = 200
        t0 = now()
        for _ in 0..<reps { n = try H3.polygonToCells(poly, res: 9).count }
        let pms = (now() - t0) / Double(reps) * 1000
        return [
            "latLngToCell: \(Int(llps)) points/s (res 0-15 mixed) [\(acc & 1)]",
            "cellToBoundary: \(Int(bps)) cells/s [\(vsum)]",
            String(format: "polygonToCells 5 km² loop res 9: %.3f ms (%d cells)", pms, n),
        ]
    }
}

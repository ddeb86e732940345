import Foundation
import GeoModel
import Geodesy
import GeoPROJ
import H3
import SeededRandom
import Testing
@testable import TerritoryStage
@testable import TerritoryGame
import TerritoryRules

/// The fast number and orientation paths of the outputs must give exactly what the plain ones
/// give: the SQL and GeoJSON are compared byte for byte across builds.
@Suite struct TerritoryOutputsTests {
    /// The coordinate text as it was written before the fast path: k = (d·10⁷).rounded(), its
    /// decimals when k·10⁻⁷ is d, Swift's shortest round-trip form otherwise.
    static func reference(_ d: Double) -> String {
        let k = (d * 1e7).rounded()
        guard abs(k) < 9e15, k / 1e7 == d else { return d.description }
        let m = Int64(k).magnitude
        var frac = String(m % 10_000_000)
        frac = String(repeating: "0", count: 7 - frac.count) + frac
        while frac.hasSuffix("0") { frac.removeLast() }
        return (k < 0 ? "-" : "") + String(m / 10_000_000) + (frac.isEmpty ? "" : "." + frac)
    }

    static func written(_ d: Double) -> String {
        var w = JSONWriter(reserve: 0)
        w.withCoordText { $0.exact(d) }
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test func exactCoordinatesMatchTheReference() {
        var rng = SplitMix64(state: 22)
        var values: [Double] = [0, -0.0, 1, -1, 180, -180, 90, -90, 0.5e-7, -0.5e-7, 1.5e-7, 2.5e-7, 0.00000005,
                                13.4050001, -16.7900000, 179.9999999, 8.9999999e8, 9e8, -8.9999999e8, .leastNonzeroMagnitude * 2024 /* 1e-320, a subnormal */,
                                .infinity, -.infinity, .nan, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        for _ in 0..<200_000 {
            let grid = (Double(Int64(rng.next() % 3_600_000_000)) - 1_800_000_000) / 1e7  // on the 7-decimal grid
            values.append(grid)
            values.append(grid.nextUp)  // a GEOS crossing: off the grid
            values.append((rng.unit() - 0.5) * 1000)
            values.append(Double(Int64(rng.next() % 2_000_000_000) - 1_000_000_000) + 0.5)  // halves, for the rounding
            values.append((Double(Int64(rng.next() % 2_000_000_000)) - 1_000_000_000) / 1e7 + 0.5e-7)
        }
        var mismatches: [String] = []
        for d in values where Self.written(d) != Self.reference(d) { mismatches.append("\(d): \(Self.written(d)) ≠ \(Self.reference(d))") }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        // A WKT position writes both numbers and the space between, fallbacks included.
        var w = JSONWriter(reserve: 0)
        w.wktCoordinates(2) { $0 == 0 ? (13.4, 52.5000001) : (0.1.nextUp, -0.0) }
        #expect(String(decoding: w.bytes, as: UTF8.self) == "13.4 52.5000001,\(0.1.nextUp.description) 0")
    }

    /// The local-plane orientation must be PROJ's geodesic one for every cell: worldwide, at
    /// every resolution, across ±180°, near the poles, either way round.
    @Test func cellOrientationIsPROJs() throws {
        var rng = SplitMix64(state: 9)
        var cells: [H3Index] = []
        for res in 0...15 {
            for _ in 0..<400 {
                let lat = asin(2 * rng.unit() - 1) * 180 / .pi, lng = rng.unit() * 360 - 180
                cells.append(try H3.latLngToCell(LatLng(latDegrees: lat, lngDegrees: lng), res: res))
            }
            for (lat, lng) in [(89.99, 0.0), (-89.99, 45.0), (-16.79, 179.999), (-16.79, -179.999), (66.0, 180.0), (84.99, 10.0), (85.01, 10.0)] {
                cells.append(try H3.latLngToCell(LatLng(latDegrees: lat, lngDegrees: lng), res: res))
            }
            // Where the plane stretches most and still decides: 80°–86° of latitude.
            if (3...6).contains(res) {
                for _ in 0..<200 {
                    let lat = (80 + 6 * rng.unit()) * (rng.next() % 2 == 0 ? 1 : -1), lng = rng.unit() * 360 - 180
                    cells.append(try H3.latLngToCell(LatLng(latDegrees: lat, lngDegrees: lng), res: res))
                }
            }
        }
        // Counted from what the plane decided, so that the comparison is not PROJ's with itself.
        var planar = 0, planarNearPole = 0
        for c in cells {
            let ring = try H3.cellToBoundary(c).map { Point($0.lngDegrees, $0.latDegrees) }
            for r in [ring, ring.reversed()] {
                let proj = Geodesic.wgs84.ringArea(r) < 0
                #expect(H3Cell.clockwise(r) == proj, "cell \(c)")
                if let p = H3Cell.planarClockwise(r) {
                    #expect(p == proj, "cell \(c) in the plane")
                    planar += 1
                    if abs(r[0].y) > 80 { planarNearPole += 1 }
                }
            }
        }
        #expect(planar > cells.count, "\(planar) of \(2 * cells.count) rings decided in the plane")
        #expect(planarNearPole > 500, "\(planarNearPole) rings decided in the plane beyond 80°")
    }
}

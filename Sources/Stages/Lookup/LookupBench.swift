import Dispatch
import Foundation
import GeoLookup
import GeoModel
import SeededRandom

/// `geo-lookup bench` (make bench): size, load time and lookups per second of an index, on one
/// core. Loads the index `loads` times (median: reading the file, checking it, ready to
/// answer), then times country(at:) on one thread over `points` points uniform on the sphere,
/// and over as many points within 0.2° of the index's cities (where people log places: cells
/// with borders, coasts), best of 3 passes; and nearestCity(within: 25 km). Fixed seed.
extension LookupStage {
    /// One `(name, value)` per measure, in print order.
    public static func bench(index: String, points: Int, loads: Int) throws -> [(name: String, value: String)] {
        let url = URL(fileURLWithPath: index)
        var times: [Double] = []
        var lookup: GeoLookup!
        for _ in 0..<max(1, loads) {
            let t = DispatchTime.now().uptimeNanoseconds
            lookup = try GeoLookup(contentsOf: url)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6)
        }
        times.sort()
        var rng = SplitMix64(state: 20261122)
        func next() -> Double { rng.unit() }
        var uniform: [(Double, Double)] = [], nearCities: [(Double, Double)] = []
        for _ in 0..<points { uniform.append((asin(2 * next() - 1) * 180 / .pi, 360 * next() - 180)) }
        let cities = lookup.cities
        for _ in 0..<points {
            let c = cities[Int(next() * Double(cities.count)) % cities.count].coordinate
            nearCities.append((max(-90, min(90, c.latitude + 0.4 * next() - 0.2)), max(-180, min(180, c.longitude + 0.4 * next() - 0.2))))
        }
        func rate(_ pts: [(Double, Double)], _ body: (Double, Double) -> Bool) -> (Double, Int) {
            var best = 0.0, hits = 0
            for _ in 0..<3 {
                hits = 0
                let t = DispatchTime.now().uptimeNanoseconds
                for (la, lo) in pts where body(la, lo) { hits += 1 }
                let s = Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9
                best = max(best, Double(pts.count) / s)
            }
            return (best, hits)
        }
        let (u, uHits) = rate(uniform) { lookup.countryIndex(latitude: $0, longitude: $1) != nil }
        let (n, nHits) = rate(nearCities) { lookup.countryIndex(latitude: $0, longitude: $1) != nil }
        let (c, cHits) = rate(Array(nearCities.prefix(max(1, points / 10)))) { lookup.nearestCity(to: $0, $1, within: 25) != nil }
        return [
            ("index bytes", "\(lookup.byteCount)"),
            ("load ms (median of \(times.count))", String(format: "%.2f", times[times.count / 2])),
            ("country(at:) per s, uniform on the sphere (\(uHits) of \(points) in a country)", "\(Int(u))"),
            ("country(at:) per s, within 0.2° of cities (\(nHits) of \(points) in a country)", "\(Int(n))"),
            ("nearestCity(within: 25 km) per s, within 0.2° of cities (\(cHits) found)", "\(Int(c))"),
        ]
    }
}

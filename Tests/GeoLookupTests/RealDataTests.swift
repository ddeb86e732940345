import Foundation
import Testing
@testable import GeoLookup
import Geodesy

/// Slices of the real Natural Earth 1:10m map units (committed in data/natural-earth/),
/// indexed by the library's builder and checked against brute force written out here.
enum Slices {
    static let root: URL = {
        var u = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { u.deleteLastPathComponent() }
        return u
    }()

    struct Unit { let code: String; let rings: [[Coordinate]] }

    /// Map units by SU_A3 code, all rings as lon/lat coordinates.
    static let units: [String: Unit] = {
        let url = root.appendingPathComponent("data/natural-earth/ne_10m_admin_0_map_units.geojson")
        let json = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        var out: [String: Unit] = [:]
        for f in json["features"] as! [[String: Any]] {
            let code = (f["properties"] as! [String: Any])["SU_A3"] as! String
            let g = f["geometry"] as! [String: Any]
            let polys: [[[[Double]]]] = g["type"] as! String == "Polygon" ? [g["coordinates"] as! [[[Double]]]] : g["coordinates"] as! [[[[Double]]]]
            out[code] = Unit(code: code, rings: polys.flatMap { $0.map { $0.map { Coordinate(latitude: $0[1], longitude: $0[0]) } } })
        }
        return out
    }()

    static func index(_ codes: [String], cities: [LookupIndexBuilder.City] = []) throws -> (GeoLookup, [UInt8]) {
        var b = LookupIndexBuilder(countries: codes.map { LookupIndexBuilder.Country(code: $0, rings: units[$0]!.rings) }, cities: cities)
        let bytes = try b.build()
        return (try GeoLookup(data: Data(bytes)), bytes)
    }

    /// The Ligurian Sea and its shores: France, Monaco, Italy, the Vatican, San Marino, Switzerland.
    static let ligurian = ["FXX", "MCO", "ITA", "VAT", "SMR", "CHE"]
    static let ligurianIndex: (GeoLookup, [UInt8]) = try! index(ligurian)
}

/// Brute force on the same rings: even–odd point in polygon, and the nearest edge.
struct BruteForce {
    let units: [Slices.Unit]

    func contains(_ u: Slices.Unit, _ lat: Double, _ lon: Double) -> Bool {
        var inside = false
        for r in u.rings {
            var j = r.count - 1
            for i in 0..<r.count {
                let a = r[i], b = r[j]
                if (a.latitude > lat) != (b.latitude > lat),
                   lon < (b.longitude - a.longitude) * (lat - a.latitude) / (b.latitude - a.latitude) + a.longitude { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    /// (nearest km, its unit's code, nearest km of any other unit)
    func nearest(_ lat: Double, _ lon: Double) -> (Double, String, Double) {
        let p = Sphere.vector(latitude: lat, longitude: lon)
        var best = (Double.infinity, ""), other = [String: Double]()
        for u in units {
            var m = Double.infinity
            for r in u.rings {
                for i in 1..<r.count {
                    let a = r[i - 1], b = r[i]
                    if abs(a.latitude - lat) > 1 && abs(b.latitude - lat) > 1 { continue }
                    let d = Sphere.angleToArc(p, Sphere.vector(latitude: a.latitude, longitude: a.longitude), Sphere.vector(latitude: b.latitude, longitude: b.longitude))
                    m = min(m, d * Sphere.earthRadiusKm)
                }
            }
            other[u.code] = m
            if m < best.0 || (m == best.0 && u.code < best.1) { best = (m, u.code) }
        }
        let second = other.filter { $0.key != best.1 }.values.min() ?? .infinity
        return (best.0, best.1, second)
    }
}

@Suite struct GeoLookupRealDataTests {
    @Test func microstatesAndNeighbours() throws {
        let (g, _) = Slices.ligurianIndex
        #expect(g.country(at: 43.7384, 7.4246) == "MCO")   // Monaco
        #expect(g.country(at: 41.9029, 12.4534) == "VAT")  // St Peter's Square
        #expect(g.country(at: 43.9424, 12.4578) == "SMR")  // San Marino
        #expect(g.country(at: 43.7102, 7.2620) == "FXX")   // Nice
        #expect(g.country(at: 41.8967, 12.4822) == "ITA")  // Rome
        #expect(g.country(at: 46.2044, 6.1432) == "CHE")   // Geneva
        #expect(g.country(at: 40.0, 8.0) == nil)           // open sea west of Sardinia
    }

    @Test func twelveNauticalMiles() throws {
        let (g, _) = Slices.ligurianIndex
        let bf = BruteForce(units: Slices.ligurian.map { Slices.units[$0]! })
        // due south of Nice: 15 km out is France's; 40 km out (27 km from Cap d'Antibes) nobody's
        let at15 = (43.66 - 15 / 111.195, 7.25), at40 = (43.66 - 40 / 111.195, 7.25)
        #expect(bf.nearest(at15.0, at15.1).0 < 22.224 && bf.nearest(at15.0, at15.1).1 == "FXX")
        #expect(g.country(at: at15.0, at15.1) == "FXX")
        #expect(bf.nearest(at40.0, at40.1).0 > 22.224)
        #expect(g.country(at: at40.0, at40.1) == nil)
        // off Monaco the nearest coast is Monaco's own, though France surrounds it
        #expect(bf.nearest(43.72, 7.43).1 == "MCO")
        #expect(g.country(at: 43.72, 7.43) == "MCO")
    }

    /// Random points over the Ligurian Sea and its coasts: the index's answer equals brute
    /// force everywhere except within 100 m of a border, the buffer's edge or an equidistant line.
    @Test func equalsBruteForceAwayFromBorders() throws {
        let (g, _) = Slices.ligurianIndex
        let bf = BruteForce(units: Slices.ligurian.map { Slices.units[$0]! })
        var rng = SplitMix(seed: 16)
        var compared = 0
        for _ in 0..<400 {
            let lat = 42.5 + rng.unit() * 2.0, lon = 6.5 + rng.unit() * 3.0
            let (d1, owner, d2) = bf.nearest(lat, lon)
            if d1 < 0.1 || abs(d1 - 22.224) < 0.1 || d2 - d1 < 0.2 { continue }
            let inside = Slices.ligurian.filter { bf.contains(Slices.units[$0]!, lat, lon) }
            let want = inside.first ?? (d1 <= 22.224 ? owner : nil)
            #expect(g.country(at: lat, lon) == want, "at \(lat), \(lon)")
            compared += 1
        }
        #expect(compared > 300)
    }

    @Test func sameInputsSameBytes() throws {
        let (_, a) = Slices.ligurianIndex
        let (_, b) = try Slices.index(Slices.ligurian)
        #expect(a == b)
    }

    /// Fiji straddles 180°: points on both sides, on land and at sea, equal brute force
    /// (whose coast distance is on the sphere, so it wraps by itself).
    @Test func antimeridian() throws {
        let (g, _) = try Slices.index(["FJI"])
        let bf = BruteForce(units: [Slices.units["FJI"]!])
        #expect(g.country(at: -16.78, 179.33) == "FJI")   // Vanua Levu
        #expect(g.country(at: -10.0, -170.0) == nil)
        var rng = SplitMix(seed: 180)
        var atSeaNear = 0, compared = 0
        for _ in 0..<300 {
            let lat = -19.5 + rng.unit() * 3.5, lon0 = 179.0 + rng.unit() * 2.0
            let lon = lon0 > 180 ? lon0 - 360 : lon0
            let (d1, _, _) = bf.nearest(lat, lon)
            if d1 < 0.1 || abs(d1 - 22.224) < 0.1 { continue }
            let inside = bf.contains(Slices.units["FJI"]!, lat, lon)
            let want: String? = inside || d1 <= 22.224 ? "FJI" : nil
            #expect(g.country(at: lat, lon) == want, "at \(lat), \(lon)")
            if !inside && d1 <= 22.224 { atSeaNear += 1 }
            compared += 1
        }
        #expect(compared > 250 && atSeaNear > 10)
    }

    @Test func nearestCityEqualsBruteForce() throws {
        var cities: [LookupIndexBuilder.City] = []
        var rng = SplitMix(seed: 7)
        for i in 0..<3000 {
            let c = Coordinate(latitude: rng.unit() * 180 - 90, longitude: rng.unit() * 360 - 180)
            cities.append(.init(name: "C\(i)", countryCode: nil, coordinate: c, population: Int(rng.unit() * 1e6)))
        }
        let (g, _) = try Slices.index(["MCO"], cities: cities)
        for _ in 0..<300 {
            let p = Coordinate(latitude: rng.unit() * 180 - 90, longitude: rng.unit() * 360 - 180)
            for km in [50.0, 300.0, 2000.0] {
                let q = Coordinate(latitude: (p.latitude * 1e6).rounded() / 1e6, longitude: (p.longitude * 1e6).rounded() / 1e6)
                let want = g.cities.map { ($0, Sphere.distanceKm(q, $0.coordinate)) }.filter { $0.1 <= km }.min { $0.1 < $1.1 }?.0
                #expect(g.nearestCity(to: q, within: km)?.name == want?.name, "at \(q) within \(km)")
            }
        }
    }

    @Test func summaryOfPlaces() throws {
        let cities: [LookupIndexBuilder.City] = [
            .init(name: "Monaco", countryCode: "MCO", coordinate: Coordinate(latitude: 43.7396, longitude: 7.4069), population: 36371),
            .init(name: "Nice", countryCode: "FXX", coordinate: Coordinate(latitude: 43.7153, longitude: 7.2653), population: 927000),
        ]
        let (g, _) = try Slices.index(["FXX", "MCO", "ITA"], cities: cities)
        let s = g.summary(of: [Coordinate(latitude: 43.7384, longitude: 7.4246), Coordinate(latitude: 43.70, longitude: 7.26),
                               Coordinate(latitude: 43.71, longitude: 7.27), Coordinate(latitude: 38.0, longitude: 5.0)])
        #expect(s.countries == ["MCO", "FXX"])
        #expect(Set(s.cities.map(\.name)) == ["Monaco", "Nice"])
        #expect(g.cities.first { $0.name == "Nice" }?.countryCode == "FXX")
    }
}

/// A small deterministic generator, so a failing point reproduces.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

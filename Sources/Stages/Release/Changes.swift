import CalendarDay
import Foundation
import GeoModel
import GeoPROJ
import GeoLookup
import Parallelism

/// What changed between two releases (CONTRACTS §10): every change a user could see, none
/// hidden by a threshold; an unchanged country, city or day is absent.
public struct Changes {
    public struct Country: Sendable {
        public var id: String
        public var name: String
        /// "added", "removed" or "changed".
        public var status: String
        /// Hausdorff distance (km) between the old and new boundaries; nil when the geometry is the same.
        public var geometryKm: Double?
        public var areaPct: Double?
        public var areaKm2: (old: Double, new: Double)?
        /// Field → [old, new] (null where absent).
        public var fields: [(String, JSONValue, JSONValue)] = []
    }
    public struct QuizChange { public var date: String; public var old: String?; public var new: String? }
    public struct Quiz {
        public var added: [String] = []
        public var removed: [String] = []
        /// Days before the release's day whose question changed (must be none).
        public var pastChanged: [QuizChange] = []
        public var futureChanged: [QuizChange] = []
        /// Days from the release's day on whose answer is a country that changed: date, answer, what changed.
        public var answersChanged: [(date: String, question: String, answer: String, what: [String])] = []
    }
    public struct CityRef { public var id: Int; public var name: String; public var country: String }
    public struct Cities {
        public var added: [CityRef] = []
        public var retired: [CityRef] = []
        public var renamed: [(CityRef, String)] = []
        public var moved: [(CityRef, String)] = []
        /// Cities whose other columns changed (population, position, admin, alternate names).
        public var updated: [CityRef] = []
        /// The app's countries table: code → changed columns [old, new].
        public var countries: [(String, [(String, String?, String?)])] = []
    }
    public struct ProbePoint { public var lat: Double; public var lon: Double; public var old: String?; public var new: String? }
    public struct Lookup {
        public var points = 0
        public var countryDiffers = 0
        public var cityDiffers = 0
        public var examples: [ProbePoint] = []
        public var pairs: [(String, Int)] = []
    }
    public struct FileDelta { public var path: String; public var old: Int?; public var new: Int? }
    public struct Files {
        public var sizes: [FileDelta] = []
        public var changed: [String] = []
        public var added: [String] = []
        public var removed: [String] = []
    }

    public var previousLabel: String
    public var previousCommit: String?
    public var countries: [Country] = []
    public var quiz = Quiz()
    public var cities = Cities()
    public var lookup = Lookup()
    public var files = Files()
    public var tolerance: (old: String?, new: String?)

    /// "2 countries (PT 4.01 km, ES 4.01 km), 1 field, 0 quiz days, …": the one-line headline.
    public var headline: String {
        var parts: [String] = []
        let geo = countries.filter { $0.geometryKm != nil }
        let fieldCount = countries.reduce(0) { $0 + $1.fields.count }
        if countries.isEmpty { parts.append("no country changed") } else {
            let top = geo.sorted { ($0.geometryKm!, $1.id) > ($1.geometryKm!, $0.id) }.prefix(4)
                .map { "\($0.id) \(String(format: "%.2f", $0.geometryKm!)) km" }
            parts.append("\(countries.count) countr\(countries.count == 1 ? "y" : "ies") changed"
                         + (top.isEmpty ? "" : " (largest move: \(top.joined(separator: ", "))\(geo.count > 4 ? ", …" : ""))")
                         + (fieldCount > 0 ? ", \(fieldCount) field\(fieldCount == 1 ? "" : "s")" : ""))
        }
        parts.append("quiz: \(quiz.added.count) days added, \(quiz.futureChanged.count + quiz.pastChanged.count) changed")
        parts.append("cities: \(cities.added.count) added, \(cities.retired.count) retired, \(cities.renamed.count) renamed, \(cities.moved.count) moved")
        parts.append("lookup: \(lookup.countryDiffers) of \(formatCount(lookup.points)) probe points answer another country")
        return parts.joined(separator: "; ")
    }

    static let fieldKeys = ["name", "capital", "aliases", "capitalAliases", "continent", "renderAs", "capitalLat", "capitalLon"]

    static func compare(_ old: ReleaseSnapshot, _ new: ReleaseSnapshot, previousProducts: [String: FileRecord],
                        products: [String: FileRecord], day: Day, probePoints: Int, log: StageLog) throws -> Changes {
        var c = Changes(previousLabel: old.label, tolerance: (old.worldMeta["tolerance_km_exact"], new.worldMeta["tolerance_km_exact"]))
        c.countries = log.step("countries") { compareCountries(old.countries, new.countries) }
        c.quiz = compareQuiz(old.quiz, new.quiz, day: day, changed: Dictionary(uniqueKeysWithValues: c.countries.map { ($0.id, $0) }))
        c.cities = compareCities(old.cities, new.cities)
        for code in Set(old.cityCountries.keys).union(new.cityCountries.keys).sorted() {
            let a = old.cityCountries[code] ?? [], b = new.cityCountries[code] ?? []
            let diffs = ReleaseSnapshot.cityCountryColumns.indices.compactMap { i -> (String, String?, String?)? in
                let x = i < a.count ? a[i] : nil, y = i < b.count ? b[i] : nil
                return x == y ? nil : (ReleaseSnapshot.cityCountryColumns[i], x, y)
            }
            if !diffs.isEmpty { c.cities.countries.append((code, diffs)) }
        }
        c.lookup = try log.step("lookup probe of \(formatCount(probePoints)) points") { probe(try old.lookup(), try new.lookup(), points: probePoints) }
        c.files = compareFiles(previousProducts, products)
        return c
    }

    static func compareCountries(_ old: [Feature], _ new: [Feature]) -> [Country] {
        let before = Dictionary(uniqueKeysWithValues: old.map { ($0.id!, $0) })
        let after = Dictionary(uniqueKeysWithValues: new.map { ($0.id!, $0) })
        let ids = Set(before.keys).union(after.keys).sorted()
        let geodesic = Geodesic.wgs84
        // Each country on its own: the Hausdorff distances dominate and are independent.
        let results: [Country?] = parallelMap(ids.count, threads: 2) { i in
            let id = ids[i]
            let o = before[id], n = after[id]
            var c = Country(id: id, name: n?.string("name") ?? o?.string("name") ?? id, status: "changed")
            if o == nil { c.status = "added" } else if n == nil { c.status = "removed" }
            if let o, let n, o.geometry != n.geometry {
                c.geometryKm = BoundaryDistance.hausdorffKm(o.geometry, n.geometry)
                let a0 = geodesic.area(o.geometry) / 1e6, a1 = geodesic.area(n.geometry) / 1e6
                c.areaKm2 = (a0, a1)
                c.areaPct = a0 > 0 ? (a1 - a0) / a0 * 100 : nil
            }
            for key in fieldKeys {
                let a = o?.properties[key] ?? .null, b = n?.properties[key] ?? .null
                if a != b { c.fields.append((key, a, b)) }
            }
            return c.status == "changed" && c.geometryKm == nil && c.fields.isEmpty ? nil : c
        }
        return results.compactMap { $0 }
    }

    static func compareQuiz(_ old: [String: ReleaseSnapshot.QuizDay], _ new: [String: ReleaseSnapshot.QuizDay], day: Day,
                            changed: [String: Country]) -> Quiz {
        var q = Quiz()
        let label = { (d: ReleaseSnapshot.QuizDay?) in d.map { "\($0.type): \($0.answer)" } }
        for date in Set(old.keys).union(new.keys).sorted() {
            let a = old[date], b = new[date]
            if a == nil { q.added.append(date) } else if b == nil { q.removed.append(date) } else if a != b {
                let change = QuizChange(date: date, old: label(a), new: label(b))
                if let d = Day(iso: date), d < day { q.pastChanged.append(change) } else { q.futureChanged.append(change) }
            }
            if let b, let d = Day(iso: date), d >= day, let country = changed[b.answer] {
                var what = country.fields.map(\.0)
                if country.geometryKm != nil { what.insert("geometry", at: 0) }
                q.answersChanged.append((date, b.type, b.answer, what))
            }
        }
        // A day removed before the release's day is a past day changed too.
        for date in q.removed { if let d = Day(iso: date), d < day { q.pastChanged.append(QuizChange(date: date, old: label(old[date]), new: nil)) } }
        return q
    }

    static func compareCities(_ old: [Int: ReleaseSnapshot.City], _ new: [Int: ReleaseSnapshot.City]) -> Cities {
        var c = Cities()
        for id in Set(old.keys).union(new.keys).sorted() {
            let a = old[id], b = new[id]
            let ref = CityRef(id: id, name: (b ?? a)!.name, country: (b ?? a)!.country)
            guard let a, let b else { if a == nil { c.added.append(ref) } else { c.retired.append(ref) }; continue }
            if a.name != b.name { c.renamed.append((CityRef(id: id, name: a.name, country: a.country), b.name)) }
            if a.country != b.country { c.moved.append((CityRef(id: id, name: b.name, country: a.country), b.country)) }
            if a.name == b.name && a.country == b.country && a.row != b.row { c.updated.append(ref) }
        }
        return c
    }

    /// `n` points of a Fibonacci lattice: even over the sphere, the same every run.
    static func probePoints(_ n: Int) -> [Coordinate] {
        let golden = Double.pi * (3 - 5.0.squareRoot())
        return (0..<n).map { i in
            let z = 1 - (Double(i) + 0.5) * 2 / Double(n)
            var lon = (Double(i) * golden).truncatingRemainder(dividingBy: 2 * .pi) * 180 / .pi
            if lon > 180 { lon -= 360 }
            return Coordinate(latitude: asin(z) * 180 / .pi, longitude: lon)
        }
    }

    static func probe(_ old: GeoLookup, _ new: GeoLookup, points n: Int) -> Lookup {
        var l = Lookup(points: n)
        let points = probePoints(n)
        let answers: [(String?, String?, Int?, Int?)] = parallelMap(n, threads: 2) { i in
            let p = points[i]
            return (old.country(at: p), new.country(at: p),
                    old.nearestCity(to: p, within: GeoLookup.defaultCityRadiusKm)?.id, new.nearestCity(to: p, within: GeoLookup.defaultCityRadiusKm)?.id)
        }
        var pairs: [String: Int] = [:]
        for (i, a) in answers.enumerated() {
            if a.0 != a.1 {
                l.countryDiffers += 1
                pairs["\(a.0 ?? "sea") → \(a.1 ?? "sea")", default: 0] += 1
                if l.examples.count < 20 { l.examples.append(ProbePoint(lat: points[i].latitude, lon: points[i].longitude, old: a.0, new: a.1)) }
            }
            if a.2 != a.3 { l.cityDiffers += 1 }
        }
        l.pairs = pairs.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        return l
    }

    /// The app's big files' sizes, and which products changed.
    static let sizeTracked = ["globe.glb", "globe.usdz", "lookup/lookup.bin"]

    static func compareFiles(_ old: [String: FileRecord], _ new: [String: FileRecord]) -> Files {
        var f = Files()
        f.sizes = sizeTracked.map { FileDelta(path: $0, old: old[$0]?.bytes, new: new[$0]?.bytes) }
        let isProduct = { (p: String) in !ReleaseFiles.releaseOwn.contains(p) && !p.hasPrefix("inspect/") }
        for p in Set(old.keys).union(new.keys).sorted() where isProduct(p) {
            switch (old[p], new[p]) {
            case (nil, _): f.added.append(p)
            case (_, nil): f.removed.append(p)
            case let (a?, b?) where a != b: f.changed.append(p)
            default: break
            }
        }
        return f
    }
}

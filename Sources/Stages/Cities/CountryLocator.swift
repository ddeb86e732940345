// Which app country a city lies in: the country of world.geojson whose polygon holds its point,
// cross-checked with GeoNames' country code. Polygons are GEOS prepared geometries found
// through a 1° grid of their parts' bounding boxes, so a city is tested against the one to
// three countries whose boxes cover its cell, not against all 206.

import Foundation
import GeoModel
import GeoGEOS

extension CitiesStage {
    /// How a city's country was decided. `agree` is the common case; every other kind is a
    /// disagreement between the polygons and GeoNames, resolved by the rule its name gives.
    public enum Resolution: String, Sendable, CaseIterable, Comparable {
        /// The polygon holding the point is the country GeoNames names.
        case agree
        /// GeoNames names a point country (drawn as a dot, its land given to a neighbour's
        /// polygon) and the city lies within the point radius of it: the point country.
        case pointCountry = "point-country"
        /// GeoNames' code is not an app country (a territory the app folds into another,
        /// CONTRACTS §1): the country whose polygon holds the point.
        case foldedTerritory = "folded-territory"
        /// Another country's polygon holds the point, but GeoNames' country is within the
        /// border tolerance: a simplified border; GeoNames' country is kept.
        case nearBorder = "near-border"
        /// Another country's polygon holds the point, and GeoNames' country is farther than
        /// the border tolerance: the polygon's country.
        case otherPolygon = "other-polygon"
        /// No polygon holds the point (a coastal city just outside the simplified coast) and
        /// GeoNames' country is within the coastal tolerance: GeoNames' country.
        case coast
        /// No polygon holds the point and GeoNames' code is a territory of data/territories.tsv
        /// (its land not drawn by the app): the sovereign country, the territory as admin part.
        case territory
        /// No polygon holds the point and GeoNames' country is no app country or is farther:
        /// the nearest polygon within the coastal tolerance.
        case coastNearest = "coast-nearest"
        /// No polygon within the tolerance (an island dropped by the simplification), but
        /// GeoNames' country is an app country: GeoNames' country.
        case sourceOnly = "source-only"
        /// No polygon within the tolerance and GeoNames' code is no app country: the city is
        /// left out (listed in the report).
        case dropped

        public static func < (a: Resolution, b: Resolution) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    public struct Placement: Sendable, Equatable {
        /// Index into the locator's countries; nil when the city is dropped.
        public var country: Int?
        public var resolution: Resolution
        /// The country whose polygon holds the point, if any (for the report).
        public var polygon: String?
        /// Distance (km) that decided a tolerance rule, if one did.
        public var km: Double?
        /// The admin part the rule gives (the territory's name), replacing GeoNames' admin-1.
        public var admin: String? = nil
    }

    /// A territory of data/territories.tsv: its sovereign app country and its name.
    public struct Territory: Sendable, Equatable {
        public var sovereign: String
        public var name: String
    }

    public struct Tolerances: Sendable {
        public var borderKm: Double
        public var coastalKm: Double
        public var pointRadiusKm: Double
    }

    /// One app country of world.geojson.
    public struct AppCountry: Sendable {
        public var code: String
        public var name: String
        public var capital: String?
        public var continent: String
        /// Set for point countries (renderAs "point").
        public var point: Point?
    }

    final class CountryLocator {
        let countries: [AppCountry]
        let index: [String: Int]
        private let geos: GEOSContext
        private let geometry: [GEOSGeometry?]
        private let prepared: [GEOSPreparedGeometry?]
        /// 360 × 180 cells of 1°: the polygon countries whose parts' boxes touch each cell.
        private let grid: [[Int32]]

        init(world: [Feature], file: String) throws {
            let geos = GEOSContext()
            self.geos = geos
            var countries: [AppCountry] = []
            var geometry: [GEOSGeometry?] = []
            var prepared: [GEOSPreparedGeometry?] = []
            var grid = [[Int32]](repeating: [], count: 360 * 180)
            for (i, f) in world.enumerated() {
                let code = try CountryID.require(f, index: i, file: file)
                let ref = FeatureRef(index: i, name: f.string("name"), id: code)
                guard let continent = f.string("continent"), !continent.isEmpty else {
                    throw InputError(file: file, feature: ref, "has no continent")
                }
                var c = AppCountry(code: code, name: f.string("name") ?? code, capital: f.string("capital"), continent: continent, point: nil)
                if case .point(let p) = f.geometry {
                    c.point = p
                    geometry.append(nil); prepared.append(nil)
                } else {
                    let g = try forFeature(file: file, ref) { try geos.geometry(f.geometry) }
                    geometry.append(g)
                    prepared.append(try forFeature(file: file, ref) { try GEOSPreparedGeometry(g) })
                    for part in f.geometry.polygons {
                        guard let box = Geometry.polygon(part).boundingBox else { continue }
                        let (c0, r0) = Self.cell(Point(box.minX, box.minY)), (c1, r1) = Self.cell(Point(box.maxX, box.maxY))
                        for r in r0...r1 { for col in c0...c1 {
                            let k = r * 360 + col
                            if grid[k].last != Int32(countries.count) { grid[k].append(Int32(countries.count)) }
                        } }
                    }
                }
                countries.append(c)
            }
            self.countries = countries
            self.grid = grid
            self.geometry = geometry
            self.prepared = prepared
            var index: [String: Int] = [:]
            for (i, c) in countries.enumerated() { index[c.code] = i }
            self.index = index
        }

        static func cell(_ p: Point) -> (Int, Int) {
            (min(max(Int((p.x + 180).rounded(.down)), 0), 359), min(max(Int((p.y + 90).rounded(.down)), 0), 179))
        }

        /// The polygon country holding `p` (the first by file order if borders overlap).
        func containing(_ p: Point, _ g: GEOSGeometry) throws -> Int? {
            let (c, r) = Self.cell(p)
            for i in grid[r * 360 + c] where try prepared[Int(i)]!.contains(g) { return Int(i) }
            return nil
        }

        /// Kilometres from `p` to country `i` (its polygon, or its point).
        func distanceKm(_ p: Point, _ g: GEOSGeometry, to i: Int) throws -> Double {
            if let q = countries[i].point { return Self.haversineKm(p, q) }
            let (near, _) = try geometry[i]!.nearestPoints(g)
            return Self.haversineKm(p, near)
        }

        /// The nearest polygon country within `km` of `p`, found among the grid cells that
        /// distance can reach.
        func nearestPolygon(_ p: Point, _ g: GEOSGeometry, withinKm km: Double) throws -> (Int, Double)? {
            let dLat = km / 111.0 + 1
            let cosLat = cos(min(abs(p.y) + dLat, 89.9) * .pi / 180)
            let dLon = min(km / (111.0 * max(cosLat, 1e-6)) + 1, 180)
            let (c0, r0) = Self.cell(Point(p.x - dLon, p.y - dLat)), (c1, r1) = Self.cell(Point(p.x + dLon, p.y + dLat))
            var candidates = Set<Int32>()
            // Near the antimeridian the columns wrap round.
            let wraps = p.x - dLon < -180 || p.x + dLon > 180
            for r in r0...r1 {
                if wraps { for col in 0..<360 { candidates.formUnion(grid[r * 360 + col]) } }
                else { for col in c0...c1 { candidates.formUnion(grid[r * 360 + col]) } }
            }
            var best: (Int, Double)?
            for i in candidates.sorted() {
                let d = try distanceKm(p, g, to: Int(i))
                if d <= km, best == nil || d < best!.1 { best = (Int(i), d) }
            }
            return best
        }

        func place(_ city: SourceCity, _ t: Tolerances, territories: [String: Territory] = [:]) throws -> Placement {
            let p = city.point
            let g = try geos.point(p)
            let hit = try containing(p, g)
            let polygon = hit.map { countries[$0].code }
            let source = index[city.countryCode]
            if let s = source, countries[s].point != nil {
                let d = try distanceKm(p, g, to: s)
                if d <= t.pointRadiusKm { return Placement(country: s, resolution: .pointCountry, polygon: polygon, km: d) }
            }
            if let h = hit {
                if h == source { return Placement(country: h, resolution: .agree, polygon: polygon, km: nil) }
                guard let s = source else { return Placement(country: h, resolution: .foldedTerritory, polygon: polygon, km: nil) }
                if countries[s].point == nil {
                    let d = try distanceKm(p, g, to: s)
                    if d <= t.borderKm { return Placement(country: s, resolution: .nearBorder, polygon: polygon, km: d) }
                    return Placement(country: h, resolution: .otherPolygon, polygon: polygon, km: d)
                }
                return Placement(country: h, resolution: .otherPolygon, polygon: polygon, km: nil)
            }
            if let s = source, countries[s].point == nil {
                let d = try distanceKm(p, g, to: s)
                if d <= t.coastalKm { return Placement(country: s, resolution: .coast, polygon: nil, km: d) }
            }
            if source == nil, let terr = territories[city.countryCode], let s = index[terr.sovereign] {
                return Placement(country: s, resolution: .territory, polygon: nil, km: nil, admin: terr.name)
            }
            if let (n, d) = try nearestPolygon(p, g, withinKm: t.coastalKm) {
                return Placement(country: n, resolution: .coastNearest, polygon: nil, km: d)
            }
            if let s = source { return Placement(country: s, resolution: .sourceOnly, polygon: nil, km: nil) }
            return Placement(country: nil, resolution: .dropped, polygon: nil, km: nil)
        }

        static func haversineKm(_ a: Point, _ b: Point) -> Double {
            let r = 6371.0088, rad = Double.pi / 180
            let dLat = (b.y - a.y) * rad, dLon = (b.x - a.x) * rad
            let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.y * rad) * cos(b.y * rad) * sin(dLon / 2) * sin(dLon / 2)
            return 2 * r * asin(min(1, h.squareRoot()))
        }
    }
}

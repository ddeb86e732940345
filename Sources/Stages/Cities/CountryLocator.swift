// Which app country a city lies in: the country of world.geojson whose polygon holds its point
// (GeoGEOS' CountryIndex), cross-checked with GeoNames' country code by the rules below.

import Foundation
import GeoModel
import Geodesy
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
        /// Other names of the country (world.geojson's `aliases`: UK, Great Britain, Czech Republic).
        public var aliases: [String] = []
        /// Set for point countries (renderAs "point").
        public var point: Point?
    }

    final class CountryLocator {
        let countries: [AppCountry]
        let index: [String: Int]
        /// The polygons and points of `countries`, in the same order.
        private let shapes: CountryIndex

        init(world: [Feature], file: String) throws {
            var countries: [AppCountry] = []
            for (i, f) in world.enumerated() {
                let code = try CountryID.require(f, index: i, file: file)
                let ref = FeatureRef(index: i, name: f.string("name"), id: code)
                guard let continent = f.string("continent"), !continent.isEmpty else {
                    throw InputError(file: file, feature: ref, "has no continent")
                }
                var c = AppCountry(code: code, name: f.string("name") ?? code, capital: f.string("capital"), continent: continent, point: nil)
                if case .point(let p) = f.geometry { c.point = p }
                c.aliases = (f.properties["aliases"]?.arrayValue ?? []).compactMap(\.stringValue)
                countries.append(c)
            }
            self.countries = countries
            shapes = try CountryIndex(zip(countries, world).map { ($0.code, $1.geometry) }, file: file) {
                FeatureRef(index: $0, name: world[$0].string("name"), id: countries[$0].code)
            }
            var index: [String: Int] = [:]
            for (i, c) in countries.enumerated() { index[c.code] = i }
            self.index = index
        }

        func place(_ city: SourceCity, _ t: Tolerances, territories: [String: Territory] = [:]) throws -> Placement {
            let g = try shapes.probe(city.point)
            let hit = try shapes.containing(g)
            let polygon = hit.map { countries[$0].code }
            let source = index[city.countryCode]
            if let s = source, countries[s].point != nil {
                let d = try shapes.distanceKm(g, to: s)
                if d <= t.pointRadiusKm { return Placement(country: s, resolution: .pointCountry, polygon: polygon, km: d) }
            }
            if let h = hit {
                if h == source { return Placement(country: h, resolution: .agree, polygon: polygon, km: nil) }
                guard let s = source else { return Placement(country: h, resolution: .foldedTerritory, polygon: polygon, km: nil) }
                if countries[s].point == nil {
                    let d = try shapes.distanceKm(g, to: s)
                    if d <= t.borderKm { return Placement(country: s, resolution: .nearBorder, polygon: polygon, km: d) }
                    return Placement(country: h, resolution: .otherPolygon, polygon: polygon, km: d)
                }
                return Placement(country: h, resolution: .otherPolygon, polygon: polygon, km: nil)
            }
            if let s = source, countries[s].point == nil {
                let d = try shapes.distanceKm(g, to: s)
                if d <= t.coastalKm { return Placement(country: s, resolution: .coast, polygon: nil, km: d) }
            }
            if source == nil, let terr = territories[city.countryCode], let s = index[terr.sovereign] {
                return Placement(country: s, resolution: .territory, polygon: nil, km: nil, admin: terr.name)
            }
            if let (n, d) = try shapes.nearestPolygon(g, withinKm: t.coastalKm) {
                return Placement(country: n, resolution: .coastNearest, polygon: nil, km: d)
            }
            if let s = source { return Placement(country: s, resolution: .sourceOnly, polygon: nil, km: nil) }
            return Placement(country: nil, resolution: .dropped, polygon: nil, km: nil)
        }
    }
}

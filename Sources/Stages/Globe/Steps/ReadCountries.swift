import Foundation
import GeoModel
import Geodesy

extension GlobeStage {
    /// Reads the countries: polygons, point countries and capitals (checked), sorted by id.
    static func readCountries(_ o: Options, log: StageLog) throws -> Countries {
        let features = try log.step("read \(o.input)") { try CountryFile.read(path: o.input) }
        var polygonal: [(index: Int, id: String, polygons: [Polygon])] = []
        var points: [PointCountry] = []
        var capitals: [(id: String, at: Point)] = []
        for (i, f) in features.enumerated() {
            let id = f.id!  // CountryFile.read: a valid, unique ISO code, which names the globe node
            let ref = FeatureRef(index: i, name: f.string("name"), id: id)
            switch f.geometry {
            case .point(let p): points.append(PointCountry(id: id, at: p))
            case .polygon, .multiPolygon: polygonal.append((i, id, f.geometry.polygons))
            }
            let lat = f.double("capitalLat"), lon = f.double("capitalLon")
            if let lat, let lon {
                guard abs(lat) <= 90, abs(lon) <= 180 else { throw InputError(file: o.input, feature: ref, "capital position (\(lat), \(lon)) is out of range") }
                capitals.append((id, Point(lon, lat)))
            } else if (lat == nil) != (lon == nil) {
                throw InputError(file: o.input, feature: ref, "has only one of capitalLat / capitalLon")
            }
        }
        polygonal.sort { $0.id < $1.id }
        points.sort { $0.id < $1.id }
        capitals.sort { $0.id < $1.id }
        return Countries(features: features, polygonal: polygonal, points: points, capitals: capitals)
    }
}

import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ

extension WorldStage {
    /// Point countries at their capital, or at the inner point of their largest part;
    /// the input's points as they are. Fills the remaining `geometries` and returns, by feature
    /// index, where each point came from ("capital", "largest part", "input"; nil when drawn).
    static func placePoints(_ decision: PointCountries.Decision, polygons: [[Polygon]], _ countries: CountrySet,
                            geometries: inout [Geometry?]) throws -> [String?] {
        let ctx = GEOSContext()
        var pointFrom = [String?](repeating: nil, count: countries.features.count)
        for (c, fi) in countries.areal.enumerated() where decision.isPoint[c] {
            let f = countries.features[fi]
            if let lat = f.double("capitalLat"), let lon = f.double("capitalLon") {
                geometries[fi] = .point(Point(lon, lat)); pointFrom[fi] = "capital"
            } else {
                let largest = polygons[c].max { Geodesic.wgs84.area($0) < Geodesic.wgs84.area($1) }!
                geometries[fi] = .point(try forFeature(file: countries.file, countries.refs[fi]) {
                    try ctx.polygon(largest).pointOnSurface()
                }); pointFrom[fi] = "largest part"
            }
        }
        for (fi, f) in countries.features.enumerated() where geometries[fi] == nil {
            geometries[fi] = f.geometry; pointFrom[fi] = "input"  // already a point in the input
        }
        return pointFrom
    }
}

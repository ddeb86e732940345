import Foundation
import GeoModel
import GeoPROJ

extension MapStage {
    /// Each feature cut at the map's edge and projected; a country with nothing inside the map is an error naming it.
    static func projectFeatures(_ features: [Feature], ids: [String], _ map: MapProjection, _ o: Options, report: inout Report, log: StageLog) throws -> [Feature] {
        var projected: [Feature] = []
        projected.reserveCapacity(features.count)
        try log.step("cut and project \(features.count) features") {
            for (i, f) in features.enumerated() {
              let ref = FeatureRef(index: i, name: f.string("name"), id: ids[i])
              let what = "\(o.input): \(ref)"
              try forFeature(file: o.input, ref) {
                report.verticesIn += f.geometry.vertexCount
                switch f.geometry {
                case .point(let p):
                    report.points += 1
                    projected.append(Feature(id: f.id, properties: f.properties, geometry: .point(try map.project(p, what: what))))
                case .polygon, .multiPolygon:
                    report.polygons += 1
                    let polys = f.geometry.polygons
                    let pieces = try map.cut(polys)
                    if pieces.count != polys.count { report.countriesCut.append(ids[i]) }
                    let out = try map.project(pieces, what: what)
                    guard !out.isEmpty else { throw InputError(file: o.input, feature: ref, "nothing of the geometry lies inside the map") }
                    projected.append(Feature(id: f.id, properties: f.properties, geometry: .areal(out)))
                }
              }
            }
        }

        if !map.repairedPolygons.isEmpty {
            log.info("repaired \(map.repairedPolygons.count) polygons whose projected edges crossed (near-touching input edges): " + map.repairedPolygons.joined(separator: "; "))
        }
        return projected
    }
}

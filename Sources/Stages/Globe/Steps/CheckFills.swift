import Foundation
import GeoModel

extension GlobeStage {
    /// What is written of each fill: float32 positions relative to each node's centre,
    /// triangles checked in float32. A country left with no triangle is an error naming it.
    static func fills(_ o: Options, _ countries: Countries, _ meshes: [CountryMesh], log: StageLog) throws -> [FillNodeGeometry] {
        let (features, polygonal) = (countries.features, countries.polygonal)
        let fills = meshes.map { FillNodeGeometry($0, radius: o.fillRadius) }
        for (ci, m) in meshes.enumerated() where m.triangleCount == 0 || fills[ci].triangleCount == 0 {
            let c = polygonal[ci]
            let ref = FeatureRef(index: c.index, name: features[c.index].string("name"), id: c.id)
            throw InputError(file: o.input, feature: ref, m.triangleCount == 0
                ? "meshes to no triangles: its polygons have no area on the sphere"
                : "meshes to no triangles that face outward once written as float32 (smaller than float32 can show)")
        }
        let flipped = meshes.indices.filter { fills[$0].droppedInFloat32 > 0 }
        if !flipped.isEmpty {
            log.info("left out slivers that float32 turns inward or flat: " + flipped.map { "\(meshes[$0].id) \(fills[$0].droppedInFloat32)" }.joined(separator: ", "))
        }
        return fills
    }
}

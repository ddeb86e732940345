import GeoModel

extension MapStage {
    /// The projected GeoJSON, with the projection, its central meridian and the extent as members.
    static func writeGeoJSON(_ projected: [Feature], _ map: MapProjection, frame: BoundingBox, _ o: Options, log: StageLog) throws {
        var members = JSONObject()
        members["projection"] = .string(o.projection)
        members["centralMeridian"] = .number(map.centralMeridian)
        members["extent"] = .array([frame.minX, frame.minY, frame.maxX, frame.maxY].map { .number(($0 * 10).rounded() / 10) })
        try log.step("write \(o.outputGeoJSON)") {
            try GeoJSON.write(projected, to: o.outputGeoJSON, decimals: o.geojsonDecimals, members: members)
        }
    }
}

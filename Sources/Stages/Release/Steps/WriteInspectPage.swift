import GeoModel

extension ReleaseStage {
    /// The inspection page of the release, from the products already read (nothing read twice).
    static func writeInspectPage(_ o: Options, _ current: ReleaseSnapshot, staging: String, log: StageLog) throws {
        try log.step("inspect page") {
            var io = InspectStage.Options.forProducts(root: staging, worldReport: staging + "/" + ReleaseFiles.worldReportPath)
            io.out = staging + "/inspect"
            io.changes = staging + "/changes.json"
            io.leaflet = o.leaflet
            _ = try InspectStage.run(io, products: current.products, log: log)
        }
    }
}

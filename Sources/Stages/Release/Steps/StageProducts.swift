import GeoModel

extension ReleaseStage {
    /// The products copied into `staging`, read as a release, and their SHA-256 list.
    static func stageProducts(_ o: Options, staging: String, log: StageLog) throws -> (current: ReleaseSnapshot, products: [String: FileRecord]) {
        try log.step("copy the products of \(o.dist)") { try ReleaseFiles.copyProducts(from: o.dist, to: staging, worldReport: o.worldReport) }
        let current = try log.step("read the release") {
            do { return try ReleaseSnapshot(root: staging, label: o.out) } catch var e as InputError {
                e.file = sourceOf(e.file, staging: staging, o)
                throw e
            }
        }
        let productList = try log.step("sha256 of the products") { try ReleaseFiles.list(staging) }
        return (current, productList)
    }
}

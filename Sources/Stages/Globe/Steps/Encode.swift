import Foundation
import GeoModel
import GeoFormats
import Parallelism

extension GlobeStage {
    /// Encodes the glTF scene, the USD package (with `usdz`) and the manifest.
    static func encode(_ g: Globe, _ o: Options, log: StageLog) throws -> Files {
        let (meshes, fills, points, capitals, sectors, markers) = (g.meshes, g.fills, g.points, g.capitals, g.sectors, g.markers)
        let verts = g.vertexCount
        // The glTF and the USD encodings of the same meshes are independent. Each holds about
        // its file's size while it is built (130 MB at 2 M fill vertices): side by side on two
        // threads while the globe is small, one after the other past `sideBySideVertices`, so
        // that the peak stays bounded. Both come out in parts, written without joining.
        enum Encoded { case gltf(glb: [[UInt8]], stats: [String: NodeStats]), usdz([[UInt8]]) }
        @Sendable func encode(_ k: Int) throws -> Encoded {
            if k == 0 {
                let s = log.step("glTF scene") { buildScene(o, meshes: meshes, fills: fills, points: points, capitals: capitals, sectors: sectors, markers: markers) }
                return .gltf(glb: s.glb, stats: s.stats)
            }
            // Every name is checked against USD's identifier rules: a name that is not one is
            // refused, never written as a prim path. The layer is dropped once encoded.
            let crate: [UInt8] = try {
                let layer = log.step("USD scene") { GlobeUSD.layer(o, meshes: meshes, fills: fills, points: points, capitals: capitals, sectors: sectors, markers: markers) }
                return try log.step("USD crate encoding") { try forFile(o.input) { try USDCrate.encode(layer) } }
            }()
            return .usdz(try log.step("usdz package") { try forFile(o.input) { try USDZPackage.archiveParts([(usdRootLayer(o.usdz!), crate)]) } })
        }
        // One after the other, the USD first: its layer and crate are dropped before the glTF
        // buffer grows, and only the finished package (its file's size) is held meanwhile.
        let encoders = o.usdz == nil ? [0] : [0, 1]
        let encoded = verts <= sideBySideVertices
            ? try Parallel.map(encoders, workers: min(2, max(1, o.threads)), makeState: { () }) { k, _ in try encode(k) }
            : try encoders.reversed().map(encode).reversed()
        guard case .gltf(let glb, let stats) = encoded[0] else { preconditionFailure("the glTF encoding comes first") }
        var usdz: [[UInt8]]?
        if encoded.count > 1, case .usdz(let parts) = encoded[1] { usdz = parts }
        let manifest = buildManifest(o, meshes: meshes, points: points, capitals: capitals, sectors: sectors, nodeStats: stats)
        return Files(glb: glb, usdz: usdz, manifest: manifest)
    }

    /// Fill vertices up to which the glTF and USD encodings run side by side (see `encode`).
    static let sideBySideVertices = 1_000_000
}

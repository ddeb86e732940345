import Foundation
import GeoModel
import Geodesy

extension GlobeStage {
    public struct PointCountry: Sendable {
        public var id: String
        public var at: Point
    }

    /// The countries of the input, sorted by id: polygonal ones (with their feature index, for
    /// errors), point countries and capitals.
    struct Countries {
        var features: [Feature]
        var polygonal: [(index: Int, id: String, polygons: [Polygon])]
        var points: [PointCountry]
        var capitals: [(id: String, at: Point)]
    }

    /// The globe as meshed: what the glTF scene, the USD layer and the manifest are encoded from.
    public struct Globe: Sendable {
        public var meshes: [CountryMesh]
        /// Parallel to `meshes`: the fills as written (float32, relative to each node's centre).
        public var fills: [FillNodeGeometry]
        public var points: [PointCountry]
        public var capitals: [(id: String, at: Point)]
        public var sectors: [OutlineSector]
        public var markers: GlobeMarkers
        public var meshSeconds: Double
        public var vertexCount: Int { meshes.reduce(0) { $0 + $1.vertexCount } }
        /// Fill triangles as written (after the float32 orientation check).
        public var triangleCount: Int { fills.reduce(0) { $0 + $1.triangleCount } }
    }

    /// The encoded files, in parts (`FileIO.writeAtomically(parts:)`), never joined in memory.
    struct Files {
        var glb: [[UInt8]]
        var usdz: [[UInt8]]?
        var manifest: [UInt8]
    }
}

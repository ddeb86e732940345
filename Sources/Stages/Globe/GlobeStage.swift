import Dispatch
import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ
import GeoFormats
import StageContract

/// The globe stage: dist/world.geojson → dist/globe.glb (+ manifest, + dist/globe.usdz with
/// `usdz`: the same scene as USD, encoded from the same meshes by GlobeUSD). In steps: read the
/// countries and capitals, mesh them (Mesh/), check the fills in float32, build the outlines;
/// then encode the glTF scene (GlobeScene.swift), the USD package and the manifest
/// (GlobeManifest.swift) and write them. The preview pictures are their own stage
/// (PreviewStage, geo-preview), rendered from the written .glb.
public enum GlobeStage: PipelineStage {
    public static let name = "globe"

    public struct Options: DeclaredOptions {
        public var input = "dist/world.geojson"
        public var output = "dist/globe.glb"
        public var manifest: String? = nil
        /// The same scene as USD (a .usdz package holding one binary .usdc layer), for the iOS app.
        public var usdz: String? = nil
        public var maxEdgeDegrees = MeshOptions.contractMaxEdgeDegrees
        public var maxLonStep = 10.0
        public var oceanRadius = 1.0
        public var fillRadius = 1.003
        public var outlineRadius = 1.004
        public var pointRadius = 1.005
        public var discRadius = 0.012
        public var rimRadius = 0.014
        public var capitalRadius = 1.006
        public var starSize = 0.006
        public var atmosphereRadius = 1.08
        public var sphereMaxEdgeDegrees = MeshOptions.contractMaxEdgeDegrees
        /// Normals as normalized bytes (KHR_mesh_quantization) instead of float32.
        public var quantizeNormals = true
        public var threads = 2
        public init() {}
        public init(input: String, output: String) { self.input = input; self.output = output }

        /// `--float-normals`: the command line's spelling of `quantizeNormals`, inverted.
        public var floatNormals: Bool {
            get { !quantizeNormals }
            set { quantizeNormals = !newValue }
        }

        public static let declared: [StageOption<Options>] = [
            .argument("input", \.input, required: true, help: "World GeoJSON (CONTRACTS §1)."),
            .option("output", short: "o", \.output, help: "Output .glb file."),
            .option("manifest", \.manifest, help: "Manifest JSON to write beside the .glb."),
            .option("usdz", \.usdz, help: "Also write the scene as a USDZ package (one binary .usdc layer) for SceneKit/RealityKit."),
            .option("max-edge", \.maxEdgeDegrees, .above(0.01, atMost: 45), help: "Largest angle in degrees any fill triangle edge or outline segment may span."),
            .option("max-lon-step", \.maxLonStep, .above(0.01, atMost: 360),
                    help: "Largest longitude step in degrees of any fill edge (keeps polar triangles from folding)."),
            .option("fill-radius", \.fillRadius, .above(0), help: "Radius of the country fills."),
            .option("outline-radius", \.outlineRadius, .above(0), help: "Radius of the border outlines."),
            .option("point-radius", \.pointRadius, .above(0), help: "Radius of the point-country discs."),
            .option("disc-radius", \.discRadius, .above(0), help: "Radius of a point-country disc."),
            .option("rim-radius", \.rimRadius, .above(0), help: "Outer radius of a point-country disc's black rim."),
            .option("capital-radius", \.capitalRadius, .above(0), help: "Radius of the capital markers."),
            .option("star-size", \.starSize, .above(0), help: "Size of a capital star (centre to tip)."),
            .option("ocean-radius", \.oceanRadius, .above(0), help: "Radius of the ocean sphere."),
            .option("atmosphere-radius", \.atmosphereRadius, .above(0), help: "Radius of the atmosphere sphere."),
            .option("sphere-max-edge", \.sphereMaxEdgeDegrees, .within(0.1...90), help: "Largest edge in degrees of the ocean and atmosphere spheres."),
            .flag("float-normals", \.floatNormals, help: "Write normals as float32 instead of normalized bytes (no KHR_mesh_quantization)."),
            .option("threads", \.threads, .atLeast(1), help: "Worker threads for meshing."),
        ]

        public func validateRules() throws {
            if let usdz {
                guard usdz.hasSuffix(".usdz") else { throw OptionsError("--usdz must name a .usdz file (got \(usdz))") }
                guard usdz != output && usdz != manifest else { throw OptionsError("--usdz must differ from --output and --manifest") }
            }
            guard rimRadius > discRadius else { throw OptionsError("--rim-radius must be larger than --disc-radius") }
            // The layers, inside out (CONTRACTS §2): each must lie above the one below it.
            let layers: [(String, Double)] = [("--ocean-radius", oceanRadius), ("--fill-radius", fillRadius), ("--outline-radius", outlineRadius),
                                              ("--point-radius", pointRadius), ("--atmosphere-radius", atmosphereRadius)]
            for k in 1..<layers.count where !(layers[k].1 > layers[k - 1].1) {
                throw OptionsError("\(layers[k].0) (\(layers[k].1)) must be larger than \(layers[k - 1].0) (\(layers[k - 1].1)): layers are ocean < fill < outline < point < atmosphere")
            }
            guard capitalRadius > fillRadius && capitalRadius < atmosphereRadius else {
                throw OptionsError("--capital-radius (\(capitalRadius)) must lie between --fill-radius (\(fillRadius)) and --atmosphere-radius (\(atmosphereRadius))")
            }
        }
    }

    public struct Report: StageReport {
        public var output: String
        public var glbSize: Int
        public var usdzPath: String?
        public var usdzSize: Int?
        public var fillCountries: Int
        public var pointCountries: Int
        public var capitals: Int
        public var outlineSegments: Int
        public var meshSeconds: Double
        /// Fill triangles as written (after the float32 orientation check).
        public var triangleCount: Int
        public var vertexCount: Int

        public var summary: String {
            "\(fillCountries) country fills (\(formatCount(vertexCount)) vertices, \(formatCount(triangleCount)) triangles, meshed in \(String(format: "%.2fs", meshSeconds))), \(pointCountries) point countries, \(capitals) capitals, \(formatCount(outlineSegments)) outline segments → \(output) (\(formatCount(glbSize)) bytes)"
                + (usdzSize.map { " + \(usdzPath ?? "usdz") (\(formatCount($0)) bytes)" } ?? "")
        }
    }

    /// The whole stage: build the globe, encode it, write the files atomically.
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        try write(try build(o, log: log), o, log: log)
    }

    /// Reads the world and meshes every country (in parallel, one GEOS context per worker):
    /// the globe in memory, before any encoding.
    public static func build(_ o: Options, log: StageLog) throws -> Globe {
        let countries = try readCountries(o, log: log)
        let t0 = log.elapsed
        var meshes = try mesh(o, countries, log: log)
        let meshSeconds = log.elapsed - t0
        let areas = log.step("geodesic areas") { GeodesicAreas.countries(countries.polygonal.map(\.polygons), threads: o.threads) }
        for i in meshes.indices { meshes[i].geodesicArea = areas[i] }
        let fills = try fills(o, countries, meshes, log: log)
        let sectors = log.step("outlines") { Outlines.build(meshes, threads: o.threads) }
        let markers = GlobeMarkers(o, points: countries.points, capitals: countries.capitals)
        return Globe(meshes: meshes, fills: fills, points: countries.points, capitals: countries.capitals,
                     sectors: sectors, markers: markers, meshSeconds: meshSeconds)
    }
}

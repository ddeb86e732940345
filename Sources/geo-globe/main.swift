import ArgumentParser
import Foundation
import GeoModel
import GlobeStage

struct GlobeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo-globe",
        abstract: "world.geojson → globe.glb: country fills triangulated on the sphere, outlines, markers (glTF 2.0 binary).",
        discussion: """
        Reads the world stage's GeoJSON (dist/world.geojson) and writes the app's
        globe cache as glTF 2.0 binary (CONTRACTS §2, §3):
        • one fill node per polygon country, named by its ISO code. Each polygon
          (holes included) is densified so no edge spans more than --max-edge
          degrees, its ±180 halves share their seam vertices, Antarctica's pole
          detour becomes a polar cap; it is triangulated (GEOS constrained
          Delaunay) in a gnomonic projection centred on it, then refined on
          great circles to --max-edge (shared edges split identically, no
          cracks), placed at r = --fill-radius, wound outward, with normals;
        • point countries as a disc with a black rim, named by ISO code;
        • capital stars (capital_<ISO>), ocean sphere, translucent atmosphere;
        • border outlines, each shared border once, as zero-width ribbon strips
          whose vertex pairs carry ± their miter (_MITER × miterScale), in the
          12 × 4 longitude × latitude nodes outline_sector_N;
        • unlit materials (KHR_materials_unlit) in the CONTRACTS §3 palette;
          normals as bytes (KHR_mesh_quantization) unless --float-normals.
        Also writes a manifest (node → ISO, centroid, bbox, counts, areas,
        parameters). The preview pictures are not made here: geo-preview renders
        them from the written .glb (make globe runs both).
        Output is byte-identical run after run and written atomically (the
        .glb last). Errors name the file and the feature.

        Example:
          geo-globe dist/world.geojson -o dist/globe.glb \\
            --manifest dist/globe.manifest.json
        """)

    @Argument(help: "World GeoJSON (CONTRACTS §1).")
    var input: String

    @Option(name: [.short, .customLong("output")], help: "Output .glb file.")
    var output: String = "dist/globe.glb"

    @Option(help: "Manifest JSON to write beside the .glb.")
    var manifest: String?

    @Option(help: "Largest angle in degrees any fill triangle edge or outline segment may span.")
    var maxEdge: Double = 2.5

    @Option(help: "Largest longitude step in degrees of any fill edge (keeps polar triangles from folding).")
    var maxLonStep: Double = 10

    @Option(help: "Radius of the country fills.") var fillRadius: Double = 1.003
    @Option(help: "Radius of the border outlines.") var outlineRadius: Double = 1.004
    @Option(help: "Radius of the point-country discs.") var pointRadius: Double = 1.005
    @Option(help: "Radius of a point-country disc.") var discRadius: Double = 0.012
    @Option(help: "Outer radius of a point-country disc's black rim.") var rimRadius: Double = 0.014
    @Option(help: "Radius of the capital markers.") var capitalRadius: Double = 1.006
    @Option(help: "Size of a capital star (centre to tip).") var starSize: Double = 0.006
    @Option(help: "Radius of the ocean sphere.") var oceanRadius: Double = 1.0
    @Option(help: "Radius of the atmosphere sphere.") var atmosphereRadius: Double = 1.08
    @Option(help: "Largest edge in degrees of the ocean and atmosphere spheres.") var sphereMaxEdge: Double = 2.5

    @Flag(help: "Write normals as float32 instead of normalized bytes (no KHR_mesh_quantization).")
    var floatNormals = false

    @Option(help: "Worker threads for meshing.")
    var threads: Int = 2

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    func validate() throws {
        let numbers: [(String, Double)] = [
            ("--max-edge", maxEdge), ("--max-lon-step", maxLonStep), ("--sphere-max-edge", sphereMaxEdge),
            ("--ocean-radius", oceanRadius), ("--fill-radius", fillRadius), ("--outline-radius", outlineRadius),
            ("--point-radius", pointRadius), ("--capital-radius", capitalRadius), ("--atmosphere-radius", atmosphereRadius),
            ("--disc-radius", discRadius), ("--rim-radius", rimRadius), ("--star-size", starSize),
        ]
        for (name, v) in numbers where !(v.isFinite && v > 0) {
            throw ValidationError("\(name) must be a positive number (got \(v))")
        }
        guard maxEdge > 0.01 && maxEdge <= 45 else { throw ValidationError("--max-edge must be in (0.01, 45] degrees") }
        guard maxLonStep > 0.01 && maxLonStep <= 360 else { throw ValidationError("--max-lon-step must be in (0.01, 360] degrees") }
        guard sphereMaxEdge >= 0.1 && sphereMaxEdge <= 90 else { throw ValidationError("--sphere-max-edge must be in [0.1, 90] degrees") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard rimRadius > discRadius else { throw ValidationError("--rim-radius must be larger than --disc-radius") }
        // The layers, inside out (CONTRACTS §2): each must lie above the one below it.
        let layers: [(String, Double)] = [("--ocean-radius", oceanRadius), ("--fill-radius", fillRadius), ("--outline-radius", outlineRadius),
                                          ("--point-radius", pointRadius), ("--atmosphere-radius", atmosphereRadius)]
        for k in 1..<layers.count where !(layers[k].1 > layers[k - 1].1) {
            throw ValidationError("\(layers[k].0) (\(layers[k].1)) must be larger than \(layers[k - 1].0) (\(layers[k - 1].1)): layers are ocean < fill < outline < point < atmosphere")
        }
        guard capitalRadius > fillRadius && capitalRadius < atmosphereRadius else {
            throw ValidationError("--capital-radius (\(capitalRadius)) must lie between --fill-radius (\(fillRadius)) and --atmosphere-radius (\(atmosphereRadius))")
        }
    }

    func run() throws {
        let log = StageLog(stage: "globe", quiet: quiet)
        var o = GlobeStage.Options(input: input, output: output)
        o.manifest = manifest
        o.maxEdgeDegrees = maxEdge
        o.maxLonStep = maxLonStep
        o.fillRadius = fillRadius; o.outlineRadius = outlineRadius; o.pointRadius = pointRadius
        o.discRadius = discRadius; o.rimRadius = rimRadius; o.capitalRadius = capitalRadius
        o.starSize = starSize; o.oceanRadius = oceanRadius; o.atmosphereRadius = atmosphereRadius
        o.sphereMaxEdgeDegrees = sphereMaxEdge
        o.quantizeNormals = !floatNormals
        o.threads = threads
        let r = try GlobeStage.run(o, log: log)
        log.summary("\(r.meshes.count) country fills (\(formatCount(r.vertexCount)) vertices, \(formatCount(r.triangleCount)) triangles, meshed in \(String(format: "%.2fs", r.meshSeconds))), \(r.points.count) point countries, \(r.capitals.count) capitals, \(formatCount(r.sectors.reduce(0) { $0 + $1.segmentCount })) outline segments → \(output) (\(formatCount(r.glb.count)) bytes)")
    }
}

GlobeCommand.main()

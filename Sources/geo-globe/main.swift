import ArgumentParser
import Foundation
import GeoModel
import GlobeStage
import StageCommand

struct GlobeCommand: StageCommand {
    typealias Stage = GlobeStage
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
          Delaunay) in a gnomonic projection centred on it, a polygon of more
          than 1,000 vertices in tiles of about 250 cut along great circles
          (the cut points shared with the neighbours), then refined on
          great circles to --max-edge (shared edges split identically, no
          cracks), placed at r = --fill-radius, wound outward, with normals;
        • point countries as a disc with a black rim, named by ISO code;
        • capital stars (capital_<ISO>), ocean sphere, translucent atmosphere;
        • border outlines, each shared border once, as zero-width ribbon strips
          whose vertex pairs carry ± their miter (_MITER × miterScale), in the
          12 × 4 longitude × latitude nodes outline_sector_N;
        • unlit materials (KHR_materials_unlit) in the CONTRACTS §3 palette;
          normals as bytes (KHR_mesh_quantization) unless --float-normals.
        With --usdz, also writes the same scene as a USDZ package (one binary
        .usdc layer; UsdPreviewSurface materials emitting the palette colour) for
        SceneKit/RealityKit, from the same meshes.
        Also writes a manifest (node → ISO, centroid, bbox, counts, areas,
        parameters; which file holds what). The preview pictures are not made here: geo-preview renders
        them from the written .glb (make globe runs both).
        Output is byte-identical run after run and written atomically (the
        .glb last). Errors name the file and the feature.

        Example:
          geo-globe dist/world.geojson -o dist/globe.glb \\
            --manifest dist/globe.manifest.json --usdz dist/globe.usdz
        """)

    static let defaults = GlobeStage.Options()

    @Argument(help: "World GeoJSON (CONTRACTS §1).")
    var input: String

    @Option(name: [.short, .customLong("output")], help: "Output .glb file.")
    var output: String = defaults.output

    @Option(help: "Manifest JSON to write beside the .glb.")
    var manifest: String?

    @Option(help: "Also write the scene as a USDZ package (one binary .usdc layer) for SceneKit/RealityKit.")
    var usdz: String?

    @Option(help: "Largest angle in degrees any fill triangle edge or outline segment may span.")
    var maxEdge: Double = defaults.maxEdgeDegrees

    @Option(help: "Largest longitude step in degrees of any fill edge (keeps polar triangles from folding).")
    var maxLonStep: Double = defaults.maxLonStep

    @Option(help: "Radius of the country fills.") var fillRadius: Double = defaults.fillRadius
    @Option(help: "Radius of the border outlines.") var outlineRadius: Double = defaults.outlineRadius
    @Option(help: "Radius of the point-country discs.") var pointRadius: Double = defaults.pointRadius
    @Option(help: "Radius of a point-country disc.") var discRadius: Double = defaults.discRadius
    @Option(help: "Outer radius of a point-country disc's black rim.") var rimRadius: Double = defaults.rimRadius
    @Option(help: "Radius of the capital markers.") var capitalRadius: Double = defaults.capitalRadius
    @Option(help: "Size of a capital star (centre to tip).") var starSize: Double = defaults.starSize
    @Option(help: "Radius of the ocean sphere.") var oceanRadius: Double = defaults.oceanRadius
    @Option(help: "Radius of the atmosphere sphere.") var atmosphereRadius: Double = defaults.atmosphereRadius
    @Option(help: "Largest edge in degrees of the ocean and atmosphere spheres.") var sphereMaxEdge: Double = defaults.sphereMaxEdgeDegrees

    @Flag(help: "Write normals as float32 instead of normalized bytes (no KHR_mesh_quantization).")
    var floatNormals = !defaults.quantizeNormals

    @Option(help: "Worker threads for meshing.")
    var threads: Int = defaults.threads

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: GlobeStage.Options {
        var o = GlobeStage.Options(input: input, output: output)
        o.manifest = manifest
        o.usdz = usdz
        o.maxEdgeDegrees = maxEdge
        o.maxLonStep = maxLonStep
        o.fillRadius = fillRadius; o.outlineRadius = outlineRadius; o.pointRadius = pointRadius
        o.discRadius = discRadius; o.rimRadius = rimRadius; o.capitalRadius = capitalRadius
        o.starSize = starSize; o.oceanRadius = oceanRadius; o.atmosphereRadius = atmosphereRadius
        o.sphereMaxEdgeDegrees = sphereMaxEdge
        o.quantizeNormals = !floatNormals
        o.threads = threads
        return o
    }


    /// Front-specific: the allocator's mmap threshold, then the stage as every front runs it.
    func run() throws {
        // The stage builds a few buffers of 100+ MB one after another (outline sectors, the
        // USD crate, the glTF buffer). With glibc's adaptive threshold a freed large buffer
        // raises the threshold and the next ones come from the heap, where freed space is not
        // given back; a fixed 1 MB threshold maps every large buffer and returns it when freed
        // (measured at 2.1 M fill vertices: peak 893 MB → 750 MB, same CPU).
        Allocator.set(.mmapThreshold, 1 << 20)
        try GlobeStage.execute(options, quiet: quiet)
    }
}

GlobeCommand.main()

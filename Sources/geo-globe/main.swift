import StageCommand
import GlobeStage

StageFront<GlobeStage>(
    name: "geo-globe",
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
    """,
    beforeRun: {
        // The stage builds a few buffers of 100+ MB one after another (outline sectors, the
        // USD crate, the glTF buffer). With glibc's adaptive threshold a freed large buffer
        // raises the threshold and the next ones come from the heap, where freed space is not
        // given back; a fixed 1 MB threshold maps every large buffer and returns it when freed
        // (measured at 2.1 M fill vertices: peak 893 MB → 750 MB, same CPU).
        Allocator.set(.mmapThreshold, 1 << 20)
    }).main()

import StageCommand
import PreviewStage

StageFront<PreviewStage>(
    name: "geo-preview",
    abstract: "globe.glb → PNG pictures of the globe (Atlantic, Pacific across 180°, South Pole), rendered from the real file.",
    discussion: """
    Reads the globe stage's glTF 2.0 binary (dist/globe.glb) with the
    project's own GLB reader (header, JSON and BIN chunks, accessors of
    every component type including KHR_mesh_quantization's normalized
    bytes and shorts, node transforms, materials) and draws what the app
    will load with a small software rasteriser:
    • orthographic views (--views): by default atlantic centred on
      (-30°, 20°), pacific on (180°, 0°), south_pole on the South Pole;
      the scene's bounding sphere (the atmosphere) fills --fill of the width;
    • every mesh in its material's unlit sRGB colour, back faces culled
      (unless double-sided), a depth buffer; blended materials (the
      translucent atmosphere) composited last, in linear light;
    • border ribbons (_MITER) widened as a renderer would, to
      --outline-width pixels;
    • --supersample² samples a pixel, averaged in linear light.
    Writes <output-dir>/<view>.png (by default atlantic.png, pacific.png and
    south_pole.png; 8-bit RGB, zlib), one thread a view (up to --threads).
    The pictures are byte-identical run after run whatever the thread count,
    each written atomically, none unless all of them rendered. A malformed .glb is an
    error naming the file and the offending object.

    Example:
      geo-preview dist/globe.glb --output-dir dist/preview --size 720 \\
        --views "atlantic=-30,20 arctic=0,90"
    """).main()

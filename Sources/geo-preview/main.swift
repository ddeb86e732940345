import ArgumentParser
import Foundation
import GeoModel
import PreviewStage
import StageCommand

struct PreviewCommand: StageCommand {
    typealias Stage = PreviewStage
    static let configuration = CommandConfiguration(
        commandName: "geo-preview",
        abstract: "globe.glb → PNG pictures of the globe (Atlantic, Pacific across 180°, South Pole), rendered from the real file.",
        discussion: """
        Reads the globe stage's glTF 2.0 binary (dist/globe.glb) with the
        project's own GLB reader (header, JSON and BIN chunks, accessors of
        every component type including KHR_mesh_quantization's normalized
        bytes and shorts, node transforms, materials) and draws what the app
        will load with a small software rasteriser:
        • orthographic views: atlantic centred on (-30°, 20°), pacific on
          (180°, 0°), south_pole on the South Pole; the scene's bounding
          sphere (the atmosphere) fills --fill of the width;
        • every mesh in its material's unlit sRGB colour, back faces culled
          (unless double-sided), a depth buffer; blended materials (the
          translucent atmosphere) composited last, in linear light;
        • border ribbons (_MITER) widened as a renderer would, to
          --outline-width pixels;
        • --supersample² samples a pixel, averaged in linear light.
        Writes <out-dir>/atlantic.png, pacific.png and south_pole.png (8-bit
        RGB, zlib), one thread a view (up to --threads). The pictures are
        byte-identical run after run whatever the thread count, each written
        atomically, none unless all three rendered. A malformed .glb is an
        error naming the file and the offending object.

        Example:
          geo-preview dist/globe.glb --out-dir dist/preview --size 720
        """)

    static let defaults = PreviewStage.Options()

    @Argument(help: "The globe, glTF 2.0 binary (.glb).")
    var input: String

    @Option(help: "Directory for the pictures (<view>.png).")
    var outDir: String = defaults.outputDir

    @Option(help: "Width and height of each picture in pixels.")
    var size: Int = defaults.size

    @Option(help: "Samples per pixel along each axis (1 = no anti-aliasing).")
    var supersample: Int = defaults.supersample

    @Option(help: "Border outline width in pixels.")
    var outlineWidth: Double = defaults.outlineWidth

    @Option(help: "Fraction of the picture's width the scene's bounding sphere fills.")
    var fill: Double = defaults.fill

    @Option(help: "Worker threads (one view each; at most 3 are used).")
    var threads: Int = defaults.threads

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: PreviewStage.Options {
        var o = PreviewStage.Options()
        o.input = input; o.outputDir = outDir
        o.size = size; o.supersample = supersample; o.outlineWidth = outlineWidth; o.fill = fill; o.threads = threads
        return o
    }


}

PreviewCommand.main()

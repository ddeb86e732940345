import Dispatch
import Foundation
import GeoModel
import GeoFormats

/// Pictures of the globe for people, rendered from the real artefact (dist/globe.glb) by a
/// small software rasteriser (Rasteriser.swift): what the app will load, seen from the
/// viewpoints in `Options.views`. The scene is read once (PreviewScene.swift), each view is
/// rendered by one thread, so thread count and scheduling do not change a byte.
public enum PreviewStage: PipelineStage {
    public static let name = "preview"

    public struct View: Sendable {
        public var name: String
        public var center: Point
        public init(name: String, center: Point) { self.name = name; self.center = center }
    }

    /// The default viewpoints (`Options.views`).
    public static let defaultViews = [
        View(name: "atlantic", center: Point(-30, 20)),
        View(name: "pacific", center: Point(180, 0)),
        View(name: "south_pole", center: Point(0, -90)),
    ]

    public struct Options: StageOptions {
        /// The globe, glTF 2.0 binary.
        public var input = "dist/globe.glb"
        /// Directory for the pictures (<view>.png).
        public var outputDir = "dist/preview"
        /// Picture width and height in pixels.
        public var size = 720
        /// Samples per pixel along each axis (1 = no anti-aliasing).
        public var supersample = 2
        /// Width of the border outlines in pixels.
        public var outlineWidth = 1.0
        /// The scene's bounding radius fills this fraction of the picture's width.
        public var fill = 0.9
        /// Background (sRGB bytes).
        public var background: (UInt8, UInt8, UInt8) = (0x0B, 0x10, 0x20)
        public var threads = 3
        /// The viewpoints, one picture each (<name>.png).
        public var views = PreviewStage.defaultViews
        public init() {}

        public func validate() throws {
            guard size >= 16 && size <= 8192 else { throw OptionsError("--size must be in 16…8192 pixels") }
            guard supersample >= 1 && supersample <= 4 else { throw OptionsError("--supersample must be 1…4") }
            guard outlineWidth >= 0 && outlineWidth <= 20 else { throw OptionsError("--outline-width must be in 0…20 pixels") }
            guard fill > 0.05 && fill <= 1 else { throw OptionsError("--fill must be in (0.05, 1]") }
            guard threads >= 1 else { throw OptionsError("--threads must be at least 1") }
            guard !views.isEmpty else { throw OptionsError("--view: at least one view is needed") }
            guard Set(views.map(\.name)).count == views.count else { throw OptionsError("--view: two views have the same name") }
            for v in views where v.name.isEmpty || v.name.contains("/") || !(abs(v.center.y) <= 90 && v.center.x.isFinite) {
                throw OptionsError("--view \(v.name): a view needs a file name without '/' and a centre with latitude in [-90, 90]")
            }
        }
    }

    public struct Report: StageReport {
        public var input: String
        public var outputDir: String
        public var size: Int
        public var meshNodes: Int
        public var triangleCount: Int
        public var files: [(path: String, bytes: Int)]

        public var summary: String {
            let names = files.map { ($0.path as NSString).lastPathComponent + " " + formatCount($0.bytes) + " B" }.joined(separator: ", ")
            return "\(files.count) views \(size)×\(size) of \(input) (\(meshNodes) mesh nodes, \(formatCount(triangleCount)) triangles) → \(outputDir): \(names)"
        }
    }

    /// Reads `o.input` (.glb), renders every view of `o.views` (one thread each, up to
    /// `threads`) and writes <outputDir>/<view>.png atomically. Nothing is written unless
    /// every view rendered.
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        let (input, dir, views) = (o.input, o.outputDir, o.views)
        let doc = try log.step("read \(input)") { try GLBDocument.read(path: input) }
        let scene = try log.step("scene: \(doc.nodes.count) nodes") { try self.scene(doc, options: o) }
        let t0 = log.elapsed
        let pngs = try Parallel.map(views, workers: max(1, min(o.threads, views.count)), makeState: { () }) { view, _ in
            try PNGWriter.encode(render(scene, view: view, options: o))
        }
        log.info("rendered \(views.count) views \(o.size)×\(o.size) (×\(o.supersample * o.supersample) samples) (\(String(format: "%.3fs", log.elapsed - t0)), \(min(o.threads, views.count)) threads)")
        var files: [(String, Int)] = []
        for (v, png) in zip(views, pngs) {
            let path = dir + "/" + v.name + ".png"
            try FileIO.writeAtomically(png, to: path)
            files.append((path, png.count))
        }
        return Report(input: input, outputDir: dir, size: o.size, meshNodes: scene.meshNodes, triangleCount: scene.triangleCount, files: files)
    }
}

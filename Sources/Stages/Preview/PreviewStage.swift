import Dispatch
import Foundation
import GeoModel
import Geodesy
import GeoFormats
import Parallelism
import StageContract

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

    public struct Options: DeclaredOptions {
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

        public static let declared: [StageOption<Options>] = [
            .argument("input", \.input, required: true, help: "The globe, glTF 2.0 binary (.glb)."),
            .option("output-dir", short: "o", aliases: ["out-dir"], \.outputDir, help: "Directory for the pictures (<view>.png)."),
            .option("size", \.size, .within(16...8192), help: "Width and height of each picture in pixels."),
            .option("supersample", \.supersample, .within(1...4), help: "Samples per pixel along each axis (1 = no anti-aliasing)."),
            .option("outline-width", \.outlineWidth, .within(0...20), help: "Border outline width in pixels."),
            .option("fill", \.fill, .above(0.05, atMost: 1), help: "Fraction of the picture's width the scene's bounding sphere fills."),
            .option("views", \.viewList, help: "The viewpoints, one picture each: name=lon,lat separated by spaces."),
            .option("threads", \.threads, .atLeast(1), help: "Worker threads (one view each)."),
        ]

        /// `views` as the command line spells them.
        public var viewList: ViewList {
            get { ViewList(views) }
            set { views = newValue.views }
        }

        public func validateRules() throws {
            guard !views.isEmpty else { throw OptionsError("--views: at least one view is needed") }
            guard Set(views.map(\.name)).count == views.count else { throw OptionsError("--views: two views have the same name") }
            for v in views where v.name.isEmpty || v.name.contains("/") || !(abs(v.center.y) <= 90 && v.center.x.isFinite) {
                throw OptionsError("--views \(v.name): a view needs a file name without '/' and a centre with latitude in [-90, 90]")
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

extension PreviewStage {
    /// `--views "atlantic=-30,20 pacific=180,0"`: the viewpoints as the command line gives them.
    public struct ViewList: OptionValue {
        public var views: [View]
        public init(_ views: [View]) { self.views = views }

        public init?(optionText: String) {
            views = []
            for item in optionText.split(whereSeparator: { $0 == " " || $0 == ";" }) {
                let parts = item.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { return nil }
                let lonLat = parts[1].split(separator: ",")
                guard lonLat.count == 2, let lon = Double(lonLat[0]), let lat = Double(lonLat[1]) else { return nil }
                views.append(View(name: String(parts[0]), center: Point(lon, lat)))
            }
        }

        public var optionText: String { views.map { "\($0.name)=\($0.center.x),\($0.center.y)" }.joined(separator: " ") }
        public static var expected: String? { "name=lon,lat pairs separated by spaces" }
    }
}

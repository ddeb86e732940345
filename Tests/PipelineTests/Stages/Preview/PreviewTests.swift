import Foundation
import StageContract
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoFormats
@testable import GlobeStage
@testable import PreviewStage

/// Decodes a PNG with the consumer checks' independent reader (scripts/checks/pngalpha.py:
/// Python's zlib, struct and numpy), returning width, height and the RGB bytes.
func decodePNGWithPython(_ path: String) throws -> (Int, Int, [UInt8]) {
    let script = """
    import sys; sys.path.insert(0, sys.argv[1]); import pngalpha
    a = pngalpha.read_png(sys.argv[2])
    sys.stdout.write(f"{a.shape[1]} {a.shape[0]} {a.shape[2]}\\n"); sys.stdout.flush()
    sys.stdout.buffer.write(a.tobytes())
    """
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script, Repo.path("scripts/checks"), path]
    let out = Pipe(), err = Pipe()
    p.standardOutput = out; p.standardError = err
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let msg = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard p.terminationStatus == 0, let nl = data.firstIndex(of: 0x0A) else { throw StageError("python PNG decoder failed: \(msg)") }
    let head = String(decoding: data[..<nl], as: UTF8.self).split(separator: " ").map { Int($0)! }
    guard head[2] == 3 else { throw StageError("decoded \(head[2]) channels, expected 3") }
    return (head[0], head[1], [UInt8](data[(nl + 1)...]))
}

/// The preview stage: PNG writer against a real decoder; pictures of a small real globe
/// rendered from its .glb, checked pixel by pixel where places must land; determinism.
@Suite struct GlobePreviewTests {
    @Test func pngDecodesToTheSamePixelsInAnIndependentReader() throws {
        // Noise, flat areas and gradients, odd sizes: every row filter gets used.
        let w = 61, h = 37
        var px = [UInt8](repeating: 0, count: w * h * 3)
        var seed: UInt32 = 12345
        for y in 0..<h {
            for x in 0..<w {
                let i = 3 * (y * w + x)
                if y < 10 {
                    seed = seed &* 1_103_515_245 &+ 12345
                    px[i] = UInt8(truncatingIfNeeded: seed >> 16); px[i + 1] = UInt8(truncatingIfNeeded: seed >> 8); px[i + 2] = UInt8(truncatingIfNeeded: seed >> 24)
                } else if y < 20 {
                    px[i] = 0x34; px[i + 1] = 0xBE; px[i + 2] = 0x82
                } else {
                    px[i] = UInt8(x * 4); px[i + 1] = UInt8(y * 6); px[i + 2] = UInt8((x + y) % 256)
                }
            }
        }
        let img = RGBImage(width: w, height: h, pixels: px)
        let filters = Set(stride(from: 0, to: PNGWriter.filter(img).count, by: 3 * w + 1).map { PNGWriter.filter(img)[$0] })
        #expect(filters.count >= 2, "only filters \(filters)")
        let path = temporaryDirectory() + "/t.png"
        try PNGWriter.write(img, to: path)
        let bytes = try FileIO.readBytes(path)
        #expect(Array(bytes[0..<8]) == PNGWriter.signature)
        let (dw, dh, decoded) = try decodePNGWithPython(path)
        #expect(dw == w && dh == h)
        #expect(decoded == px)
    }

    /// Centre pixel of a lon/lat point at radius `r` in a view, as the renderer projects it.
    func pixel(_ p: Point, r: Double, view: PreviewStage.View, scene: PreviewStage.Scene, o: PreviewStage.Options) -> (Int, Int)? {
        let f = GlobeShapes.frame(view.center)
        let v = SphereMap.unit(p) * r
        guard v.dot(f.up) > 0 else { return nil }
        let scale = Double(o.size) * o.fill / 2 / scene.radius, c = Double(o.size) / 2
        return (Int(c + scale * v.dot(f.east)), Int(c - scale * v.dot(f.north)))
    }

    @Test func picturesOfASmallRealGlobeShowItsPlaces() throws {
        let dir = temporaryDirectory()
        let input = try GlobeTests().world(in: dir)
        let go = GlobeStage.Options(input: input, output: dir + "/globe.glb")
        _ = try GlobeStage.run(go, log: StageLog(stage: "test", quiet: true))
        var o = PreviewStage.Options()
        o.size = 1600      // Andorra's disc: 8 px radius, its rim 1.3 px, the star 4 px
        let scene = try PreviewStage.scene(try GLBDocument.read(path: go.output), options: o)
        #expect(abs(scene.radius - go.atmosphereRadius) < 1e-6)
        #expect(scene.ribbonPrimitives > 0)
        func kind(_ c: (UInt8, UInt8, UInt8)) -> String {
            let (r, g, b) = (Int(c.0), Int(c.1), Int(c.2))
            if g > b + 20 && g > r + 60 { return "land" }
            if b > g + 20 && b > r + 60 { return "ocean" }
            if r > g + 60 && r > b + 60 { return "capital" }
            if (r, g, b) == (0x0B, 0x10, 0x20) { return "background" }
            if r + g + b < 200 { return "dark" }
            return "other"
        }
        var images: [String: RGBImage] = [:]
        for v in PreviewStage.defaultViews { images[v.name] = PreviewStage.render(scene, view: v, options: o) }
        func at(_ view: String, _ p: Point, r: Double) -> String {
            let v = PreviewStage.defaultViews.first { $0.name == view }!
            guard let (x, y) = pixel(p, r: r, view: v, scene: scene, o: o) else { return "behind" }
            return kind(images[view]![x, y])
        }
        // South Africa and Lesotho (a hole in it, filled by its own mesh) seen from the Atlantic;
        // the open ocean; the corner is background.
        #expect(at("atlantic", Point(22, -30), r: go.fillRadius) == "land")
        #expect(at("atlantic", Point(28.2, -29.6), r: go.fillRadius) == "land")
        #expect(at("atlantic", Point(-30, 20), r: go.fillRadius) == "ocean")
        #expect(kind(images["atlantic"]![2, 2]) == "background")
        // Capital stars: the (made-up) capital of South Africa at (28, −20), over the ocean.
        #expect(at("atlantic", Point(28, -20), r: go.capitalRadius) == "capital")
        // Andorra, a point country: land disc around its capital star, dark rim, ocean outside.
        let ad = Point(1.52, 42.5)
        let fr = GlobeShapes.frame(ad)
        let centre = SphereMap.unit(ad) * go.pointRadius
        func around(_ d: Double) -> [String] {
            stride(from: 0.0, to: 2 * Double.pi, by: Double.pi / 4).map { a in
                let q = centre + fr.east * (d * cos(a)) + fr.north * (d * sin(a))
                let v = PreviewStage.defaultViews[0], f = GlobeShapes.frame(v.center)
                let scale = Double(o.size) * o.fill / 2 / scene.radius, c = Double(o.size) / 2
                return kind(images["atlantic"]![Int(c + scale * q.dot(f.east)), Int(c - scale * q.dot(f.north))])
            }
        }
        #expect(around(0.7 * go.discRadius).allSatisfy { $0 == "land" }, "\(around(0.7 * go.discRadius))")
        #expect(around(go.rimRadius + 0.01).allSatisfy { $0 == "ocean" })
        #expect(around((go.discRadius + go.rimRadius) / 2).filter { $0 == "dark" || $0 == "other" }.count >= 6,
                "\(around((go.discRadius + go.rimRadius) / 2))")
        // Antarctica covers the pole and its ±180° cut leaves no seam line: every pixel on the
        // 180° meridian from the pole to 86° S is land.
        #expect(at("south_pole", Point(0, -90), r: go.fillRadius) == "land")
        for lat in stride(from: -89.9, through: -86, by: 0.1) {
            #expect(at("south_pole", Point(180, lat), r: go.fillRadius) == "land", "lat \(lat)")
        }
        // Fiji from the Pacific: Viti Levu's interior; not seen from the Atlantic.
        #expect(at("pacific", Point(178.0, -17.8), r: go.fillRadius) == "land")
        #expect(at("atlantic", Point(178.0, -17.8), r: go.fillRadius) == "behind")
    }

    @Test func previewsAreByteIdenticalAcrossRunsAndThreadCounts() throws {
        let dir = temporaryDirectory()
        let input = try GlobeTests().world(in: dir)
        let go = GlobeStage.Options(input: input, output: dir + "/globe.glb")
        _ = try GlobeStage.run(go, log: StageLog(stage: "test", quiet: true))
        var o = PreviewStage.Options()
        o.size = 200
        var runs: [[[UInt8]]] = []
        for threads in [3, 1, 2] {
            o.threads = threads
            let out = dir + "/preview-\(threads)"
            o.input = go.output; o.outputDir = out
            let s = try PreviewStage.run(o, log: StageLog(stage: "test", quiet: true))
            #expect(s.files.map { ($0.path as NSString).lastPathComponent } == ["atlantic.png", "pacific.png", "south_pole.png"])
            runs.append(try s.files.map { try FileIO.readBytes($0.path) })
        }
        #expect(runs[0] == runs[1] && runs[1] == runs[2])
        #expect(Set(runs[0]).count == 3, "the three views differ")
        // The views are options: one view of the defaults gives that picture, byte for byte.
        o.views = [PreviewStage.defaultViews[1]]
        o.outputDir = dir + "/preview-one"
        let one = try PreviewStage.run(o, log: StageLog(stage: "test", quiet: true))
        #expect(one.files.map { ($0.path as NSString).lastPathComponent } == ["pacific.png"])
        #expect(try FileIO.readBytes(one.files[0].path) == runs[0][1])
        o.views = []
        #expect(throws: OptionsError.self) { try o.validate() }
        o.views = PreviewStage.defaultViews
        // A truncated .glb is an error naming the file, and writes nothing.
        let bad = dir + "/bad.glb"
        try FileIO.writeAtomically(Array(try FileIO.readBytes(go.output).prefix(100)), to: bad)
        o.input = bad; o.outputDir = dir + "/none"
        #expect {
            _ = try PreviewStage.run(o, log: StageLog(stage: "test", quiet: true))
        } throws: { "\($0)".contains("bad.glb") }
        #expect(!FileManager.default.fileExists(atPath: dir + "/none"))
    }
}

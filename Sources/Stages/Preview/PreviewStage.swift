import Dispatch
import Foundation
import GeoModel
import GeoFormats

/// Pictures of the globe for people, rendered from the real artefact (dist/globe.glb) by a
/// small software rasteriser: what the app will load, seen from a few viewpoints.
///
/// Every mesh of the default scene is drawn with its world transform and its material's
/// colour (unlit: the sRGB of baseColorFactor), orthographic projection towards the view
/// centre, back faces culled unless the material is double-sided, a depth buffer, blended
/// materials (the atmosphere) composited in linear light after the opaque ones. Outline
/// ribbons (primitives with _MITER) are widened the way the contract tells a renderer to:
/// position + miter × miterScale × half width, at a constant width in pixels. Rasterisation
/// is in fixed point with a consistent tie rule, so shared edges leave neither cracks nor
/// double cover; `supersample`² samples a pixel, averaged in linear light.
///
/// The output is a pure function of the .glb and the options: each view is rendered by one
/// thread, so thread count and scheduling do not change a byte.
public enum PreviewStage: PipelineStage {
    public static let name = "preview"

    public struct View: Sendable {
        public var name: String
        public var center: Point
        public init(name: String, center: Point) { self.name = name; self.center = center }
    }

    public static let views = [
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
        public init() {}

        public func validate() throws {
            guard size >= 16 && size <= 8192 else { throw OptionsError("--size must be in 16…8192 pixels") }
            guard supersample >= 1 && supersample <= 4 else { throw OptionsError("--supersample must be 1…4") }
            guard outlineWidth >= 0 && outlineWidth <= 20 else { throw OptionsError("--outline-width must be in 0…20 pixels") }
            guard fill > 0.05 && fill <= 1 else { throw OptionsError("--fill must be in (0.05, 1]") }
            guard threads >= 1 else { throw OptionsError("--threads must be at least 1") }
        }
    }

    /// One draw call: world-space positions and a triangle list in one flat colour.
    struct Batch {
        var name: String
        var positions: [Float]          // x, y, z per vertex
        var triangles: [UInt32]         // triangle list
        var color: (UInt8, UInt8, UInt8) // sRGB
        var alpha: Float
        var blend: Bool
        var cull: Bool
    }

    /// The drawable content of a .glb, prepared once for every view.
    public struct Scene {
        var batches: [Batch]
        /// Largest distance of any vertex from the origin (the atmosphere's radius).
        public var radius: Double
        public var meshNodes: Int
        public var triangleCount: Int
        public var ribbonPrimitives: Int
    }

    /// Reads the scene of a .glb for rendering at `options` (the outline width in pixels fixes
    /// how far ribbons are widened in world units).
    public static func scene(_ doc: GLBDocument, options o: Options) throws -> Scene {
        let miterScale = doc.json["asset"]?["extras"]?["miterScale"]?.doubleValue
        var pending: [(name: String, positions: [Float], miters: [Float]?, triangles: [UInt32], material: GLBDocument.Material?)] = []
        var radius = 0.0
        var meshNodes = 0, ribbons = 0
        for (n, _, world) in doc.sceneNodes() {
            guard let mi = doc.nodes[n].mesh else { continue }
            meshNodes += 1
            let nodeName = doc.nodes[n].name ?? "node \(n)"
            for (k, p) in doc.meshes[mi].primitives.enumerated() {
                let what = "node \(nodeName) primitive \(k)"
                guard let pa = p.attribute("POSITION") else { throw InputError(file: doc.file, "\(what) has no POSITION") }
                guard doc.accessors[pa].components == 3 else { throw InputError(file: doc.file, "\(what): POSITION is not VEC3") }
                var pos = try doc.floats(pa)
                let count = doc.accessors[pa].count
                var miters: [Float]? = nil
                if let ma = p.attribute("_MITER") {
                    guard let miterScale else { throw InputError(file: doc.file, "\(what) has _MITER but asset.extras.miterScale is missing") }
                    guard doc.accessors[ma].components == 3, doc.accessors[ma].count == count else { throw InputError(file: doc.file, "\(what): _MITER is not one VEC3 per vertex") }
                    miters = try doc.floats(ma).map { $0 * Float(miterScale) }
                    ribbons += 1
                }
                if world != GLBDocument.identity {
                    for v in 0..<count {
                        let q = GLBDocument.transform(world, Vec3(Double(pos[3 * v]), Double(pos[3 * v + 1]), Double(pos[3 * v + 2])))
                        pos[3 * v] = Float(q.x); pos[3 * v + 1] = Float(q.y); pos[3 * v + 2] = Float(q.z)
                    }
                    if var m = miters {
                        var linear = world; linear[12] = 0; linear[13] = 0; linear[14] = 0
                        for v in 0..<count {
                            let q = GLBDocument.transform(linear, Vec3(Double(m[3 * v]), Double(m[3 * v + 1]), Double(m[3 * v + 2])))
                            m[3 * v] = Float(q.x); m[3 * v + 1] = Float(q.y); m[3 * v + 2] = Float(q.z)
                        }
                        miters = m
                    }
                }
                for v in 0..<count {
                    let r = (Double(pos[3 * v]) * Double(pos[3 * v]) + Double(pos[3 * v + 1]) * Double(pos[3 * v + 1]) + Double(pos[3 * v + 2]) * Double(pos[3 * v + 2])).squareRoot()
                    if r > radius { radius = r }
                }
                let idx = try p.indices.map { try doc.indices($0, vertexCount: count) } ?? (0..<UInt32(count)).map { $0 }
                let tris = try triangleList(idx, mode: p.mode, file: doc.file, what: what)
                pending.append((nodeName, pos, miters, tris, p.material.map { doc.materials[$0] }))
            }
        }
        guard radius > 0 else { throw InputError(file: doc.file, "has nothing to draw: no mesh with positions in the default scene") }
        // Half the outline width in world units, at the scale the views use.
        let half = o.outlineWidth / 2 / (Double(o.size) * o.fill / 2 / radius)
        var batches: [Batch] = []
        var tris = 0
        for var b in pending {
            if let m = b.miters {
                for i in 0..<b.positions.count { b.positions[i] += m[i] * Float(half) }
            }
            let mat = b.material
            let rgb = mat?.srgb ?? (1, 1, 1)
            func byte(_ c: Double) -> UInt8 { UInt8(max(0, min(255, (c * 255).rounded()))) }
            let blend = mat?.alphaMode == "BLEND"
            tris += b.triangles.count / 3
            batches.append(Batch(name: b.name, positions: b.positions, triangles: b.triangles, color: (byte(rgb.0), byte(rgb.1), byte(rgb.2)),
                                 alpha: blend ? Float(mat!.alpha) : 1, blend: blend, cull: !(mat?.doubleSided ?? false)))
        }
        // Opaque first, then blended (stable: file order within each group).
        batches = batches.filter { !$0.blend } + batches.filter(\.blend)
        return Scene(batches: batches, radius: radius, meshNodes: meshNodes, triangleCount: tris, ribbonPrimitives: ribbons)
    }

    /// Triangles of a primitive as a list, by the glTF rules for strips (alternate triangles
    /// reversed, so all keep the strip's facing) and fans; zero-area joins dropped.
    static func triangleList(_ idx: [UInt32], mode: Int, file: String, what: String) throws -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(mode == 4 ? idx.count : max(0, idx.count - 2) * 3)
        func add(_ a: UInt32, _ b: UInt32, _ c: UInt32) {
            if a != b && b != c && a != c { out += [a, b, c] }
        }
        switch mode {
        case 4:
            guard idx.count % 3 == 0 else { throw InputError(file: file, "\(what): \(idx.count) triangle indices, not a multiple of 3") }
            var i = 0
            while i < idx.count { add(idx[i], idx[i + 1], idx[i + 2]); i += 3 }
        case 5:
            if idx.count >= 3 {
                for i in 0..<(idx.count - 2) {
                    if i % 2 == 0 { add(idx[i], idx[i + 1], idx[i + 2]) } else { add(idx[i], idx[i + 2], idx[i + 1]) }
                }
            }
        case 6:
            if idx.count >= 3 { for i in 1..<(idx.count - 1) { add(idx[0], idx[i], idx[i + 1]) } }
        default:
            throw InputError(file: file, "\(what): primitive mode \(mode) (points or lines) is not drawn by the preview")
        }
        return out
    }

    // MARK: colour

    /// sRGB byte → linear.
    static let toLinear: [Float] = (0..<256).map { Float(GLTFBuilder.srgbToLinear(Double($0) / 255)) }
    /// Linear in 1/65535 steps → sRGB byte.
    static let toSRGB: [UInt8] = (0...65535).map { i in
        UInt8((GLBDocument.linearToSRGB(Double(i) / 65535) * 255).rounded())
    }
    @inline(__always) static func encode(_ lin: Float) -> UInt8 {
        toSRGB[Int(max(0, min(65535, (lin * 65535).rounded())))]
    }

    // MARK: rendering

    /// Renders one view.
    public static func render(_ scene: Scene, view: View, options o: Options) -> RGBImage {
        let ss = max(1, o.supersample)
        let w = o.size * ss
        let scale = Double(w) * o.fill / 2 / scene.radius      // samples per world unit
        let c = Double(w) / 2
        let f = GlobeShapes.frame(view.center)
        let bg = UInt32(o.background.0) << 16 | UInt32(o.background.1) << 8 | UInt32(o.background.2)
        var color = [UInt32](repeating: bg, count: w * w)
        var depth = [Float](repeating: -.infinity, count: w * w)
        let sub = 256.0       // fixed point: 8 fractional bits
        let (ex, ey, ez) = (Float(f.east.x), Float(f.east.y), Float(f.east.z))
        let (nx, ny, nz) = (Float(f.north.x), Float(f.north.y), Float(f.north.z))
        let (ux, uy, uz) = (Float(f.up.x), Float(f.up.y), Float(f.up.z))
        let fs = Float(scale), fc = Float(c)

        color.withUnsafeMutableBufferPointer { colorBuf in
        depth.withUnsafeMutableBufferPointer { depthBuf in
            let cb = colorBuf.baseAddress!, db = depthBuf.baseAddress!
            var xs: [Int] = [], ys: [Int] = [], zs: [Float] = []
            for b in scene.batches {
                let n = b.positions.count / 3
                xs = [Int](repeating: 0, count: n); ys = xs; zs = [Float](repeating: 0, count: n)
                b.positions.withUnsafeBufferPointer { p in
                    for v in 0..<n {
                        let x = p[3 * v], y = p[3 * v + 1], z = p[3 * v + 2]
                        let sx = fc + fs * (x * ex + y * ey + z * ez)
                        let sy = fc - fs * (x * nx + y * ny + z * nz)
                        xs[v] = Int((Double(sx) * sub).rounded())
                        ys[v] = Int((Double(sy) * sub).rounded())
                        zs[v] = x * ux + y * uy + z * uz
                    }
                }
                let src = b.color
                let srcPacked = UInt32(src.0) << 16 | UInt32(src.1) << 8 | UInt32(src.2)
                let alpha = b.alpha
                let srcLin = (toLinear[Int(src.0)] * alpha, toLinear[Int(src.1)] * alpha, toLinear[Int(src.2)] * alpha)
                xs.withUnsafeBufferPointer { xp in
                ys.withUnsafeBufferPointer { yp in
                zs.withUnsafeBufferPointer { zp in
                b.triangles.withUnsafeBufferPointer { tp in
                    var t = 0
                    while t < tp.count {
                        let i0 = Int(tp[t]), i1 = Int(tp[t + 1]), i2 = Int(tp[t + 2])
                        t += 3
                        let ax = xp[i0], ay = yp[i0]
                        var bx = xp[i1], by = yp[i1], cx = xp[i2], cy = yp[i2]
                        var zb = zp[i1], zc = zp[i2]
                        let za = zp[i0]
                        // Facing: clockwise on screen (y down) is counter-clockwise seen from outside.
                        let cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
                        if cross == 0 { continue }
                        if cross > 0 {
                            if b.cull { continue }
                            swap(&bx, &cx); swap(&by, &cy); swap(&zb, &zc)
                        }
                        let half = 128
                        let minX = max(0, (min(ax, bx, cx) - half + 255) >> 8)
                        let maxX = min(w - 1, (max(ax, bx, cx) - half) >> 8)
                        let minY = max(0, (min(ay, by, cy) - half + 255) >> 8)
                        let maxY = min(w - 1, (max(ay, by, cy) - half) >> 8)
                        if minX > maxX || minY > maxY { continue }
                        // Edge functions, positive inside; ties go to edges pointing down (or right
                        // when horizontal), so a shared edge is drawn by exactly one of its triangles.
                        @inline(__always) func bias(_ dx: Int, _ dy: Int) -> Int { (dy > 0 || (dy == 0 && dx > 0)) ? 0 : -1 }
                        let d0x = bx - ax, d0y = by - ay     // edge a→b
                        let d1x = cx - bx, d1y = cy - by     // edge b→c
                        let d2x = ax - cx, d2y = ay - cy     // edge c→a
                        let px0 = minX * 256 + half, py0 = minY * 256 + half
                        var r0 = (px0 - ax) * d0y - (py0 - ay) * d0x + bias(d0x, d0y)
                        var r1 = (px0 - bx) * d1y - (py0 - by) * d1x + bias(d1x, d1y)
                        var r2 = (px0 - cx) * d2y - (py0 - cy) * d2x + bias(d2x, d2y)
                        let s0x = 256 * d0y, s1x = 256 * d1y, s2x = 256 * d2y
                        let s0y = -256 * d0x, s1y = -256 * d1x, s2y = -256 * d2x
                        // Depth plane over sample coordinates.
                        let fax = Float(ax) / 256, fay = Float(ay) / 256
                        let e1x = Float(bx) / 256 - fax, e1y = Float(by) / 256 - fay
                        let e2x = Float(cx) / 256 - fax, e2y = Float(cy) / 256 - fay
                        let det = e1x * e2y - e2x * e1y
                        if det == 0 { continue }
                        let dzdx = ((zb - za) * e2y - (zc - za) * e1y) / det
                        let dzdy = (e1x * (zc - za) - e2x * (zb - za)) / det
                        var zrow = za + dzdx * (Float(px0) / 256 - fax) + dzdy * (Float(py0) / 256 - fay)
                        for y in minY...maxY {
                            var e0 = r0, e1 = r1, e2 = r2
                            var z = zrow
                            let rowBase = y * w
                            for x in minX...maxX {
                                if (e0 | e1 | e2) >= 0 {
                                    let k = rowBase + x
                                    if z > db[k] {
                                        if b.blend {
                                            let d = cb[k]
                                            let keep = 1 - alpha
                                            let r = encode(toLinear[Int(d >> 16)] * keep + srcLin.0)
                                            let g = encode(toLinear[Int((d >> 8) & 0xFF)] * keep + srcLin.1)
                                            let bb = encode(toLinear[Int(d & 0xFF)] * keep + srcLin.2)
                                            cb[k] = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(bb)
                                        } else {
                                            cb[k] = srcPacked
                                            db[k] = z
                                        }
                                    }
                                }
                                e0 += s0x; e1 += s1x; e2 += s2x
                                z += dzdx
                            }
                            r0 += s0y; r1 += s1y; r2 += s2y
                            zrow += dzdy
                        }
                    }
                }
                }
                }
                }
            }
        }
        }
        // Down-sample: the mean of each pixel's samples in linear light.
        var pixels = [UInt8](repeating: 0, count: o.size * o.size * 3)
        let inv = 1 / Float(ss * ss)
        color.withUnsafeBufferPointer { cb in
            pixels.withUnsafeMutableBufferPointer { out in
                for py in 0..<o.size {
                    for px in 0..<o.size {
                        let first = cb[(py * ss) * w + px * ss]
                        var same = true
                        var r: Float = 0, g: Float = 0, bl: Float = 0
                        for sy in 0..<ss {
                            for sx in 0..<ss {
                                let s = cb[(py * ss + sy) * w + px * ss + sx]
                                if s != first { same = false }
                                r += toLinear[Int(s >> 16)]; g += toLinear[Int((s >> 8) & 0xFF)]; bl += toLinear[Int(s & 0xFF)]
                            }
                        }
                        let o3 = 3 * (py * o.size + px)
                        if same {
                            out[o3] = UInt8(first >> 16); out[o3 + 1] = UInt8((first >> 8) & 0xFF); out[o3 + 2] = UInt8(first & 0xFF)
                        } else {
                            out[o3] = encode(r * inv); out[o3 + 1] = encode(g * inv); out[o3 + 2] = encode(bl * inv)
                        }
                    }
                }
            }
        }
        return RGBImage(width: o.size, height: o.size, pixels: pixels)
    }

    public struct Report: StageReport {
        public var input: String
        public var outputDir: String
        public var size: Int
        public var scene: Scene
        public var files: [(path: String, bytes: Int)]

        public var summary: String {
            let names = files.map { ($0.path as NSString).lastPathComponent + " " + formatCount($0.bytes) + " B" }.joined(separator: ", ")
            return "\(files.count) views \(size)×\(size) of \(input) (\(scene.meshNodes) mesh nodes, \(formatCount(scene.triangleCount)) triangles) → \(outputDir): \(names)"
        }
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        try run(input: o.input, outputDir: o.outputDir, options: o, log: log)
    }

    /// Reads `input` (.glb), renders every view (one thread each, up to `threads`) and writes
    /// <dir>/<view>.png atomically. Nothing is written unless every view rendered.
    public static func run(input: String, outputDir dir: String, options o: Options, log: StageLog) throws -> Report {
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
        return Report(input: input, outputDir: dir, size: o.size, scene: scene, files: files)
    }
}

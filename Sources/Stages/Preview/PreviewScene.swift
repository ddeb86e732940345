import Foundation
import GeoModel
import GeoFormats

// The drawable content of a .glb for the rasteriser: every mesh of the default scene with its
// world transform and its material's colour, outline ribbons widened, read once for all views.
extension PreviewStage {
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
    public struct Scene: Sendable {
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
}

import Foundation
import GeoModel
import Geodesy

/// Builds a glTF 2.0 binary (.glb): one buffer (the BIN chunk), buffer views padded to 4
/// bytes, accessors with exact `min`/`max`, meshes, nodes, materials, one scene. Output is
/// deterministic: the JSON is written in a fixed key order and every number by fixed rules.
public final class GLTFBuilder {
    public enum ComponentType: Int {
        case byte = 5120, unsignedByte = 5121, short = 5122, unsignedShort = 5123, unsignedInt = 5125, float = 5126
        var size: Int {
            switch self {
            case .byte, .unsignedByte: return 1
            case .short, .unsignedShort: return 2
            case .unsignedInt, .float: return 4
            }
        }
    }
    public static let arrayBuffer = 34962, elementArrayBuffer = 34963

    public private(set) var bin: [UInt8] = []
    var bufferViews: [JSONValue] = []
    var accessors: [JSONValue] = []
    var materials: [JSONValue] = []
    var meshes: [JSONValue] = []
    public private(set) var nodes: [JSONValue] = []
    var sceneNodes: [Int] = []
    var extensionsUsed: [String] = []
    var extensionsRequired: [String] = []
    public var generator = "geo-globe"
    public var assetExtras: JSONObject?

    public init() {}

    public func useExtension(_ name: String, required: Bool = false) {
        if !extensionsUsed.contains(name) { extensionsUsed.append(name) }
        if required && !extensionsRequired.contains(name) { extensionsRequired.append(name) }
    }

    static func num(_ d: Double) -> JSONValue { .number(d) }
    static func int(_ i: Int) -> JSONValue { .number(Double(i)) }

    /// Appends bytes to the BIN chunk at a 4-byte aligned offset; returns a buffer view index.
    /// glTF 2.0 requires byteLength ≥ 1: an empty view is a programming error (callers must not
    /// write empty meshes).
    public func addBufferView(_ bytes: [UInt8], target: Int?, byteStride: Int? = nil) -> Int {
        precondition(!bytes.isEmpty, "glTF buffer views must not be empty (byteLength ≥ 1)")
        while bin.count % 4 != 0 { bin.append(0) }
        let offset = bin.count
        bin.append(contentsOf: bytes)
        var o = JSONObject([("buffer", .number(0)), ("byteOffset", GLTFBuilder.int(offset)), ("byteLength", GLTFBuilder.int(bytes.count))])
        if let s = byteStride { o["byteStride"] = GLTFBuilder.int(s) }
        if let t = target { o["target"] = GLTFBuilder.int(t) }
        bufferViews.append(.object(o))
        return bufferViews.count - 1
    }

    public func addAccessor(bufferView: Int, componentType: ComponentType, count: Int, type: String,
                            normalized: Bool = false, min: [Double]? = nil, max: [Double]? = nil) -> Int {
        precondition(count >= 1, "glTF accessors must not be empty (count ≥ 1)")
        var o = JSONObject([("bufferView", GLTFBuilder.int(bufferView)), ("componentType", GLTFBuilder.int(componentType.rawValue))])
        if normalized { o["normalized"] = .bool(true) }
        o["count"] = GLTFBuilder.int(count)
        o["type"] = .string(type)
        if let min { o["min"] = .array(min.map(GLTFBuilder.num)) }
        if let max { o["max"] = .array(max.map(GLTFBuilder.num)) }
        accessors.append(.object(o))
        return accessors.count - 1
    }

    /// VEC3 float32 accessor. With `bounds`, min/max are the exact per-component extremes of
    /// the float32 values written (as required for POSITION).
    public func addVec3Float(_ v: [Vec3], scale: Double = 1, bounds: Bool) -> Int {
        var floats = [Float](repeating: 0, count: v.count * 3)
        for (i, p) in v.enumerated() {
            floats[3 * i] = Float(p.x * scale); floats[3 * i + 1] = Float(p.y * scale); floats[3 * i + 2] = Float(p.z * scale)
        }
        return addVec3Float(floats: floats, bounds: bounds)
    }

    /// VEC3 float32 accessor of packed x, y, z floats.
    public func addVec3Float(floats: [Float], bounds: Bool) -> Int {
        precondition(floats.count % 3 == 0)
        var lo: (Float, Float, Float) = (.infinity, .infinity, .infinity), hi: (Float, Float, Float) = (-.infinity, -.infinity, -.infinity)
        if bounds {
            floats.withUnsafeBufferPointer { f in
                for i in 0..<(f.count / 3) {
                    let x = f[3 * i], y = f[3 * i + 1], z = f[3 * i + 2]
                    if x < lo.0 { lo.0 = x }
                    if x > hi.0 { hi.0 = x }
                    if y < lo.1 { lo.1 = y }
                    if y > hi.1 { hi.1 = y }
                    if z < lo.2 { lo.2 = z }
                    if z > hi.2 { hi.2 = z }
                }
            }
        }
        let bytes = GLTFBuilder.littleEndian(floats)
        let view = addBufferView(bytes, target: GLTFBuilder.arrayBuffer)
        return addAccessor(bufferView: view, componentType: .float, count: floats.count / 3, type: "VEC3",
                           min: bounds ? [Double(lo.0), Double(lo.1), Double(lo.2)] : nil,
                           max: bounds ? [Double(hi.0), Double(hi.1), Double(hi.2)] : nil)
    }

    /// VEC3 of normalized signed bytes (KHR_mesh_quantization for NORMAL), stride 4.
    public func addVec3Int8Normalized(_ v: [Vec3], maxLength: Double = 1) -> Int {
        var bytes = [UInt8](repeating: 0, count: v.count * 4)
        // Per component, no array per vertex (this runs once per fill vertex).
        @inline(__always) func byte(_ x: Double) -> UInt8 {
            UInt8(bitPattern: Int8(Swift.max(-127, Swift.min(127, GLTFBuilder.rounded(x / maxLength * 127)))))
        }
        bytes.withUnsafeMutableBufferPointer { out in
            for (i, p) in v.enumerated() {
                out[4 * i] = byte(p.x); out[4 * i + 1] = byte(p.y); out[4 * i + 2] = byte(p.z)
            }
        }
        let view = addBufferView(bytes, target: GLTFBuilder.arrayBuffer, byteStride: 4)
        return addAccessor(bufferView: view, componentType: .byte, count: v.count, type: "VEC3", normalized: true)
    }

    /// Triangle indices as unsigned short when they fit, else unsigned int.
    public func addIndices(_ idx: [Int32]) -> Int {
        let maxIndex = idx.max() ?? 0
        if maxIndex < 65535 {
            let u = idx.map { UInt16($0) }
            var bytes = [UInt8](repeating: 0, count: u.count * 2)
            #if _endian(little)
            bytes.withUnsafeMutableBytes { out in u.withUnsafeBytes { out.copyMemory(from: $0) } }
            #else
            for (i, x) in u.enumerated() { bytes[2 * i] = UInt8(x & 0xFF); bytes[2 * i + 1] = UInt8(x >> 8) }
            #endif
            let view = addBufferView(bytes, target: GLTFBuilder.elementArrayBuffer)
            return addAccessor(bufferView: view, componentType: .unsignedShort, count: idx.count, type: "SCALAR")
        }
        var bytes = [UInt8](repeating: 0, count: idx.count * 4)
        #if _endian(little)
        precondition(idx.allSatisfy { $0 >= 0 })
        bytes.withUnsafeMutableBytes { out in idx.withUnsafeBytes { out.copyMemory(from: $0) } }
        #else
        for (i, x) in idx.enumerated() {
            let u = UInt32(x)
            bytes[4 * i] = UInt8(u & 0xFF); bytes[4 * i + 1] = UInt8((u >> 8) & 0xFF)
            bytes[4 * i + 2] = UInt8((u >> 16) & 0xFF); bytes[4 * i + 3] = UInt8(u >> 24)
        }
        #endif
        let view = addBufferView(bytes, target: GLTFBuilder.elementArrayBuffer)
        return addAccessor(bufferView: view, componentType: .unsignedInt, count: idx.count, type: "SCALAR")
    }

    /// `x.rounded()` (half away from zero) without libm's `round`: below 2^52, x minus its
    /// truncation is exact.
    @inline(__always) static func rounded(_ x: Double) -> Double {
        guard abs(x) < 0x1p52 else { return x.rounded() }
        let t = Double(Int(x))
        let f = x - t
        return f >= 0.5 ? t + 1 : (f <= -0.5 ? t - 1 : (t == 0 ? 0 * x : t))
    }

    /// The floats' IEEE bytes, little-endian (glTF's byte order: the memory itself on such hosts).
    static func littleEndian(_ floats: [Float]) -> [UInt8] {
        #if _endian(little)
        return floats.withUnsafeBytes { Array($0) }
        #else
        var bytes = [UInt8](repeating: 0, count: floats.count * 4)
        for (i, f) in floats.enumerated() {
            let b = f.bitPattern
            bytes[4 * i] = UInt8(b & 0xFF); bytes[4 * i + 1] = UInt8((b >> 8) & 0xFF)
            bytes[4 * i + 2] = UInt8((b >> 16) & 0xFF); bytes[4 * i + 3] = UInt8(b >> 24)
        }
        return bytes
        #endif
    }

    /// sRGB component (0–1) to linear, as glTF's baseColorFactor is linear.
    public static func srgbToLinear(_ c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// An unlit material (KHR_materials_unlit) showing the sRGB colour `rgb` exactly; alpha < 1 blends.
    public func addUnlitMaterial(name: String, srgb rgb: (Double, Double, Double), alpha: Double = 1, doubleSided: Bool = false) -> Int {
        useExtension("KHR_materials_unlit")
        let lin = [rgb.0, rgb.1, rgb.2].map { (GLTFBuilder.srgbToLinear($0) * 1e6).rounded() / 1e6 }
        var o = JSONObject([("name", .string(name))])
        o["pbrMetallicRoughness"] = .object(JSONObject([
            ("baseColorFactor", .array((lin + [alpha]).map(GLTFBuilder.num))),
            ("metallicFactor", .number(0)), ("roughnessFactor", .number(1)),
        ]))
        if alpha < 1 { o["alphaMode"] = .string("BLEND") }
        if doubleSided { o["doubleSided"] = .bool(true) }
        o["extensions"] = .object(JSONObject([("KHR_materials_unlit", .object(JSONObject()))]))
        o["extras"] = .object(JSONObject([("srgb", .array([rgb.0, rgb.1, rgb.2].map(GLTFBuilder.num)))]))
        materials.append(.object(o))
        return materials.count - 1
    }

    public struct Primitive {
        public var attributes: [(String, Int)]
        public var indices: Int
        public var material: Int
        /// 4 triangles, 5 triangle strip.
        public var mode: Int
        public init(attributes: [(String, Int)], indices: Int, material: Int, mode: Int = 4) {
            self.attributes = attributes; self.indices = indices; self.material = material; self.mode = mode
        }
    }

    public func addMesh(name: String, primitives: [Primitive]) -> Int {
        let prims: [JSONValue] = primitives.map { p in
            .object(JSONObject([
                ("attributes", .object(JSONObject(p.attributes.map { ($0.0, GLTFBuilder.int($0.1)) }))),
                ("indices", GLTFBuilder.int(p.indices)),
                ("material", GLTFBuilder.int(p.material)),
                ("mode", .number(Double(p.mode))),
            ]))
        }
        meshes.append(.object(JSONObject([("name", .string(name)), ("primitives", .array(prims))])))
        return meshes.count - 1
    }

    /// A node; `root` ones are listed in the scene. Returns its index.
    /// `translation` (float32 values, so every reader places the node exactly alike) moves the mesh.
    public func addNode(name: String, mesh: Int? = nil, children: [Int] = [], translation: [Float]? = nil,
                        extras: JSONObject? = nil, root: Bool = false) -> Int {
        var o = JSONObject([("name", .string(name))])
        if let mesh { o["mesh"] = GLTFBuilder.int(mesh) }
        if let t = translation {
            precondition(t.count == 3)
            o["translation"] = .array(t.map { GLTFBuilder.num(Double($0)) })
        }
        if !children.isEmpty { o["children"] = .array(children.map(GLTFBuilder.int)) }
        if let extras { o["extras"] = .object(extras) }
        nodes.append(.object(o))
        if root { sceneNodes.append(nodes.count - 1) }
        return nodes.count - 1
    }

    /// The glTF JSON document.
    public func json() -> JSONValue {
        var asset = JSONObject([("version", .string("2.0")), ("generator", .string(generator))])
        if let e = assetExtras { asset["extras"] = .object(e) }
        var o = JSONObject([("asset", .object(asset))])
        if !extensionsUsed.isEmpty { o["extensionsUsed"] = .array(extensionsUsed.map { .string($0) }) }
        if !extensionsRequired.isEmpty { o["extensionsRequired"] = .array(extensionsRequired.map { .string($0) }) }
        o["scene"] = .number(0)
        o["scenes"] = .array([.object(JSONObject([("name", .string("globe")), ("nodes", .array(sceneNodes.map(GLTFBuilder.int)))]))])
        o["nodes"] = .array(nodes)
        o["meshes"] = .array(meshes)
        o["materials"] = .array(materials)
        o["accessors"] = .array(accessors)
        o["bufferViews"] = .array(bufferViews)
        var paddedLength = bin.count
        while paddedLength % 4 != 0 { paddedLength += 1 }
        o["buffers"] = .array([.object(JSONObject([("byteLength", GLTFBuilder.int(paddedLength))]))])
        return .object(o)
    }

    /// The .glb bytes: 12-byte header, JSON chunk padded with spaces, BIN chunk padded with zeros.
    public func glb() -> [UInt8] { Array(glbParts().joined()) }

    /// The same bytes in parts (header and JSON, the BIN chunk's data as built, its padding),
    /// so that a large buffer is written without a second copy of it in memory.
    public func glbParts() -> [[UInt8]] {
        var w = JSONWriter(reserve: 1 << 20)
        w.value(json())
        var jsonBytes = w.bytes
        while jsonBytes.count % 4 != 0 { jsonBytes.append(0x20) }
        let binPadding = [UInt8](repeating: 0, count: (4 - bin.count % 4) % 4)
        let binLength = bin.count + binPadding.count
        let total = 12 + 8 + jsonBytes.count + 8 + binLength
        var head: [UInt8] = []
        head.reserveCapacity(28 + jsonBytes.count)
        func u32(_ v: Int) { head.appendLE(UInt32(v)) }
        u32(0x4654_6C67)          // "glTF"
        u32(2)
        u32(total)
        u32(jsonBytes.count); u32(0x4E4F_534A)   // "JSON"
        head += jsonBytes
        u32(binLength); u32(0x004E_4942)    // "BIN\0"
        return [head, bin, binPadding]
    }
}

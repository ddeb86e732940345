import Foundation
import GeoModel
import Geodesy

/// Reads a glTF 2.0 binary (.glb): the 12-byte header, the JSON chunk (through the project's
/// JSONValue.parse) and the BIN chunk, then the document's buffer views, accessors (every component
/// type, normalized or not, as KHR_mesh_quantization allows), meshes, materials, nodes and
/// the default scene. Every index and byte range is checked; a problem is an `InputError`
/// naming the file and the object (e.g. "accessor 12: runs past bufferView 7").
///
/// Enough of glTF for the pipeline's own consumers (the preview renderer, the tests); not
/// supported, with a clear error: external buffers (`uri`), sparse accessors.
public struct GLBDocument {
    public struct BufferView: Sendable {
        public var byteOffset: Int
        public var byteLength: Int
        public var byteStride: Int?
    }

    public struct Accessor: Sendable {
        public var bufferView: Int?
        public var byteOffset: Int
        public var componentType: Int
        public var normalized: Bool
        public var count: Int
        public var type: String
        public var components: Int
        public var min: [Double]?
        public var max: [Double]?
    }

    public struct Primitive: Sendable {
        /// Attribute semantic → accessor, in the file's order.
        public var attributes: [(name: String, accessor: Int)]
        public var indices: Int?
        public var material: Int?
        /// 0 points … 4 triangles, 5 triangle strip, 6 triangle fan.
        public var mode: Int
        public func attribute(_ name: String) -> Int? { attributes.first { $0.name == name }?.accessor }
    }

    public struct Mesh: Sendable {
        public var name: String?
        public var primitives: [Primitive]
    }

    public struct Material: Sendable {
        public var name: String?
        /// baseColorFactor as stored (linear RGBA).
        public var baseColorFactor: [Double]
        public var alphaMode: String
        public var doubleSided: Bool
        public var unlit: Bool
        /// The base colour as sRGB (0–1), what an unlit material shows on screen.
        public var srgb: (Double, Double, Double) {
            (GLBDocument.linearToSRGB(baseColorFactor[0]), GLBDocument.linearToSRGB(baseColorFactor[1]), GLBDocument.linearToSRGB(baseColorFactor[2]))
        }
        public var alpha: Double { baseColorFactor[3] }
    }

    public struct Node: Sendable {
        public var name: String?
        public var mesh: Int?
        public var children: [Int]
        public var extras: JSONObject?
        /// Local transform, column-major 4×4 (from `matrix`, or from translation/rotation/scale).
        public var matrix: [Double]
    }

    public let file: String
    public let json: JSONValue
    public let bin: [UInt8]
    public let bufferViews: [BufferView]
    public let accessors: [Accessor]
    public let meshes: [Mesh]
    public let materials: [Material]
    public let nodes: [Node]
    /// Root nodes of the default scene (`scene`, else scene 0, else every node without a parent).
    public let sceneRoots: [Int]
    public let extensionsUsed: [String]
    public let extensionsRequired: [String]

    public static let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

    public static func read(path: String) throws -> GLBDocument {
        try GLBDocument(bytes: try FileIO.readBytes(path), file: path)
    }

    public init(bytes b: [UInt8], file: String) throws {
        self.file = file
        func fail(_ problem: String) -> InputError { InputError(file: file, problem) }
        func u32(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 | Int(b[o + 2]) << 16 | Int(b[o + 3]) << 24 }
        guard b.count >= 12 else { throw fail("is not a glTF binary: \(b.count) bytes, shorter than the 12-byte header") }
        guard b[0] == 0x67, b[1] == 0x6C, b[2] == 0x54, b[3] == 0x46 else { throw fail("is not a glTF binary (the file does not start with \"glTF\")") }
        guard u32(4) == 2 else { throw fail("is glTF binary version \(u32(4)), only version 2 is supported") }
        guard u32(8) == b.count else { throw fail("header says \(u32(8)) bytes but the file has \(b.count) (truncated or padded)") }
        guard b.count >= 20 else { throw fail("has no JSON chunk") }
        let jsonLength = u32(12)
        guard u32(16) == 0x4E4F_534A else { throw fail("first chunk is not JSON (type 0x\(String(u32(16), radix: 16)))") }
        guard 20 + jsonLength <= b.count else { throw fail("JSON chunk of \(jsonLength) bytes runs past the end of the file") }
        do {
            json = try JSONValue.parse(Array(b[20..<(20 + jsonLength)]), file: file)
        } catch let e as InputError {
            throw fail("JSON chunk: \(e.problem)")
        }
        var pos = 20 + jsonLength
        var binChunk: [UInt8] = []
        while pos + 8 <= b.count {
            let len = u32(pos), type = u32(pos + 4)
            guard pos + 8 + len <= b.count else { throw fail("chunk at byte \(pos) of \(len) bytes runs past the end of the file") }
            if type == 0x004E_4942 {
                guard binChunk.isEmpty else { throw fail("has a second BIN chunk") }
                binChunk = Array(b[(pos + 8)..<(pos + 8 + len)])
            }
            pos += 8 + len   // unknown chunk types are skipped, as the spec requires
        }
        guard pos == b.count else { throw fail("has \(b.count - pos) stray bytes after the last chunk") }
        bin = binChunk
        let binCount = binChunk.count
        guard case .object(let doc) = json else { throw fail("JSON chunk is not an object") }
        guard doc["asset"]?["version"]?.stringValue == "2.0" else { throw fail("asset.version is not \"2.0\"") }

        func arr(_ key: String) throws -> [JSONValue] {
            guard let v = doc[key] else { return [] }
            guard let a = v.arrayValue else { throw fail("\(key) is not an array") }
            return a
        }
        func int(_ v: JSONValue?, _ what: String, default d: Int? = nil) throws -> Int {
            guard let v else {
                if let d { return d }
                throw fail("\(what) is missing")
            }
            guard let x = v.doubleValue, x == x.rounded(), x >= 0, x < 1e15 else { throw fail("\(what) is not a non-negative integer") }
            return Int(x)
        }
        func index(_ v: JSONValue?, _ what: String, below n: Int, _ kind: String) throws -> Int? {
            guard v != nil else { return nil }
            let i = try int(v, what)
            guard i < n else { throw fail("\(what) refers to \(kind) \(i), but there are \(n)") }
            return i
        }
        func numbers(_ v: JSONValue?, _ what: String) throws -> [Double]? {
            guard let v else { return nil }
            guard let a = v.arrayValue else { throw fail("\(what) is not an array") }
            return try a.map { guard let d = $0.doubleValue else { throw fail("\(what) holds a non-number") }; return d }
        }

        extensionsUsed = try arr("extensionsUsed").compactMap(\.stringValue)
        extensionsRequired = try arr("extensionsRequired").compactMap(\.stringValue)
        let known: Set<String> = ["KHR_materials_unlit", "KHR_mesh_quantization"]
        for e in extensionsRequired where !known.contains(e) { throw fail("requires extension \(e), which this reader does not support") }

        let buffers = try arr("buffers")
        for (i, buf) in buffers.enumerated() {
            if buf["uri"] != nil { throw fail("buffer \(i) has a uri: external buffers are not supported, only the BIN chunk") }
            let len = try int(buf["byteLength"], "buffer \(i).byteLength")
            guard i == 0, len <= binCount else { throw fail("buffer \(i) of \(len) bytes does not fit the BIN chunk (\(binCount) bytes)") }
        }

        bufferViews = try arr("bufferViews").enumerated().map { i, v in
            let what = "bufferView \(i)"
            guard try index(v["buffer"], "\(what).buffer", below: buffers.count, "buffer") != nil else { throw fail("\(what).buffer is missing") }
            let off = try int(v["byteOffset"], "\(what).byteOffset", default: 0)
            let len = try int(v["byteLength"], "\(what).byteLength")
            guard off + len <= binCount else { throw fail("\(what) (bytes \(off)..<\(off + len)) runs past the BIN chunk (\(binCount) bytes)") }
            var stride: Int? = nil
            if v["byteStride"] != nil {
                let s = try int(v["byteStride"], "\(what).byteStride")
                guard s >= 4, s <= 252, s % 4 == 0 else { throw fail("\(what).byteStride \(s) is not a multiple of 4 in 4…252") }
                stride = s
            }
            return BufferView(byteOffset: off, byteLength: len, byteStride: stride)
        }

        let componentCounts = ["SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16]
        let views = bufferViews
        accessors = try arr("accessors").enumerated().map { i, a in
            let what = "accessor \(i)"
            if a["sparse"] != nil { throw fail("\(what) is sparse, which this reader does not support") }
            let ct = try int(a["componentType"], "\(what).componentType")
            guard let size = GLBDocument.componentSize(ct) else { throw fail("\(what).componentType \(ct) is not a glTF component type") }
            guard let typeName = a["type"]?.stringValue, let n = componentCounts[typeName] else { throw fail("\(what).type is missing or unknown") }
            let count = try int(a["count"], "\(what).count")
            guard count >= 1 else { throw fail("\(what).count is 0") }
            let off = try int(a["byteOffset"], "\(what).byteOffset", default: 0)
            var normalized = false
            if let nv = a["normalized"] {
                guard case .bool(let x) = nv else { throw fail("\(what).normalized is not a boolean") }
                normalized = x
            }
            if normalized && (ct == 5125 || ct == 5126) { throw fail("\(what) is normalized but its components are \(ct == 5126 ? "float" : "unsigned int")") }
            let viewIndex = try index(a["bufferView"], "\(what).bufferView", below: views.count, "bufferView")
            if let vi = viewIndex {
                let v = views[vi]
                let elem = size * n
                let stride = v.byteStride ?? elem
                guard off % size == 0, (v.byteOffset + off) % size == 0 else { throw fail("\(what) is not aligned to its \(size)-byte components") }
                guard off + stride * (count - 1) + elem <= v.byteLength else { throw fail("\(what) (\(count) × \(typeName)) runs past bufferView \(vi)") }
            }
            return Accessor(bufferView: viewIndex, byteOffset: off, componentType: ct, normalized: normalized, count: count,
                            type: typeName, components: n, min: try numbers(a["min"], "\(what).min"), max: try numbers(a["max"], "\(what).max"))
        }

        let accessorCount = accessors.count
        materials = try arr("materials").enumerated().map { i, m in
            let what = "material \(i)"
            let factor = try numbers(m["pbrMetallicRoughness"]?["baseColorFactor"], "\(what).baseColorFactor") ?? [1, 1, 1, 1]
            guard factor.count == 4, factor.allSatisfy({ $0 >= 0 && $0 <= 1 }) else { throw fail("\(what).baseColorFactor is not 4 numbers in 0…1") }
            var doubleSided = false
            if case .bool(let d)? = m["doubleSided"] { doubleSided = d }
            let unlit = m["extensions"]?["KHR_materials_unlit"] != nil
            return Material(name: m["name"]?.stringValue, baseColorFactor: factor, alphaMode: m["alphaMode"]?.stringValue ?? "OPAQUE",
                            doubleSided: doubleSided, unlit: unlit)
        }
        let materialCount = materials.count

        meshes = try arr("meshes").enumerated().map { i, m in
            let what = "mesh \(i)" + (m["name"]?.stringValue.map { " (\($0))" } ?? "")
            guard let prims = m["primitives"]?.arrayValue, !prims.isEmpty else { throw fail("\(what) has no primitives") }
            return Mesh(name: m["name"]?.stringValue, primitives: try prims.enumerated().map { k, p in
                let pw = "\(what) primitive \(k)"
                guard let attrs = p["attributes"]?.objectValue else { throw fail("\(pw) has no attributes") }
                let attributes = try attrs.map { (name: $0.key, accessor: try index($0.value, "\(pw) attribute \($0.key)", below: accessorCount, "accessor")!) }
                let mode = try int(p["mode"], "\(pw).mode", default: 4)
                guard mode <= 6 else { throw fail("\(pw).mode \(mode) is not a glTF primitive mode") }
                return Primitive(attributes: attributes, indices: try index(p["indices"], "\(pw).indices", below: accessorCount, "accessor"),
                                 material: try index(p["material"], "\(pw).material", below: materialCount, "material"), mode: mode)
            })
        }
        let meshCount = meshes.count

        let rawNodes = try arr("nodes")
        nodes = try rawNodes.enumerated().map { i, n in
            let what = "node \(i)" + (n["name"]?.stringValue.map { " (\($0))" } ?? "")
            let children = try (n["children"]?.arrayValue ?? []).map { try index($0, "\(what).children", below: rawNodes.count, "node")! }
            var matrix = GLBDocument.identity
            if let m = try numbers(n["matrix"], "\(what).matrix") {
                guard m.count == 16 else { throw fail("\(what).matrix does not have 16 numbers") }
                matrix = m
            } else {
                let t = try numbers(n["translation"], "\(what).translation") ?? [0, 0, 0]
                let r = try numbers(n["rotation"], "\(what).rotation") ?? [0, 0, 0, 1]
                let s = try numbers(n["scale"], "\(what).scale") ?? [1, 1, 1]
                guard t.count == 3, r.count == 4, s.count == 3 else { throw fail("\(what) has a malformed translation, rotation or scale") }
                matrix = GLBDocument.trs(t, r, s)
            }
            return Node(name: n["name"]?.stringValue, mesh: try index(n["mesh"], "\(what).mesh", below: meshCount, "mesh"),
                        children: children, extras: n["extras"]?.objectValue, matrix: matrix)
        }
        let allNodes = nodes
        let scenes = try arr("scenes")
        let sceneIndex = try index(doc["scene"], "scene", below: scenes.count, "scene") ?? (scenes.isEmpty ? nil : 0)
        if let s = sceneIndex {
            sceneRoots = try (scenes[s]["nodes"]?.arrayValue ?? []).map { try index($0, "scene \(s).nodes", below: allNodes.count, "node")! }
        } else {
            let children = Set(allNodes.flatMap(\.children))
            sceneRoots = allNodes.indices.filter { !children.contains($0) }
        }
        // The node hierarchy must be a forest: no node reachable twice (that also rules out cycles).
        var seen = Set<Int>()
        var stack = sceneRoots
        while let n = stack.popLast() {
            guard seen.insert(n).inserted else { throw fail("node \(n) appears twice in the scene hierarchy (a cycle or a shared child)") }
            stack += allNodes[n].children
        }
    }

    // MARK: accessors

    static func componentSize(_ ct: Int) -> Int? {
        switch ct {
        case 5120, 5121: return 1
        case 5122, 5123: return 2
        case 5125, 5126: return 4
        default: return nil
        }
    }

    /// The accessor's components as Float, `count × components` of them, normalized integers
    /// mapped to −1…1 / 0…1 by the glTF rules (signed: max(c / (2ⁿ⁻¹−1), −1)).
    public func floats(_ i: Int) throws -> [Float] {
        let a = accessors[i]
        var out = [Float](repeating: 0, count: a.count * a.components)
        guard let vi = a.bufferView else { return out }   // no bufferView: all zeros, per the spec
        let v = bufferViews[vi]
        let size = GLBDocument.componentSize(a.componentType)!
        let stride = v.byteStride ?? size * a.components
        let n = a.components
        let norm = a.normalized
        bin.withUnsafeBufferPointer { raw in
            out.withUnsafeMutableBufferPointer { o in
                let base = UnsafeRawPointer(raw.baseAddress!) + v.byteOffset + a.byteOffset
                for e in 0..<a.count {
                    let p = base + e * stride
                    for k in 0..<n {
                        let x: Float
                        switch a.componentType {
                        case 5126: x = Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self)))
                        case 5120:
                            let c = Float(p.load(fromByteOffset: k, as: Int8.self))
                            x = norm ? Swift.max(c / 127, -1) : c
                        case 5121:
                            let c = Float(p.load(fromByteOffset: k, as: UInt8.self))
                            x = norm ? c / 255 : c
                        case 5122:
                            let c = Float(Int16(littleEndian: p.loadUnaligned(fromByteOffset: 2 * k, as: Int16.self)))
                            x = norm ? Swift.max(c / 32767, -1) : c
                        case 5123:
                            let c = Float(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 2 * k, as: UInt16.self)))
                            x = norm ? c / 65535 : c
                        default:
                            x = Float(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self)))
                        }
                        o[e * n + k] = x
                    }
                }
            }
        }
        return out
    }

    /// An index accessor (SCALAR of unsigned byte, short or int), each index checked against
    /// `vertexCount`.
    public func indices(_ i: Int, vertexCount: Int) throws -> [UInt32] {
        let a = accessors[i]
        guard a.components == 1, [5121, 5123, 5125].contains(a.componentType), !a.normalized else {
            throw InputError(file: file, "accessor \(i) is used as indices but is not a SCALAR of unsigned byte, short or int")
        }
        guard let vi = a.bufferView else { throw InputError(file: file, "accessor \(i) is used as indices but has no bufferView") }
        let v = bufferViews[vi]
        let size = GLBDocument.componentSize(a.componentType)!
        let stride = v.byteStride ?? size
        var out = [UInt32](repeating: 0, count: a.count)
        var bad: UInt32? = nil
        bin.withUnsafeBufferPointer { raw in
            let base = UnsafeRawPointer(raw.baseAddress!) + v.byteOffset + a.byteOffset
            for e in 0..<a.count {
                let p = base + e * stride
                let x: UInt32
                switch a.componentType {
                case 5121: x = UInt32(p.load(as: UInt8.self))
                case 5123: x = UInt32(UInt16(littleEndian: p.loadUnaligned(as: UInt16.self)))
                default: x = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self))
                }
                if x >= vertexCount && bad == nil { bad = x }
                out[e] = x
            }
        }
        if let bad { throw InputError(file: file, "accessor \(i): index \(bad) is out of range for \(vertexCount) vertices") }
        return out
    }

    /// The VEC3 accessor `i` as points.
    public func vec3(_ i: Int) throws -> [Vec3] {
        guard accessors[i].components == 3 else { throw InputError(file: file, "accessor \(i) is \(accessors[i].type), expected VEC3") }
        let f = try floats(i)
        return (0..<accessors[i].count).map { Vec3(Double(f[3 * $0]), Double(f[3 * $0 + 1]), Double(f[3 * $0 + 2])) }
    }

    // MARK: nodes

    /// Index of the first node called `name`.
    public func node(named name: String) -> Int? { nodes.firstIndex { $0.name == name } }

    /// Every node of the default scene in depth-first order with its world transform
    /// (column-major 4×4) and its parent's index.
    public func sceneNodes() -> [(node: Int, parent: Int?, world: [Double])] {
        var out: [(Int, Int?, [Double])] = []
        func visit(_ n: Int, _ parent: Int?, _ m: [Double]) {
            let w = GLBDocument.multiply(m, nodes[n].matrix)
            out.append((n, parent, w))
            for c in nodes[n].children { visit(c, n, w) }
        }
        for r in sceneRoots { visit(r, nil, GLBDocument.identity) }
        return out
    }

    /// a · b, both column-major 4×4.
    public static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        if a == identity { return b }
        if b == identity { return a }
        var r = [Double](repeating: 0, count: 16)
        for c in 0..<4 { for row in 0..<4 { r[c * 4 + row] = (0..<4).reduce(0) { $0 + a[$1 * 4 + row] * b[c * 4 + $1] } } }
        return r
    }

    /// T · R · S as a column-major matrix (rotation a unit quaternion x, y, z, w).
    static func trs(_ t: [Double], _ q: [Double], _ s: [Double]) -> [Double] {
        let (x, y, z, w) = (q[0], q[1], q[2], q[3])
        let r = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                 2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                 2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]
        return [r[0] * s[0], r[1] * s[0], r[2] * s[0], 0,
                r[3] * s[1], r[4] * s[1], r[5] * s[1], 0,
                r[6] * s[2], r[7] * s[2], r[8] * s[2], 0,
                t[0], t[1], t[2], 1]
    }

    /// Applies a column-major 4×4 to a point.
    @inlinable public static func transform(_ m: [Double], _ p: Vec3) -> Vec3 {
        Vec3(m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12],
             m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
             m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14])
    }

    /// Linear (0–1) to sRGB (0–1).
    public static func linearToSRGB(_ c: Double) -> Double {
        c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
    }
}

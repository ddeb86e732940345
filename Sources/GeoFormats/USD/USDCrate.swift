/// The binary encoding of a `USDLayer`: Pixar's "crate" format (.usdc), version 0.8.0, the
/// version OpenUSD itself writes by default and which the USD readers of iOS 12 onwards load.
///
/// Layout (all little-endian):
/// - a 88-byte bootstrap: "PXR-USDC", version bytes (0, 8, 0), the offset of the table of
///   contents, reserved zeros;
/// - the values that do not fit in 48 bits (arrays, vectors, doubles, list ops), each where a
///   ValueRep's payload points;
/// - the structural sections TOKENS (LZ4-compressed, NUL-separated), STRINGS (token indexes),
///   FIELDS (token index + ValueRep per field), FIELDSETS (field indexes per spec, each set
///   ended by ~0), PATHS (the path tree as three integer arrays) and SPECS (path, field set and
///   spec type per spec); every integer list is written with Sdf's integer compression;
/// - the table of contents: a count, then name (16 bytes), start and size per section.
///
/// A ValueRep is 64 bits: bit 63 array, bit 62 inlined, bit 61 compressed, bits 48–55 the type
/// (crateDataTypes.h), bits 0–47 the payload (an inlined value or a file offset).
public enum USDCrate {
    public static let version: [UInt8] = [0, 8, 0]

    public static func encode(_ layer: USDLayer) throws -> [UInt8] {
        try layer.validate()
        var w = CrateWriter()
        w.out.reserveCapacity(CrateWriter.estimatedSize(layer.rootPrims))
        w.addSpecs(layer)
        return w.finish()
    }

    enum TypeEnum: UInt64 {
        case bool = 1, int = 3, float = 8, double = 9, string = 10, token = 11
        case vec3f = 24, vec3h = 25
        case tokenListOp = 32, pathListOp = 34, tokenVector = 41, specifier = 42, variability = 44
    }

    enum SpecType: Int32 { case attribute = 1, prim = 6, pseudoRoot = 7, relationship = 8 }

    static func rep(_ t: TypeEnum, payload: UInt64, inlined: Bool = false, array: Bool = false, compressed: Bool = false) -> UInt64 {
        precondition(payload < 1 << 48)
        return (array ? 1 << 63 : 0) | (inlined ? 1 << 62 : 0) | (compressed ? 1 << 61 : 0) | t.rawValue << 48 | payload
    }
}

struct CrateWriter {
    static let bootstrapSize = 88
    static let minCompressedArraySize = 16

    var out = [UInt8](repeating: 0, count: CrateWriter.bootstrapSize)
    var tokens: [String] = []
    var tokenIndex: [String: UInt32] = [:]
    var strings: [UInt32] = []
    var stringIndex: [String: UInt32] = [:]
    var fields: [(token: UInt32, rep: UInt64)] = []
    var fieldIndex: [FieldKey: UInt32] = [:]
    var fieldSets: [UInt32] = []
    var fieldSetIndex: [[UInt32]: UInt32] = [:]
    var specs: [(path: UInt32, fieldSet: UInt32, type: Int32)] = []
    var paths = PathTree()

    struct FieldKey: Hashable { var token: UInt32; var rep: UInt64 }

    init() {
        // Token 0 is one no property name can be: OpenUSD's compressed path encoding marks
        // property elements by negating the token index, which fails for index 0.
        _ = token(";-)")
    }

    /// Bytes the arrays take uncompressed (an upper bound for the values part of the file).
    static func estimatedSize(_ prims: [USDPrim]) -> Int {
        prims.reduce(4096) { sum, p in
            sum + 256 + estimatedSize(p.children) + p.properties.reduce(0) { s, prop in
                guard case .attribute(let a) = prop, let v = a.value else { return s + 64 }
                switch v {
                case .float3Array(let f): return s + 16 + 4 * f.count
                case .half3Array(let h): return s + 16 + 2 * h.count
                case .intArray(let i): return s + 16 + 2 * i.count
                default: return s + 64
                }
            }
        }
    }

    mutating func token(_ s: String) -> UInt32 {
        if let i = tokenIndex[s] { return i }
        let i = UInt32(tokens.count)
        tokens.append(s); tokenIndex[s] = i
        return i
    }

    mutating func string(_ s: String) -> UInt32 {
        if let i = stringIndex[s] { return i }
        let i = UInt32(strings.count)
        strings.append(token(s)); stringIndex[s] = i
        return i
    }

    mutating func path(_ p: String) -> UInt32 {
        if let i = paths.byPath[p] { return i }
        let elements = PathTree.elements(of: p)
        let toks = elements.map { token($0.name) }
        return paths.insert(p, elements: elements, tokens: toks)
    }

    // MARK: values

    mutating func align(_ n: Int) { while out.count % n != 0 { out.append(0) } }
    mutating func u32(_ v: UInt32) { out.appendLE(v) }
    mutating func u64(_ v: UInt64) { out.appendLE(v) }
    mutating func raw<T>(_ a: [T]) { a.withUnsafeBytes { out.append(contentsOf: $0) } }

    /// An uncompressed array of 3-vectors (flat components): its count, then the raw values.
    mutating func vec3Array<T>(_ flat: [T], _ type: USDCrate.TypeEnum) -> UInt64 {
        if flat.isEmpty { return USDCrate.rep(type, payload: 0, array: true) }
        align(8)
        let at = UInt64(out.count)
        u64(UInt64(flat.count / 3))
        raw(flat)
        return USDCrate.rep(type, payload: at, array: true)
    }

    mutating func valueRep(_ v: USDValue) -> UInt64 {
        switch v {
        case .bool(let b): return USDCrate.rep(.bool, payload: b ? 1 : 0, inlined: true)
        case .int(let i): return USDCrate.rep(.int, payload: UInt64(UInt32(bitPattern: i)), inlined: true)
        case .float(let f): return USDCrate.rep(.float, payload: UInt64(f.bitPattern), inlined: true)
        case .token(let t): return USDCrate.rep(.token, payload: UInt64(token(t)), inlined: true)
        case .double(let d):
            align(8)
            let at = UInt64(out.count)
            u64(d.bitPattern)
            return USDCrate.rep(.double, payload: at)
        case .float3(let x, let y, let z):
            align(4)
            let at = UInt64(out.count)
            raw([x, y, z])
            return USDCrate.rep(.vec3f, payload: at)
        case .float3Array(let f):
            return vec3Array(f, .vec3f)
        case .half3Array(let h):
            return vec3Array(h, .vec3h)
        case .intArray(let a):
            if a.isEmpty { return USDCrate.rep(.int, payload: 0, array: true) }
            let at = UInt64(out.count)
            u64(UInt64(a.count))
            if a.count < CrateWriter.minCompressedArraySize {
                raw(a)
                return USDCrate.rep(.int, payload: at, array: true)
            }
            let c = CrateCompression.compressIntegers(a)
            u64(UInt64(c.count))
            out += c
            return USDCrate.rep(.int, payload: at, array: true, compressed: true)
        case .tokenArray(let t):
            if t.isEmpty { return USDCrate.rep(.token, payload: 0, array: true) }
            let idx = t.map { token($0) }
            align(8)
            let at = UInt64(out.count)
            u64(UInt64(idx.count))
            raw(idx)
            return USDCrate.rep(.token, payload: at, array: true)
        }
    }

    mutating func tokenVector(_ names: [String]) -> UInt64 {
        let idx = names.map { token($0) }
        let at = UInt64(out.count)
        u64(UInt64(idx.count))
        raw(idx)
        return USDCrate.rep(.tokenVector, payload: at)
    }

    /// SdfListOp header bits: 1 explicit, 2 has explicit items, 32 has prepended items.
    mutating func tokenListOpPrepended(_ names: [String]) -> UInt64 {
        let idx = names.map { token($0) }
        let at = UInt64(out.count)
        out.append(32)
        u64(UInt64(idx.count))
        raw(idx)
        return USDCrate.rep(.tokenListOp, payload: at)
    }

    mutating func pathListOpExplicit(_ targets: [String]) -> UInt64 {
        let idx = targets.map { path($0) }
        let at = UInt64(out.count)
        out.append(1 | 2)
        u64(UInt64(idx.count))
        raw(idx)
        return USDCrate.rep(.pathListOp, payload: at)
    }

    // MARK: specs

    mutating func field(_ name: String, _ rep: UInt64) -> UInt32 {
        let key = FieldKey(token: token(name), rep: rep)
        if let i = fieldIndex[key] { return i }
        let i = UInt32(fields.count)
        fields.append((key.token, rep)); fieldIndex[key] = i
        return i
    }

    mutating func addSpec(_ pathString: String, _ type: USDCrate.SpecType, _ fieldList: [UInt32]) {
        let fs: UInt32
        if let i = fieldSetIndex[fieldList] {
            fs = i
        } else {
            fs = UInt32(fieldSets.count)
            fieldSets += fieldList
            fieldSets.append(UInt32.max)     // a default FieldIndex ends each set
            fieldSetIndex[fieldList] = fs
        }
        specs.append((path(pathString), fs, type.rawValue))
    }

    mutating func addSpecs(_ layer: USDLayer) {
        var f: [UInt32] = []
        f.append(field("defaultPrim", valueRep(.token(layer.defaultPrim))))
        if let d = layer.documentation { f.append(field("documentation", USDCrate.rep(.string, payload: UInt64(string(d)), inlined: true))) }
        f.append(field("metersPerUnit", valueRep(.double(layer.metersPerUnit))))
        f.append(field("upAxis", valueRep(.token(layer.upAxis))))
        f.append(field("primChildren", tokenVector(layer.rootPrims.map(\.name))))
        addSpec("/", .pseudoRoot, f)
        for p in layer.rootPrims { addPrim(p, parent: "") }
    }

    mutating func addPrim(_ p: USDPrim, parent: String) {
        let path = parent + "/" + p.name
        var f: [UInt32] = []
        f.append(field("specifier", USDCrate.rep(.specifier, payload: 0, inlined: true)))   // def
        f.append(field("typeName", valueRep(.token(p.typeName))))
        if !p.apiSchemas.isEmpty { f.append(field("apiSchemas", tokenListOpPrepended(p.apiSchemas))) }
        if !p.properties.isEmpty { f.append(field("properties", tokenVector(p.properties.map(\.name)))) }
        if !p.children.isEmpty { f.append(field("primChildren", tokenVector(p.children.map(\.name)))) }
        addSpec(path, .prim, f)
        for prop in p.properties {
            switch prop {
            case .attribute(let a):
                var af: [UInt32] = [field("typeName", valueRep(.token(a.typeName)))]
                if a.uniform { af.append(field("variability", USDCrate.rep(.variability, payload: 1, inlined: true))) }
                if let c = a.connection { af.append(field("connectionPaths", pathListOpExplicit([c]))) }
                if let v = a.value { af.append(field("default", valueRep(v))) }
                if let i = a.interpolation { af.append(field("interpolation", valueRep(.token(i)))) }
                addSpec(path + "." + a.name, .attribute, af)
            case .relationship(let r):
                let rf = [field("targetPaths", pathListOpExplicit(r.targets)),
                          field("variability", USDCrate.rep(.variability, payload: 1, inlined: true))]
                addSpec(path + "." + r.name, .relationship, rf)
            }
        }
        for c in p.children { addPrim(c, parent: path) }
    }

    // MARK: sections

    mutating func finish() -> [UInt8] {
        var toc: [(name: String, start: Int, size: Int)] = []
        func section(_ name: String, _ body: (inout CrateWriter) -> Void) {
            let start = out.count
            body(&self)
            toc.append((name, start, out.count - start))
        }
        // Compressed integer lists: a uint64 byte count, then the bytes.
        func ints(_ w: inout CrateWriter, _ v: [Int32]) {
            let c = CrateCompression.compressIntegers(v)
            w.u64(UInt64(c.count)); w.out += c
        }
        section("TOKENS") { w in
            var chars: [UInt8] = []
            for t in w.tokens { chars += Array(t.utf8); chars.append(0) }
            let c = CrateCompression.fastCompress(chars)
            w.u64(UInt64(w.tokens.count)); w.u64(UInt64(chars.count)); w.u64(UInt64(c.count)); w.out += c
        }
        section("STRINGS") { w in
            w.u64(UInt64(w.strings.count)); w.raw(w.strings)
        }
        section("FIELDS") { w in
            w.u64(UInt64(w.fields.count))
            ints(&w, w.fields.map { Int32(bitPattern: $0.token) })
            var reps: [UInt8] = []
            for f in w.fields { reps.appendLE(f.rep) }
            let c = CrateCompression.fastCompress(reps)
            w.u64(UInt64(c.count)); w.out += c
        }
        section("FIELDSETS") { w in
            w.u64(UInt64(w.fieldSets.count))
            ints(&w, w.fieldSets.map { Int32(bitPattern: $0) })
        }
        section("PATHS") { w in
            let enc = w.paths.encode()
            w.u64(UInt64(w.paths.count))
            w.u64(UInt64(enc.pathIndexes.count))
            ints(&w, enc.pathIndexes)
            ints(&w, enc.elementTokens)
            ints(&w, enc.jumps)
        }
        section("SPECS") { w in
            w.u64(UInt64(w.specs.count))
            ints(&w, w.specs.map { Int32(bitPattern: $0.path) })
            ints(&w, w.specs.map { Int32(bitPattern: $0.fieldSet) })
            ints(&w, w.specs.map(\.type))
        }
        let tocOffset = out.count
        u64(UInt64(toc.count))
        for s in toc {
            var name = Array(s.name.utf8)
            name += [UInt8](repeating: 0, count: 16 - name.count)
            out += name
            u64(UInt64(s.start)); u64(UInt64(s.size))
        }
        // The bootstrap, at the start.
        var boot = Array("PXR-USDC".utf8) + USDCrate.version + [UInt8](repeating: 0, count: 8 - USDCrate.version.count)
        boot.appendLE(UInt64(tocOffset))
        boot += [UInt8](repeating: 0, count: 64)
        precondition(boot.count == CrateWriter.bootstrapSize)
        out.replaceSubrange(0..<CrateWriter.bootstrapSize, with: boot)
        return out
    }
}

/// The paths of a crate file as a tree: the root, prims, and prim properties. A path's index is
/// the order in which it was first named; the tree is written depth first.
struct PathTree {
    final class Node {
        let index: UInt32
        let element: UInt32
        let isProperty: Bool
        var children: [Node] = []
        var childByName: [String: Node] = [:]
        init(index: UInt32, element: UInt32, isProperty: Bool) { self.index = index; self.element = element; self.isProperty = isProperty }
    }
    let root = Node(index: 0, element: 0, isProperty: false)
    var count = 1
    var byPath: [String: UInt32] = ["/": 0]

    /// The elements of an absolute path ("/a/b" or "/a/b.c:d").
    /// On UTF-8 bytes: splitting by Character cost 23,000 instructions a path.
    static func elements(of path: String) -> [(name: String, isProperty: Bool)] {
        let u = Array(path.utf8)
        let dot = u.firstIndex(of: UInt8(ascii: "."))
        let primEnd = dot ?? u.count
        var e: [(name: String, isProperty: Bool)] = []
        var start = 0
        for i in 0...primEnd where i == primEnd || u[i] == UInt8(ascii: "/") {
            if i > start { e.append((String(decoding: u[start..<i], as: UTF8.self), false)) }
            start = i + 1
        }
        if let dot { e.append((String(decoding: u[(dot + 1)...], as: UTF8.self), true)) }
        return e
    }

    /// Adds `path` (and its parents) if new; returns its index.
    mutating func insert(_ path: String, elements: [(name: String, isProperty: Bool)], tokens: [UInt32]) -> UInt32 {
        if let i = byPath[path] { return i }
        var node = root
        var soFar = ""
        for (k, e) in elements.enumerated() {
            let key = (e.isProperty ? "." : "/") + e.name
            soFar += key
            if let next = node.childByName[key] { node = next; continue }
            let n = Node(index: UInt32(count), element: tokens[k], isProperty: e.isProperty)
            count += 1
            node.children.append(n)
            node.childByName[key] = n
            byPath[soFar] = n.index
            node = n
        }
        return node.index
    }

    /// OpenUSD's compressed path arrays: path index, element token (negative for a property),
    /// and jump (-2 leaf, -1 child only, 0 sibling only, > 0 both: offset to the sibling).
    func encode() -> (pathIndexes: [Int32], elementTokens: [Int32], jumps: [Int32]) {
        var pi: [Int32] = [], et: [Int32] = [], jumps: [Int32] = []
        func visit(_ nodes: [Node]) {
            for (k, n) in nodes.enumerated() {
                let me = pi.count
                pi.append(Int32(n.index))
                et.append(n.isProperty ? -Int32(n.element) : Int32(n.element))
                jumps.append(0)
                let hasSibling = k + 1 < nodes.count, hasChild = !n.children.isEmpty
                if hasChild { visit(n.children) }
                jumps[me] = hasSibling && hasChild ? Int32(pi.count - me) : hasSibling ? 0 : hasChild ? -1 : -2
            }
        }
        visit([root])
        return (pi, et, jumps)
    }
}

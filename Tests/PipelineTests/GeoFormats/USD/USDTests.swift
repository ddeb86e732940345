import Foundation
import Testing
@testable import GeoCompression
@testable import GeoFormats

/// A small scene with every kind of thing the globe writes: a transformed mesh with a material
/// binding, a GeomSubset, primvars, a Material + UsdPreviewSurface with a connection.
func smallUSDScene() -> USDLayer {
    var layer = USDLayer(defaultPrim: "globe")
    layer.metersPerUnit = 1
    var mesh = USDPrim("FR", type: "Mesh")
    mesh.apiSchemas = ["MaterialBindingAPI"]
    mesh.properties = [
        .attribute(USDAttribute("extent", "float3[]", .float3Array([0, 0, 0, 1, 1, 0]))),
        .attribute(USDAttribute("faceVertexCounts", "int[]", .intArray([3, 3]))),
        .attribute(USDAttribute("faceVertexIndices", "int[]", .intArray([0, 1, 2, 1, 3, 2]))),
        .relationship(USDRelationship("material:binding", targets: ["/globe/materials/land"])),
        .attribute(USDAttribute("points", "point3f[]", .float3Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]))),
        .attribute(USDAttribute("primvars:miter", "vector3h[]", .half3Array([0x3C00, 0, 0, 0xBC00, 0, 0, 0, 0x3800, 0, 0, 0, 0]), interpolation: "vertex")),
        .attribute(USDAttribute("subdivisionScheme", "token", .token("none"), uniform: true)),
        .attribute(USDAttribute("xformOp:translate", "float3", .float3(0.5, 0.25, 1.003))),
        .attribute(USDAttribute("xformOpOrder", "token[]", .tokenArray(["xformOp:translate"]), uniform: true)),
    ]
    var rim = USDPrim("FR_rim", type: "GeomSubset")
    rim.properties = [.attribute(USDAttribute("indices", "int[]", .intArray([1])))]
    mesh.children = [rim]
    var shader = USDPrim("surface", type: "Shader")
    shader.properties = [
        .attribute(USDAttribute("info:id", "token", .token("UsdPreviewSurface"), uniform: true)),
        .attribute(USDAttribute("inputs:opacity", "float", .float(0.15))),
        .attribute(USDAttribute("outputs:surface", "token", nil)),
    ]
    var material = USDPrim("land", type: "Material")
    material.properties = [.attribute(USDAttribute("outputs:surface", "token", nil, connection: "/globe/materials/land/surface.outputs:surface"))]
    material.children = [shader]
    var materials = USDPrim("materials", type: "Scope")
    materials.children = [material]
    var globe = USDPrim("globe", type: "Xform")
    globe.children = [mesh, materials]
    layer.rootPrims = [globe]
    return layer
}

// MARK: - readers used by the tests (the pipeline only writes)

func le64(_ b: [UInt8], _ o: Int) -> Int { (0..<8).reduce(0) { $0 | Int(b[o + $1]) << (8 * $1) } }
func le32(_ b: [UInt8], _ o: Int) -> Int { (0..<4).reduce(0) { $0 | Int(b[o + $1]) << (8 * $1) } }
func le16(_ b: [UInt8], _ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }

/// Sdf's integer decoding (the inverse of `CrateCompression.encodeIntegers`).
func decodeIntegers(_ d: [UInt8], count: Int) -> [Int32] {
    let common = Int32(truncatingIfNeeded: le32(d, 0))
    var vi = 4 + (count * 2 + 7) / 8
    var prev: Int32 = 0
    var out: [Int32] = []
    for i in 0..<count {
        switch (d[4 + i / 4] >> (2 * UInt8(i % 4))) & 3 {
        case 0: prev &+= common
        case 1: prev &+= Int32(Int8(bitPattern: d[vi])); vi += 1
        case 2: prev &+= Int32(Int16(bitPattern: UInt16(le16(d, vi)))); vi += 2
        default: prev &+= Int32(truncatingIfNeeded: le32(d, vi)); vi += 4
        }
        out.append(prev)
    }
    return out
}

/// A compressed integer list as the crate writes it: byte count, then TfFastCompression bytes.
func readCompressedInts(_ b: [UInt8], _ at: inout Int, count: Int) throws -> [Int32] {
    let size = le64(b, at)
    let chunk = Array(b[(at + 8)..<(at + 8 + size)])
    at += 8 + size
    #expect(chunk[0] == 0, "one LZ4 chunk")
    let raw = try #require(LZ4Block.decompress(Array(chunk.dropFirst())))
    return decodeIntegers(raw, count: count)
}

@Suite struct CrateCompressionTests {
    @Test func lz4RoundTripsAndKeepsTheEndOfBlockRules() throws {
        var rng = SystemRandomNumberGenerator()
        let inputs: [[UInt8]] = [
            [], [7], Array("PXR-USDC".utf8), [UInt8](repeating: 0, count: 100_000),
            (0..<50_000).map { UInt8($0 % 251) }, (0..<20_000).map { _ in UInt8.random(in: 0...3, using: &rng) },
            (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * $0 >> 7) },
        ]
        for input in inputs {
            var block: [UInt8] = []
            LZ4Block.compress(input, into: &block)
            #expect(LZ4Block.decompress(block) == input)
            // LZ4_decompress_safe's rules: the last 5 bytes are literals, no match starts in the
            // last 12 bytes, and the block ends with a literal-only sequence.
            var i = 0, produced = 0
            while i < block.count {
                let token = Int(block[i]); i += 1
                var lit = token >> 4
                if lit == 15 { while true { let b = Int(block[i]); i += 1; lit += b; if b != 255 { break } } }
                i += lit; produced += lit
                if i == block.count { break }
                i += 2
                var len = token & 15
                if len == 15 { while true { let b = Int(block[i]); i += 1; len += b; if b != 255 { break } } }
                len += 4
                #expect(produced < input.count - 12)
                #expect(produced + len <= input.count - 5)
                produced += len
            }
            #expect(produced == input.count)
        }
        // Long runs compress (the all-3 faceVertexCounts of a mesh).
        var zeros: [UInt8] = []
        LZ4Block.compress([UInt8](repeating: 0, count: 100_000), into: &zeros)
        #expect(zeros.count < 500)
    }

    @Test func integerCodingMatchesOpenUSDsExample() {
        // integerCoding.cpp's worked example: deltas 123, 1, 1, 100000, 0, 1, 0; common delta 1.
        let coded = CrateCompression.encodeIntegers([123, 124, 125, 100_125, 100_125, 100_126, 100_126])
        #expect(coded == [1, 0, 0, 0, 0xC1, 0x11, 123, 0xA0, 0x86, 0x01, 0x00, 0, 0])
        let values: [Int32] = [5, -70_000, Int32.max, Int32.min, 0, 300, 301, 302] + (0..<1000).map { Int32($0 % 7) }
        #expect(decodeIntegers(CrateCompression.encodeIntegers(values), count: values.count) == values)
        // Ties between common deltas go to the larger one, as in OpenUSD.
        #expect(CrateCompression.encodeIntegers([2, 4, 3, 2]).prefix(4) == [2, 0, 0, 0])
    }

    @Test func halfPrecision() {
        #expect(Half.bits(1) == 0x3C00)
        #expect(Half.bits(-2) == 0xC000)
        #expect(Half.bits(0.5) == 0x3800)
        #expect(Half.bits(65504) == 0x7BFF)
        #expect(Half.bits(65520) == 0x7C00)           // rounds past the largest half: infinity
        #expect(Half.bits(0.1) == 0x2E66)
        #expect(Half.bits(5.9604645e-8) == 0x0001)    // the smallest subnormal
        #expect(Half.bits(1e-9) == 0)
        for h in [UInt16(0x0001), 0x03FF, 0x0400, 0x2E66, 0x3C00, 0x3C01, 0x7BFF, 0xBC00] {
            #expect(Half.bits(Half.float(h)) == h)
        }
        #expect(Half.float(0x3555) == 0.33325195)
    }
}

@Suite struct USDZPackageTests {
    @Test func storedAlignedRootLayerFirst() throws {
        #expect(Zlib.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        let files: [(name: String, data: [UInt8])] = [("globe.usdc", Array("PXR-USDC".utf8) + [1, 2, 3]),
                                                      ("textures/a.png", [UInt8](repeating: 9, count: 1000)),
                                                      ("b.usda", Array("#usda 1.0\n".utf8))]
        let zip = try USDZPackage.archive(files)
        var at = 0
        for f in files {
            #expect(le32(zip, at) == 0x0403_4B50)
            #expect(le16(zip, at + 8) == 0)                    // stored
            #expect(le16(zip, at + 6) & 1 == 0)                // not encrypted
            #expect(le32(zip, at + 14) == Int(Zlib.crc32(f.data)))
            #expect(le32(zip, at + 18) == f.data.count && le32(zip, at + 22) == f.data.count)
            let n = le16(zip, at + 26), x = le16(zip, at + 28)
            #expect(String(decoding: zip[(at + 30)..<(at + 30 + n)], as: UTF8.self) == f.name)
            let data = at + 30 + n + x
            #expect(data % 64 == 0)
            #expect(Array(zip[data..<(data + f.data.count)]) == f.data)
            at = data + f.data.count
        }
        // Central directory: one entry per file, pointing at the local headers.
        let eocd = zip.count - 22
        #expect(le32(zip, eocd) == 0x0605_4B50)
        #expect(le16(zip, eocd + 10) == files.count)
        #expect(le32(zip, eocd + 16) == at)
        #expect(le32(zip, at) == 0x0201_4B50)
        #expect(le32(zip, at + 42) == 0)                       // the root layer's header is first
        #expect(try USDZPackage.archive(files) == zip)         // deterministic
    }

    @Test func refusesWhatIsNotAPackage() {
        #expect(throws: USDZPackage.PackageError.self) { try USDZPackage.archive([]) }
        #expect(throws: USDZPackage.PackageError.self) { try USDZPackage.archive([("a.png", [1])]) }
        #expect(throws: USDZPackage.PackageError.self) { try USDZPackage.archive([("a.usdc", [1]), ("a.usdc", [2])]) }
        #expect(throws: USDZPackage.PackageError.self) { try USDZPackage.archive([("a.usdc", [1]), ("../b.png", [2])]) }
    }
}

@Suite struct USDIdentifierTests {
    @Test func identifiers() {
        for ok in ["FR", "globe", "outline_sector_47", "_x", "capital_FR", "a1"] { #expect(USDIdentifier.isValid(ok)) }
        for bad in ["", "1A", "A-B", "../x", "A/", "<A", "a b", "é", "A.B", "a:b"] { #expect(!USDIdentifier.isValid(bad)) }
        #expect(USDIdentifier.isValidPropertyName("inputs:diffuseColor"))
        #expect(!USDIdentifier.isValidPropertyName("inputs:"))
        #expect(USDIdentifier.isValidAbsolutePath("/globe/materials/land/surface.outputs:surface"))
        #expect(!USDIdentifier.isValidAbsolutePath("globe/FR"))
        #expect(!USDIdentifier.isValidAbsolutePath("/globe/1A"))
    }

    @Test func invalidNamesAreRefusedWithThePath() {
        for bad in ["1A", "A-B", "../x"] {
            var layer = smallUSDScene()
            layer.rootPrims[0].children[0].name = bad
            for encode in [USDCrate.encode, USDAText.encode] {
                #expect(throws: USDError("prim name \"\(bad)\" under /globe is not a valid USD identifier ([A-Za-z_][A-Za-z0-9_]*)")) { try encode(layer) }
            }
        }
        var dup = smallUSDScene()
        dup.rootPrims[0].children[1].name = "FR"
        #expect(throws: USDError("prim /globe/FR appears twice")) { try USDCrate.encode(dup) }
        var prop = smallUSDScene()
        prop.rootPrims[0].children[0].properties.append(.attribute(USDAttribute("bad name", "int", .int(1))))
        #expect(throws: USDError("property name \"bad name\" of /globe/FR is not a valid USD property name")) { try USDCrate.encode(prop) }
        var type = smallUSDScene()
        type.rootPrims[0].children[0].properties.append(.attribute(USDAttribute("n", "float", .int(1))))
        #expect(throws: USDError("value of /globe/FR.n does not fit its type float (or is not finite)")) { try USDCrate.encode(type) }
        var dflt = smallUSDScene()
        dflt.defaultPrim = "world"
        #expect(throws: USDError("defaultPrim \"world\" names no root prim")) { try USDCrate.encode(dflt) }
    }
}

@Suite struct USDEncodingTests {
    @Test func textEncoding() throws {
        let text = String(decoding: try USDAText.encode(smallUSDScene()), as: UTF8.self)
        #expect(text == """
        #usda 1.0
        (
            defaultPrim = "globe"
            metersPerUnit = 1.0
            upAxis = "Y"
        )

        def Xform "globe"
        {
            def Mesh "FR" (
                prepend apiSchemas = ["MaterialBindingAPI"]
            )
            {
                float3[] extent = [(0.0, 0.0, 0.0), (1.0, 1.0, 0.0)]
                int[] faceVertexCounts = [3, 3]
                int[] faceVertexIndices = [0, 1, 2, 1, 3, 2]
                rel material:binding = </globe/materials/land>
                point3f[] points = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (1.0, 1.0, 0.0)]
                vector3h[] primvars:miter = [(1.0, 0.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 0.5, 0.0), (0.0, 0.0, 0.0)] (
                    interpolation = "vertex"
                )
                uniform token subdivisionScheme = "none"
                float3 xformOp:translate = (0.5, 0.25, 1.003)
                uniform token[] xformOpOrder = ["xformOp:translate"]

                def GeomSubset "FR_rim"
                {
                    int[] indices = [1]
                }
            }

            def Scope "materials"
            {
                def Material "land"
                {
                    token outputs:surface.connect = </globe/materials/land/surface.outputs:surface>

                    def Shader "surface"
                    {
                        uniform token info:id = "UsdPreviewSurface"
                        float inputs:opacity = 0.15
                        token outputs:surface
                    }
                }
            }
        }

        """)
    }

    @Test func crateEncoding() throws {
        let b = try USDCrate.encode(smallUSDScene())
        #expect(try USDCrate.encode(smallUSDScene()) == b)               // deterministic
        #expect(Array(b[0..<8]) == Array("PXR-USDC".utf8))
        #expect(Array(b[8..<16]) == [0, 8, 0, 0, 0, 0, 0, 0])
        let toc = le64(b, 16)
        #expect(le64(b, toc) == 6)
        var sections: [String: (start: Int, size: Int)] = [:]
        var end = 88
        for k in 0..<6 {
            let at = toc + 8 + 32 * k
            let name = String(decoding: b[at..<(at + 16)].prefix { $0 != 0 }, as: UTF8.self)
            let s = (le64(b, at + 16), le64(b, at + 24))
            #expect(s.0 >= end && s.0 + s.1 <= toc, "section \(name) inside the file, in order")
            end = s.0 + s.1
            sections[name] = s
        }
        #expect(Set(sections.keys) == ["TOKENS", "STRINGS", "FIELDS", "FIELDSETS", "PATHS", "SPECS"])
        #expect(toc + 8 + 6 * 32 == b.count)

        // Tokens: count, raw size, LZ4 size, then NUL-separated names; token 0 is ";-)".
        let t = sections["TOKENS"]!.start
        let count = le64(b, t), rawSize = le64(b, t + 8), lzSize = le64(b, t + 16)
        let chars = try #require(LZ4Block.decompress(Array(b[(t + 25)..<(t + 24 + lzSize)])))
        #expect(b[t + 24] == 0 && chars.count == rawSize)
        let tokens = chars.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        #expect(tokens.count == count && tokens.first == ";-)")

        // Paths: rebuild them from the three compressed arrays.
        var at = sections["PATHS"]!.start
        let nPaths = le64(b, at)
        #expect(le64(b, at + 8) == nPaths)
        at += 16
        let pathIndexes = try readCompressedInts(b, &at, count: nPaths)
        let elements = try readCompressedInts(b, &at, count: nPaths)
        let jumps = try readCompressedInts(b, &at, count: nPaths)
        var paths = [String](repeating: "", count: nPaths)
        func build(_ start: Int, _ parent: String?) {
            var i = start
            var parent = parent
            while true {
                let e = elements[i]
                let path = parent == nil ? "/" : e < 0 ? parent! + "." + tokens[Int(-e)] : (parent == "/" ? "" : parent!) + "/" + tokens[Int(e)]
                paths[Int(pathIndexes[i])] = path
                let j = jumps[i]
                if j > 0 { build(i + Int(j), parent) }
                if j == -2 { return }
                if j == -1 || j > 0 { parent = path }
                i += 1
            }
        }
        build(0, nil)
        #expect(Set(paths) == ["/", "/globe", "/globe/FR", "/globe/FR.extent", "/globe/FR.faceVertexCounts", "/globe/FR.faceVertexIndices",
                               "/globe/FR.material:binding", "/globe/FR.points", "/globe/FR.primvars:miter", "/globe/FR.subdivisionScheme",
                               "/globe/FR.xformOp:translate", "/globe/FR.xformOpOrder", "/globe/FR/FR_rim", "/globe/FR/FR_rim.indices",
                               "/globe/materials", "/globe/materials/land", "/globe/materials/land.outputs:surface",
                               "/globe/materials/land/surface", "/globe/materials/land/surface.info:id",
                               "/globe/materials/land/surface.inputs:opacity", "/globe/materials/land/surface.outputs:surface"])

        // Specs: one per path, the pseudo-root (7) first, then prims (6), attributes (1), a relationship (8).
        at = sections["SPECS"]!.start
        let nSpecs = le64(b, at)
        at += 8
        let specPaths = try readCompressedInts(b, &at, count: nSpecs)
        _ = try readCompressedInts(b, &at, count: nSpecs)
        let types = try readCompressedInts(b, &at, count: nSpecs)
        #expect(nSpecs == nPaths && Set(specPaths.map { paths[Int($0)] }) == Set(paths))
        #expect(types.first == 7 && types.filter { $0 == 6 }.count == 6 && types.filter { $0 == 8 }.count == 1)
    }
}

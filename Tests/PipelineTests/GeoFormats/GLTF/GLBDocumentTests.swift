import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoFormats
@testable import GlobeStage

/// A .glb container around a JSON text and a BIN chunk, for hand-made files.
func makeGLB(json: String, bin: [UInt8]) -> [UInt8] {
    var j = Array(json.utf8)
    while j.count % 4 != 0 { j.append(0x20) }
    var b = bin
    while b.count % 4 != 0 { b.append(0) }
    var out: [UInt8] = []
    func u32(_ v: Int) { let x = UInt32(v); out += [UInt8(x & 0xFF), UInt8((x >> 8) & 0xFF), UInt8((x >> 16) & 0xFF), UInt8(x >> 24)] }
    u32(0x4654_6C67); u32(2); u32(12 + 8 + j.count + 8 + b.count)
    u32(j.count); u32(0x4E4F_534A); out += j
    u32(b.count); u32(0x004E_4942); out += b
    return out
}

/// The GLB reader against what the globe stage writes, and against hand-made files using the
/// quantized and normalized types of KHR_mesh_quantization and node transforms.
@Suite struct GLBReaderTests {
    @Test func roundTripsTheGlobeStageOnLesothoSouthAfrica() throws {
        let dir = temporaryDirectory()
        let input = try GlobeTests().world(in: dir)
        var o = GlobeStage.Options(input: input, output: dir + "/globe.glb")
        o.manifest = dir + "/globe.manifest.json"
        let log = StageLog(stage: "test", quiet: true)
        let r = try GlobeStage.build(o, log: log)
        _ = try GlobeStage.write(r, o, log: log)
        let doc = try GLBDocument.read(path: o.output)

        // Node names: exactly the builder's, in the builder's order.
        let (json, _) = try splitGLB(try FileIO.readBytes(o.output))
        #expect(doc.nodes.map(\.name) == json["nodes"]!.arrayValue!.map { $0["name"]?.stringValue })
        #expect(doc.sceneRoots.count == 1 && doc.nodes[doc.sceneRoots[0]].name == "globe")
        #expect(doc.sceneNodes().count == doc.nodes.count)
        // Only the fills are moved (a translation: their positions are relative to their centre).
        let fillNodes = Set(r.meshes.map(\.id))
        let world = Dictionary(uniqueKeysWithValues: doc.sceneNodes().map { ($0.node, $0.world) })
        #expect(doc.sceneNodes().allSatisfy { ($0.world == GLBDocument.identity) != fillNodes.contains(doc.nodes[$0.node].name ?? "") })
        #expect(doc.extensionsUsed.contains("KHR_mesh_quantization") && doc.extensionsUsed.contains("KHR_materials_unlit"))

        // Country fills: vertex counts, positions within float32 rounding, normals within the
        // byte quantization, indices exactly.
        for m in r.meshes {
            let n = try #require(doc.node(named: m.id))
            #expect(doc.nodes[n].extras?["iso"]?.stringValue == m.id)
            let prim = doc.meshes[doc.nodes[n].mesh!].primitives[0]
            let pa = try #require(prim.attribute("POSITION"))
            #expect(doc.accessors[pa].count == m.vertexCount)
            let pos = try doc.vec3(pa)
            var worst = 0.0
            for (a, b) in zip(pos, m.positions) { worst = max(worst, (GLBDocument.transform(world[n]!, a) - b * o.fillRadius).length) }
            #expect(worst < 2e-7, "\(m.id): positions differ by \(worst)")
            // min/max are the exact extremes of the decoded values.
            let f = try doc.floats(pa)
            for k in 0..<3 {
                let comp = stride(from: k, to: f.count, by: 3).map { f[$0] }
                #expect(Float(doc.accessors[pa].min![k]) == comp.min()!)
                #expect(Float(doc.accessors[pa].max![k]) == comp.max()!)
            }
            let na = try #require(prim.attribute("NORMAL"))
            #expect(doc.accessors[na].componentType == 5120 && doc.accessors[na].normalized)
            let normals = try doc.vec3(na)
            var worstN = 0.0
            for (a, b) in zip(normals, m.positions) { worstN = max(worstN, (a - b.normalized).length) }
            #expect(worstN < 1.0 / 127 + 1e-6, "\(m.id): normals differ by \(worstN)")
            let idx = try doc.indices(prim.indices!, vertexCount: m.vertexCount)
            #expect(idx == FillNodeGeometry(m, radius: o.fillRadius).triangles.map { UInt32($0) })
            #expect(doc.materials[prim.material!].name == "land")
        }
        // The point country and its rim, capitals, sectors.
        let ad = try #require(doc.node(named: "AD"))
        #expect(doc.nodes[ad].children.map { doc.nodes[$0].name } == ["AD_rim"])
        #expect(doc.materials[doc.meshes[doc.nodes[doc.nodes[ad].children[0]].mesh!].primitives[0].material!].name == "border")
        #expect(["capital_AD", "capital_FJ", "capital_LS", "capital_ZA"].allSatisfy { doc.node(named: $0) != nil })
        let miterScale = try #require(doc.json["asset"]?["extras"]?["miterScale"]?.doubleValue)
        for s in r.sectors where !s.positions.isEmpty {
            let n = try #require(doc.node(named: "outline_sector_\(s.index)"))
            var positions: [Vec3] = [], miters: [Vec3] = []
            for p in doc.meshes[doc.nodes[n].mesh!].primitives {
                #expect(p.mode == 5)
                positions += try doc.vec3(p.attribute("POSITION")!)
                miters += try doc.vec3(p.attribute("_MITER")!).map { $0 * miterScale }
            }
            #expect(positions.count == s.positions.count)
            let dp = zip(positions, s.positions).map { ($0 - $1 * o.outlineRadius).length }.max()!
            let dm = zip(miters, s.miters).map { ($0 - $1).length }.max()!
            #expect(dp < 2e-7 && dm < miterScale / 127 + 1e-6, "sector \(s.index): positions \(dp), miters \(dm)")
        }
        // Materials: the palette's sRGB back from the linear factors; the atmosphere blends.
        for (name, rgb, alpha) in GlobeStage.palette {
            guard let m = doc.materials.first(where: { $0.name == name }) else { continue }
            #expect(abs(m.srgb.0 - rgb.0) < 1e-5 && abs(m.srgb.1 - rgb.1) < 1e-5 && abs(m.srgb.2 - rgb.2) < 1e-5, "\(name)")
            #expect(m.unlit && abs(m.alpha - alpha) < 1e-9)
            #expect(m.alphaMode == (alpha < 1 ? "BLEND" : "OPAQUE"))
        }
    }

    @Test func decodesQuantizedNormalizedTypesAndNodeTransforms() throws {
        // POSITION as normalized signed shorts under a node with translation and scale (the
        // KHR_mesh_quantization pattern), a colour as normalized unsigned bytes, a texcoord as
        // normalized unsigned shorts, indices as unsigned bytes.
        var bin: [UInt8] = []
        func i16(_ v: Int16) { let u = UInt16(bitPattern: v); bin += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        func u16(_ v: UInt16) { bin += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        for p: [Int16] in [[32767, 0, -32768], [0, 16384, 0], [-32767, -1, 100]] { p.forEach(i16); i16(0) }   // stride 8
        let colorOffset = bin.count
        bin += [255, 0, 128, 0, 51, 204, 1, 0, 0, 0, 0, 0]                                                    // stride 4
        let uvOffset = bin.count
        for v: UInt16 in [0, 65535, 32768, 1, 65535, 0] { u16(v) }
        let idxOffset = bin.count
        bin += [0, 1, 2, 0]
        let json = """
        {"asset":{"version":"2.0"},"extensionsUsed":["KHR_mesh_quantization"],"extensionsRequired":["KHR_mesh_quantization"],
         "scene":0,"scenes":[{"nodes":[0]}],
         "nodes":[{"name":"parent","translation":[1,2,3],"children":[1]},{"name":"q","mesh":0,"scale":[2,2,2]}],
         "meshes":[{"name":"q","primitives":[{"attributes":{"POSITION":0,"COLOR_0":1,"TEXCOORD_0":2},"indices":3,"mode":4}]}],
         "accessors":[
          {"bufferView":0,"componentType":5122,"normalized":true,"count":3,"type":"VEC3","min":[-1,-0.0000305,-1],"max":[1,0.5,0.003]},
          {"bufferView":1,"componentType":5121,"normalized":true,"count":3,"type":"VEC3"},
          {"bufferView":2,"componentType":5123,"normalized":true,"count":3,"type":"VEC2"},
          {"bufferView":3,"componentType":5121,"count":3,"type":"SCALAR"}],
         "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":24,"byteStride":8},
          {"buffer":0,"byteOffset":\(colorOffset),"byteLength":12,"byteStride":4},
          {"buffer":0,"byteOffset":\(uvOffset),"byteLength":12},
          {"buffer":0,"byteOffset":\(idxOffset),"byteLength":3}],
         "buffers":[{"byteLength":\(bin.count)}]}
        """
        let doc = try GLBDocument(bytes: makeGLB(json: json, bin: bin), file: "q.glb")
        let pos = try doc.floats(0)
        #expect(pos == [1, 0, -1, 0, Float(16384) / 32767, 0, -1, Float(-1) / 32767, Float(100) / 32767])
        #expect(try doc.floats(1) == [1, 0, Float(128) / 255, 0.2, 0.8, Float(1) / 255, 0, 0, 0])
        #expect(try doc.floats(2) == [0, 1, Float(32768) / 65535, Float(1) / 65535, 1, 0])
        #expect(try doc.indices(3, vertexCount: 3) == [0, 1, 2])
        let nodes = doc.sceneNodes()
        #expect(nodes.map(\.node) == [0, 1] && nodes[1].parent == 0)
        // World = translate(1,2,3) · scale(2): the first vertex (1, 0, −1) lands at (3, 2, 1).
        let v = GLBDocument.transform(nodes[1].world, Vec3(1, 0, -1))
        #expect(v == Vec3(3, 2, 1))
        // A quaternion: 90° about y turns +x into −z.
        let rot = GLBDocument.trs([0, 0, 0], [0, sin(Double.pi / 4), 0, cos(Double.pi / 4)], [1, 1, 1])
        let turned = GLBDocument.transform(rot, Vec3(1, 0, 0))
        #expect((turned - Vec3(0, 0, -1)).length < 1e-12)
    }

    @Test func malformedFilesAreNamedErrors() throws {
        let good = makeGLB(json: """
        {"asset":{"version":"2.0"},"accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"VEC3"},
         {"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}],
         "bufferViews":[{"buffer":0,"byteLength":24},{"buffer":0,"byteOffset":24,"byteLength":6}],"buffers":[{"byteLength":32}]}
        """, bin: [UInt8](repeating: 0, count: 24) + [0, 0, 1, 0, 5, 0, 0, 0])
        let doc = try GLBDocument(bytes: good, file: "g.glb")
        #expect(try doc.floats(0) == [Float](repeating: 0, count: 6))
        func problem(_ bytes: [UInt8]) -> String {
            do { _ = try GLBDocument(bytes: bytes, file: "bad.glb"); return "no error" } catch { return "\(error)" }
        }
        #expect(problem(Array(good.dropLast(4))).contains("bad.glb: header says"))
        var magic = good; magic[0] = 0x47
        #expect(problem(magic).contains("does not start with \"glTF\""))
        #expect(problem([]).contains("shorter than the 12-byte header"))
        let pastView = makeGLB(json: """
        {"asset":{"version":"2.0"},"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
         "bufferViews":[{"buffer":0,"byteLength":24}],"buffers":[{"byteLength":24}]}
        """, bin: [UInt8](repeating: 0, count: 24))
        #expect(problem(pastView).contains("accessor 0 (3 × VEC3) runs past bufferView 0"))
        let badRef = makeGLB(json: """
        {"asset":{"version":"2.0"},"nodes":[{"name":"n","mesh":4}]}
        """, bin: [])
        #expect(problem(badRef).contains("node 0 (n).mesh refers to mesh 4, but there are 0"))
        let cycle = makeGLB(json: """
        {"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"children":[1]},{"children":[0]}]}
        """, bin: [])
        #expect(problem(cycle).contains("appears twice in the scene hierarchy"))
        #expect(problem(makeGLB(json: "{\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":[\"EXT_meshopt_compression\"]}", bin: []))
            .contains("requires extension EXT_meshopt_compression"))
        // Index 5 of the second accessor is past the 2 vertices.
        #expect {
            _ = try doc.indices(1, vertexCount: 2)
        } throws: { "\($0)".contains("g.glb: accessor 1: index 5 is out of range for 2 vertices") }
    }
}

import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoFormats

/// Reads the little-endian UInt32 at `o`.
func glbUInt32(_ b: [UInt8], _ o: Int) -> Int {
    Int(b[o]) | Int(b[o + 1]) << 8 | Int(b[o + 2]) << 16 | Int(b[o + 3]) << 24
}

/// The JSON chunk and BIN chunk of a .glb, with the container rules checked.
func splitGLB(_ b: [UInt8]) throws -> (json: JSONValue, bin: [UInt8]) {
    #expect(Array(b[0..<4]) == Array("glTF".utf8))
    #expect(glbUInt32(b, 4) == 2)
    #expect(glbUInt32(b, 8) == b.count)
    let jl = glbUInt32(b, 12)
    #expect(glbUInt32(b, 16) == 0x4E4F_534A)
    #expect(jl % 4 == 0)
    let json = Array(b[20..<(20 + jl)])
    let bo = 20 + jl
    let bl = glbUInt32(b, bo)
    #expect(glbUInt32(b, bo + 4) == 0x004E_4942)
    #expect(bl % 4 == 0)
    #expect(bo + 8 + bl == b.count)
    return (try JSONValue.parse(json, file: "glb JSON"), Array(b[(bo + 8)...]))
}

@Suite struct GLTFTests {
    @Test func containerPaddingAndPositionBounds() throws {
        let b = GLTFBuilder()
        let pts = [Vec3(0.1, 0.2, 0.3), Vec3(-0.5, 0.25, 1.003), Vec3(0.7, -0.9, 0)]
        let pos = b.addVec3Float(pts, bounds: true)
        let nrm = b.addVec3Int8Normalized(pts.map(\.normalized))
        let idx = b.addIndices([0, 1, 2])       // 6 bytes: the next view must start 4-aligned
        let mat = b.addUnlitMaterial(name: "land", srgb: (0.204, 0.745, 0.510))
        let mesh = b.addMesh(name: "T", primitives: [.init(attributes: [("POSITION", pos), ("NORMAL", nrm)], indices: idx, material: mat)])
        _ = b.addVec3Float([Vec3(1, 1, 1)], bounds: false)
        _ = b.addNode(name: "T", mesh: mesh, root: true)
        let glb = b.glb()
        let (json, bin) = try splitGLB(glb)
        let views = json["bufferViews"]!.arrayValue!
        for v in views { #expect(Int(v["byteOffset"]!.doubleValue!) % 4 == 0) }
        #expect(views[1]["byteStride"]?.doubleValue == 4)
        let acc = json["accessors"]!.arrayValue![pos]
        let mins = acc["min"]!.arrayValue!.map { Float($0.doubleValue!) }, maxs = acc["max"]!.arrayValue!.map { Float($0.doubleValue!) }
        #expect(mins == [Float(-0.5), Float(-0.9), Float(0)])
        #expect(maxs == [Float(0.7), Float(0.25), Float(1.003)])
        // The float32 bytes in BIN are the values, little-endian.
        let first = Float(bitPattern: UInt32(glbUInt32(bin, 0)))
        #expect(first == Float(0.1))
        #expect(json["extensionsUsed"]!.arrayValue!.contains(.string("KHR_materials_unlit")))
        let factor = json["materials"]!.arrayValue![0]["pbrMetallicRoughness"]!["baseColorFactor"]!.arrayValue!
        // Linear factor that shows sRGB 0.204 on screen.
        #expect(abs(factor[0].doubleValue! - pow((0.204 + 0.055) / 1.055, 2.4)) < 1e-6)
    }

    @Test func largeIndexBuffersSwitchToUInt32() throws {
        let b = GLTFBuilder()
        let small = b.addIndices([0, 1, 65534]), large = b.addIndices([0, 1, 65535])
        let json = b.json()
        #expect(json["accessors"]!.arrayValue![small]["componentType"]!.doubleValue == 5123)
        #expect(json["accessors"]!.arrayValue![large]["componentType"]!.doubleValue == 5125)
    }
}

@Suite struct GLTFEmptyTests {
    /// glTF 2.0: accessor count ≥ 1 and buffer view byteLength ≥ 1; the builder refuses empties.
    @Test func emptyAccessorsAreRefused() async {
        await #expect(processExitsWith: .failure) {
            _ = GLTFBuilder().addVec3Float([], bounds: true)
        }
        await #expect(processExitsWith: .failure) {
            _ = GLTFBuilder().addIndices([])
        }
    }
}

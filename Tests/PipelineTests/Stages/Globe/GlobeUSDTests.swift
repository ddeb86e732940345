import Foundation
import Testing
@testable import GeoModel
@testable import GeoFormats
@testable import GlobeStage

/// globe.usdz from the globe stage on GlobeTests' small world (Lesotho, South Africa, Fiji,
/// Antarctica; Andorra as a point country). Pixar's USD reads the real file in
/// scripts/checks/check_usdz.py; here the scene's structure and the package's bytes.
@Suite struct GlobeUSDTests {
    func prim(_ p: USDPrim, _ path: [String]) -> USDPrim? {
        guard let first = path.first else { return p }
        return p.children.first { $0.name == first }.flatMap { prim($0, Array(path.dropFirst())) }
    }

    func attribute(_ p: USDPrim, _ name: String) -> USDValue? {
        for case .attribute(let a) in p.properties where a.name == name { return a.value }
        return nil
    }

    @Test func sameNodesAndTrianglesAsTheGlb() throws {
        let dir = temporaryDirectory()
        let input = try GlobeTests().world(in: dir)
        var o = GlobeTests().options(input, dir)
        o.usdz = dir + "/globe.usdz"
        let log = StageLog(stage: "test", quiet: true)
        let r = try GlobeStage.build(o, log: log)
        _ = try GlobeStage.write(r, o, log: log)

        // The package: one stored file, globe.usdc, a crate file, 64-byte aligned.
        let package = try FileIO.readBytes(o.usdz!)
        #expect(le32(package, 0) == 0x0403_4B50 && le16(package, 8) == 0)
        let nameLength = le16(package, 26), data = 30 + nameLength + le16(package, 28)
        #expect(String(decoding: package[30..<(30 + nameLength)], as: UTF8.self) == "globe.usdc")
        #expect(data % 64 == 0)
        #expect(Array(package[data..<(data + 8)]) == Array("PXR-USDC".utf8))
        let manifest = try JSONValue.parse(try FileIO.readBytes(o.manifest!), file: o.manifest!)
        #expect(manifest["usdz"]?["file"]?.stringValue == "globe.usdz")
        #expect(manifest["usdz"]?["rootLayer"]?.stringValue == "globe.usdc")

        // The scene, rebuilt from the run's meshes as the stage builds it.
        let fills = r.meshes.map { FillNodeGeometry($0, radius: o.fillRadius) }
        let layer = GlobeUSD.layer(o, meshes: r.meshes, fills: fills, points: r.points, capitals: r.capitals, sectors: r.sectors,
                                   markers: GlobeMarkers(o, points: r.points, capitals: r.capitals))
        #expect(try USDZPackage.archive([("globe.usdc", try USDCrate.encode(layer))]) == package)
        let globe = layer.rootPrims[0]
        #expect(layer.defaultPrim == "globe" && layer.upAxis == "Y")
        #expect(globe.children.map(\.name) == ["ocean", "countries", "outlines", "capitals", "atmosphere", "materials"])
        let countries = try #require(prim(globe, ["countries"]))
        #expect(countries.children.map(\.name) == ["AD", "AQ", "FJ", "LS", "ZA"])
        for (m, f) in zip(r.meshes, fills) {
            let p = try #require(prim(countries, [m.id]))
            #expect(p.typeName == "Mesh")
            #expect(attribute(p, "faceVertexIndices") == .intArray(f.triangles), "\(m.id): the glb's triangles")
            #expect(attribute(p, "points") == .float3Array(f.positions))
            #expect(attribute(p, "xformOp:translate") == .float3(f.translation[0], f.translation[1], f.translation[2]))
            #expect(attribute(p, "subdivisionScheme") == .token("none"))
        }
        // The point country: disc (24 triangles) then rim (48), the rim a bound GeomSubset.
        let ad = try #require(prim(countries, ["AD"]))
        let rim = try #require(prim(ad, ["AD_rim"]))
        #expect(rim.typeName == "GeomSubset")
        #expect(attribute(rim, "indices") == .intArray(Array(24..<72)))
        #expect(attribute(rim, "familyName") == .token("materialBind"))
        // Outlines: 48 sectors; each strip becomes two triangles per centre-line segment.
        let outlines = try #require(prim(globe, ["outlines"]))
        #expect(outlines.children.map(\.name) == (0..<48).map { "outline_sector_\($0)" })
        for s in r.sectors {
            let p = outlines.children[s.index]
            if s.segmentCount == 0 { #expect(p.typeName == "Xform"); continue }
            guard case .intArray(let idx)? = attribute(p, "faceVertexIndices") else { Issue.record("no indices"); continue }
            #expect(idx.count == 6 * s.segmentCount)
            guard case .half3Array(let miter)? = attribute(p, "primvars:miter") else { Issue.record("no miter"); continue }
            #expect(miter.count == 3 * s.positions.count)
            #expect(attribute(p, "normals") == nil)
        }
        let materials = try #require(prim(globe, ["materials"]))
        #expect(materials.children.map(\.name) == GlobeStage.palette.map(\.name))
    }
}

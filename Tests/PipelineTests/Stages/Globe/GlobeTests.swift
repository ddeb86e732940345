import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoFormats
@testable import GlobeStage

/// The globe stage end to end on a small real world: Lesotho, South Africa, Fiji, Antarctica
/// as polygons, Andorra as a point country.
@Suite struct GlobeTests {
    func world(in dir: String) throws -> String {
        let units = try Slices.units(Repo.units10m, ["LSO", "ZAF", "FJI", "ATA"])
        var features: [Feature] = []
        let codes = ["LSO": "LS", "ZAF": "ZA", "FJI": "FJ", "ATA": "AQ"]
        for u in units {
            let id = codes[u.string("SU_A3")!]!
            var p = JSONObject([("name", .string(u.string("NAME") ?? id))])
            if id != "AQ" { p["capital"] = .string("C"); p["capitalLat"] = .number(-20); p["capitalLon"] = .number(id == "FJ" ? 178.44 : 28) }
            features.append(Feature(id: id, properties: p, geometry: .areal(RingMath.orientedForRFC7946Polygons(u.geometry.polygons))))
        }
        features.append(Feature(id: "AD", properties: JSONObject([("name", .string("Andorra")), ("renderAs", .string("point")),
                                                                  ("capital", .string("Andorra la Vella")), ("capitalLat", .number(42.5)), ("capitalLon", .number(1.52))]),
                                geometry: .point(Point(1.52, 42.5))))
        features.sort { $0.id! < $1.id! }
        let path = dir + "/world.geojson"
        try GeoJSON.write(features, to: path)
        return path
    }

    func options(_ input: String, _ dir: String) -> GlobeStage.Options {
        var o = GlobeStage.Options(input: input, output: dir + "/globe.glb")
        o.manifest = dir + "/globe.manifest.json"
        return o
    }

    @Test func sceneNodesManifestAndDeterminism() throws {
        let dir = temporaryDirectory()
        let input = try world(in: dir)
        var o = options(input, dir)
        let log = StageLog(stage: "test", quiet: true)
        let r = try GlobeStage.build(o, log: log)
        _ = try GlobeStage.write(r, o, log: log)
        let (json, _) = try splitGLB(try FileIO.readBytes(o.output))
        let nodes = json["nodes"]!.arrayValue!
        func kind(_ k: String) -> Set<String> {
            Set(nodes.filter { $0["extras"]?["kind"]?.stringValue == k }.map { $0["name"]!.stringValue! })
        }
        #expect(kind("fill") == ["AQ", "FJ", "LS", "ZA"])
        #expect(kind("point") == ["AD"])
        #expect(kind("rim") == ["AD_rim"])
        #expect(kind("capital") == ["capital_AD", "capital_FJ", "capital_LS", "capital_ZA"])
        #expect(kind("outline") == Set((0..<48).map { "outline_sector_\($0)" }))
        #expect(kind("ocean").count == 1 && kind("atmosphere").count == 1)
        // Outline sectors: Fiji (lon 177–180, lat −16…−21) lies in sector lonBand 11, latBand 1.
        #expect(r.sectors[1 * 12 + 11].segmentCount > 0)
        #expect(r.sectors.allSatisfy { $0.positions.count == $0.miters.count && $0.positions.count == 2 * $0.runs.reduce(0) { $0 + $1.points } })
        // Manifest: parameters, per-node counts matching the meshes.
        let manifest = try JSONValue.parse(try FileIO.readBytes(o.manifest!), file: o.manifest!)
        #expect(manifest["parameters"]!["maxEdgeDegrees"]!.doubleValue == 2.5)
        let za = manifest["nodes"]!["ZA"]!
        #expect(za["iso"]!.stringValue == "ZA")
        #expect(za["triangles"]!.doubleValue == Double(r.meshes.first { $0.id == "ZA" }!.triangleCount))
        let fjBox = manifest["nodes"]!["FJ"]!["bbox"]!.arrayValue!.map { $0.doubleValue! }
        #expect(fjBox[0] > fjBox[2], "Fiji's bbox crosses the antimeridian (west > east)")
        // Same bytes again, and with one thread instead of two.
        let first = try FileIO.readBytes(o.output), firstManifest = try FileIO.readBytes(o.manifest!)
        o.threads = 1
        _ = try GlobeStage.run(o, log: log)
        #expect(try FileIO.readBytes(o.output) == first)
        #expect(try FileIO.readBytes(o.manifest!) == firstManifest)
    }

    /// A polygon with no area meshes to nothing: a named error, not an empty (invalid) accessor.
    @Test func zeroAreaCountryIsANamedError() throws {
        let dir = temporaryDirectory()
        let path = writeFile(dir, "flat.geojson", """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"XF","properties":{"name":"Flatland"},"geometry":{"type":"Polygon","coordinates":[[[10,0],[11,0],[12,0],[11,0],[10,0]]]}}]}
        """)
        expectError(["flat.geojson", "Flatland", "no triangles"]) {
            _ = try GlobeStage.run(options(path, dir), log: StageLog(stage: "test", quiet: true))
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/globe.glb"))
    }

    /// Fill nodes carry a float32 translation; positions are relative to it, POSITION min/max
    /// are those of the written data, and in scene space the fill sits at the fill radius.
    @Test func fillNodesAreTranslatedAndBorderIsDoubleSided() throws {
        let dir = temporaryDirectory()
        let o = options(try world(in: dir), dir)
        _ = try GlobeStage.run(o, log: StageLog(stage: "test", quiet: true))
        let doc = try GLBDocument.read(path: o.output)
        let world = Dictionary(doc.sceneNodes().map { ($0.node, $0.world) }, uniquingKeysWith: { a, _ in a })
        for id in ["AQ", "FJ", "LS", "ZA"] {
            let n = doc.node(named: id)!
            let t = doc.json["nodes"]!.arrayValue![n]["translation"]!.arrayValue!.map { $0.doubleValue! }
            #expect(t.count == 3 && Vec3(t[0], t[1], t[2]).length > 0.5, "\(id): translation \(t)")
            let pa = doc.meshes[doc.nodes[n].mesh!].primitives[0].attribute("POSITION")!
            let local = try doc.vec3(pa)
            let acc = doc.json["accessors"]!.arrayValue![pa]
            let lo = acc["min"]!.arrayValue!.map { $0.doubleValue! }, hi = acc["max"]!.arrayValue!.map { $0.doubleValue! }
            #expect(lo == [local.map(\.x).min()!, local.map(\.y).min()!, local.map(\.z).min()!])
            #expect(hi == [local.map(\.x).max()!, local.map(\.y).max()!, local.map(\.z).max()!])
            let r = local.map { GLBDocument.transform(world[n]!, $0).length }
            #expect(r.allSatisfy { abs($0 - 1.003) < 1e-6 }, "\(id): scene radius \(r.min()!)…\(r.max()!)")
        }
        let materials = doc.json["materials"]!.arrayValue!
        let border = materials.first { $0["name"]?.stringValue == "border" }!, land = materials.first { $0["name"]?.stringValue == "land" }!
        #expect(border["doubleSided"] == JSONValue.bool(true))
        #expect(land["doubleSided"] == nil)
    }

    @Test func featureWithoutIdIsANamedError() throws {
        let dir = temporaryDirectory()
        let path = writeFile(dir, "w.geojson", """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Nowhere"},"geometry":{"type":"Point","coordinates":[1,2]}}]}
        """)
        #expect {
            _ = try GlobeStage.build(options(path, dir), log: StageLog(stage: "test", quiet: true))
        } throws: { error in
            let s = "\(error)"
            return s.contains("w.geojson") && s.contains("Nowhere") && s.contains("no id")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/globe.glb"))
    }
}

extension RingMath {
    static func orientedForRFC7946Polygons(_ ps: [Polygon]) -> [Polygon] { ps.map(orientedForRFC7946) }
}

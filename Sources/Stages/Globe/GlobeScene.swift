import Foundation
import GeoModel
import Geodesy
import GeoFormats

// The glTF scene of the globe (CONTRACTS §2–§3): nodes, materials and buffers, built in memory
// from the meshed globe and returned in parts, never joined.
extension GlobeStage {
    /// CONTRACTS §3, sRGB.
    public static let palette: [(name: String, rgb: (Double, Double, Double), alpha: Double)] = [
        ("ocean", (0.184, 0.525, 0.651), 1),
        ("land", (0.204, 0.745, 0.510), 1),
        ("land_selected", (0.45, 0.85, 0.60), 1),
        ("visited", (0.949, 0.941, 0.075), 1),
        ("visited_selected", (1.0, 1.0, 0.3), 1),
        ("wishlist", (0.6, 0.4, 0.8), 1),
        ("wishlist_selected", (0.75, 0.55, 0.95), 1),
        ("atmosphere", (0.6, 0.8, 1.0), 0.15),
        ("border", (0, 0, 0), 1),
        ("capital", (0.86, 0.12, 0.16), 1),
    ]

    /// Vertices and triangles of one written node, for the manifest.
    struct NodeStats { var vertices: Int; var triangles: Int }

    static func buildScene(_ o: Options, meshes: [CountryMesh], fills: [FillNodeGeometry], points: [PointCountry], capitals: [(id: String, at: Point)],
                           sectors: [OutlineSector], markers: GlobeMarkers) -> (glb: [[UInt8]], stats: [String: NodeStats]) {
        let b = GLTFBuilder()
        var stats: [String: NodeStats] = [:]
        if o.quantizeNormals { b.useExtension("KHR_mesh_quantization", required: true) }
        var mat: [String: Int] = [:]
        // Borders are double-sided: a widened ribbon folds over at sharp turns of short segments,
        // and a culling renderer would leave a gap where it does.
        for p in palette { mat[p.name] = b.addUnlitMaterial(name: p.name, srgb: p.rgb, alpha: p.alpha, doubleSided: p.name == "border") }

        func normals(_ n: [Vec3]) -> Int { o.quantizeNormals ? b.addVec3Int8Normalized(n) : b.addVec3Float(n, bounds: false) }
        func meshOf(_ name: String, _ m: SceneMesh, material: String) -> Int {
            let pos = b.addVec3Float(m.positions, bounds: true)
            let nrm = normals(m.normals)
            let idx = b.addIndices(m.triangles)
            stats[name] = NodeStats(vertices: m.positions.count, triangles: m.triangleCount)
            return b.addMesh(name: name, primitives: [.init(attributes: [("POSITION", pos), ("NORMAL", nrm)], indices: idx, material: mat[material]!)])
        }

        let ocean = b.addNode(name: "ocean", mesh: meshOf("ocean", markers.ocean, material: "ocean"),
                              extras: JSONObject([("kind", .string("ocean"))]), root: false)

        var countryNodes: [Int] = []
        for (m, f) in zip(meshes, fills) {
            let pos = b.addVec3Float(floats: f.positions, bounds: true)
            let nrm = normals(m.positions)
            let idx = b.addIndices(f.triangles)
            stats[m.id] = NodeStats(vertices: f.vertexCount, triangles: f.triangleCount)
            let mesh = b.addMesh(name: m.id, primitives: [.init(attributes: [("POSITION", pos), ("NORMAL", nrm)], indices: idx, material: mat["land"]!)])
            countryNodes.append(b.addNode(name: m.id, mesh: mesh, translation: f.translation,
                                          extras: JSONObject([("kind", .string("fill")), ("iso", .string(m.id))])))
        }
        for (k, p) in points.enumerated() {
            let rimName = p.id + "_rim"
            let rim = b.addNode(name: rimName, mesh: meshOf(rimName, markers.rims[k], material: "border"),
                                extras: JSONObject([("kind", .string("rim")), ("iso", .string(p.id))]))
            let disc = meshOf(p.id, markers.discs[k], material: "land")
            countryNodes.append(b.addNode(name: p.id, mesh: disc, children: [rim], extras: JSONObject([("kind", .string("point")), ("iso", .string(p.id))])))
        }
        // Countries in ISO order whatever their kind.
        let countryOrder = (meshes.map(\.id) + points.map(\.id)).enumerated().sorted { $0.element < $1.element }.map { countryNodes[$0.offset] }
        let countries = b.addNode(name: "countries", children: countryOrder)

        var sectorNodes: [Int] = []
        for s in sectors {
            let name = "outline_sector_\(s.index)"
            let extras = JSONObject([("kind", .string("outline")), ("lonBand", .number(Double(s.index % Outlines.lonBands))),
                                     ("latBand", .number(Double(s.index / Outlines.lonBands)))])
            if s.positions.isEmpty {
                stats[name] = NodeStats(vertices: 0, triangles: 0)
                sectorNodes.append(b.addNode(name: name, extras: extras))
                continue
            }
            var prims: [GLTFBuilder.Primitive] = []
            for (k, part) in s.parts.enumerated() {
                let vEnd = k + 1 < s.parts.count ? s.parts[k + 1].vertex : s.positions.count
                let iEnd = k + 1 < s.parts.count ? s.parts[k + 1].index : s.strip.count
                let pos = b.addVec3Float(Array(s.positions[part.vertex..<vEnd]), scale: o.outlineRadius, bounds: true)
                let miter = b.addVec3Int8Normalized(Array(s.miters[part.vertex..<vEnd]), maxLength: Outlines.maxMiterLength)
                let idx = b.addIndices(Array(s.strip[part.index..<iEnd]))
                prims.append(.init(attributes: [("POSITION", pos), ("_MITER", miter)], indices: idx, material: mat["border"]!, mode: 5))
            }
            stats[name] = NodeStats(vertices: s.positions.count, triangles: 2 * s.segmentCount)
            let mesh = b.addMesh(name: name, primitives: prims)
            sectorNodes.append(b.addNode(name: name, mesh: mesh, extras: extras))
        }
        let outlines = b.addNode(name: "outlines", children: sectorNodes)

        var capitalNodes: [Int] = []
        for (k, c) in capitals.enumerated() {
            let name = "capital_\(c.id)"
            capitalNodes.append(b.addNode(name: name, mesh: meshOf(name, markers.stars[k], material: "capital"),
                                          extras: JSONObject([("kind", .string("capital")), ("iso", .string(c.id))])))
        }
        let capitalsNode = b.addNode(name: "capitals", children: capitalNodes)
        let atmosphere = b.addNode(name: "atmosphere", mesh: meshOf("atmosphere", markers.atmosphere, material: "atmosphere"),
                                   extras: JSONObject([("kind", .string("atmosphere"))]))
        _ = b.addNode(name: "globe", children: [ocean, countries, outlines, capitalsNode, atmosphere], root: true)
        b.assetExtras = JSONObject([("convention", .string("x = r·cos(lat)·cos(-lon), y = r·sin(lat), z = r·cos(lat)·sin(-lon); y up")),
                                    ("miter", .string("outline_sector_N: triangle strips; vertices come in pairs at the same centre-line position; _MITER (normalized signed bytes) × miterScale is the tangent miter vector of the left (+) or right (−) side: widen with position + miter · halfWidth")),
                                    ("miterScale", .number(Outlines.maxMiterLength))])
        return (b.glbParts(), stats)
    }
}

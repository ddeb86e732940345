import Dispatch
import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ
import GeoFormats

/// The globe stage: dist/world.geojson → dist/globe.glb (+ manifest, + dist/globe.usdz with
/// `usdz`: the same scene as USD, encoded from the same meshes by GlobeUSD). The preview
/// pictures are their own stage (PreviewStage, geo-preview), rendered from the written .glb.
public enum GlobeStage: PipelineStage {
    public static let name = "globe"

    public struct Options: StageOptions {
        public var input = "dist/world.geojson"
        public var output = "dist/globe.glb"
        public var manifest: String? = nil
        /// The same scene as USD (a .usdz package holding one binary .usdc layer), for the iOS app.
        public var usdz: String? = nil
        public var maxEdgeDegrees = MeshOptions.contractMaxEdgeDegrees
        public var maxLonStep = 10.0
        public var oceanRadius = 1.0
        public var fillRadius = 1.003
        public var outlineRadius = 1.004
        public var pointRadius = 1.005
        public var discRadius = 0.012
        public var rimRadius = 0.014
        public var capitalRadius = 1.006
        public var starSize = 0.006
        public var atmosphereRadius = 1.08
        public var sphereMaxEdgeDegrees = MeshOptions.contractMaxEdgeDegrees
        /// Normals as normalized bytes (KHR_mesh_quantization) instead of float32.
        public var quantizeNormals = true
        public var threads = 2
        public init() {}
        public init(input: String, output: String) { self.input = input; self.output = output }

        public func validate() throws {
            let numbers: [(String, Double)] = [
                ("--max-edge", maxEdgeDegrees), ("--max-lon-step", maxLonStep), ("--sphere-max-edge", sphereMaxEdgeDegrees),
                ("--ocean-radius", oceanRadius), ("--fill-radius", fillRadius), ("--outline-radius", outlineRadius),
                ("--point-radius", pointRadius), ("--capital-radius", capitalRadius), ("--atmosphere-radius", atmosphereRadius),
                ("--disc-radius", discRadius), ("--rim-radius", rimRadius), ("--star-size", starSize),
            ]
            for (name, v) in numbers where !(v.isFinite && v > 0) {
                throw OptionsError("\(name) must be a positive number (got \(v))")
            }
            guard maxEdgeDegrees > 0.01 && maxEdgeDegrees <= 45 else { throw OptionsError("--max-edge must be in (0.01, 45] degrees") }
            guard maxLonStep > 0.01 && maxLonStep <= 360 else { throw OptionsError("--max-lon-step must be in (0.01, 360] degrees") }
            guard sphereMaxEdgeDegrees >= 0.1 && sphereMaxEdgeDegrees <= 90 else { throw OptionsError("--sphere-max-edge must be in [0.1, 90] degrees") }
            guard threads >= 1 else { throw OptionsError("--threads must be at least 1") }
            if let usdz {
                guard usdz.hasSuffix(".usdz") else { throw OptionsError("--usdz must name a .usdz file (got \(usdz))") }
                guard usdz != output && usdz != manifest else { throw OptionsError("--usdz must differ from --output and --manifest") }
            }
            guard rimRadius > discRadius else { throw OptionsError("--rim-radius must be larger than --disc-radius") }
            // The layers, inside out (CONTRACTS §2): each must lie above the one below it.
            let layers: [(String, Double)] = [("--ocean-radius", oceanRadius), ("--fill-radius", fillRadius), ("--outline-radius", outlineRadius),
                                              ("--point-radius", pointRadius), ("--atmosphere-radius", atmosphereRadius)]
            for k in 1..<layers.count where !(layers[k].1 > layers[k - 1].1) {
                throw OptionsError("\(layers[k].0) (\(layers[k].1)) must be larger than \(layers[k - 1].0) (\(layers[k - 1].1)): layers are ocean < fill < outline < point < atmosphere")
            }
            guard capitalRadius > fillRadius && capitalRadius < atmosphereRadius else {
                throw OptionsError("--capital-radius (\(capitalRadius)) must lie between --fill-radius (\(fillRadius)) and --atmosphere-radius (\(atmosphereRadius))")
            }
        }
    }

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

    public struct PointCountry: Sendable {
        public var id: String
        public var at: Point
    }

    public struct Result: StageReport {
        public var output: String
        /// The .glb and the .usdz in parts (`FileIO.writeAtomically(parts:)`), never joined in memory.
        public var glbParts: [[UInt8]]
        public var manifest: [UInt8]
        public var usdzParts: [[UInt8]]?
        public var glb: [UInt8] { Array(glbParts.joined()) }
        public var usdz: [UInt8]? { usdzParts.map { Array($0.joined()) } }
        public var glbSize: Int { glbParts.reduce(0) { $0 + $1.count } }
        public var usdzSize: Int? { usdzParts.map { $0.reduce(0) { $0 + $1.count } } }
        public var usdzPath: String?
        public var meshes: [CountryMesh]
        public var points: [PointCountry]
        public var sectors: [OutlineSector]
        public var capitals: [(id: String, at: Point)]
        public var meshSeconds: Double
        /// Fill triangles as written (after the float32 orientation check).
        public var triangleCount: Int
        public var vertexCount: Int

        public var summary: String {
            "\(meshes.count) country fills (\(formatCount(vertexCount)) vertices, \(formatCount(triangleCount)) triangles, meshed in \(String(format: "%.2fs", meshSeconds))), \(points.count) point countries, \(capitals.count) capitals, \(formatCount(sectors.reduce(0) { $0 + $1.segmentCount })) outline segments → \(output) (\(formatCount(glbSize)) bytes)"
                + (usdzSize.map { " + \(usdzPath ?? "usdz") (\(formatCount($0)) bytes)" } ?? "")
        }
    }
    public typealias Report = Result

    /// Reads the world, meshes every country (in parallel, one GEOS context per worker) and
    /// builds the glTF scene and manifest in memory.
    public static func build(_ o: Options, log: StageLog) throws -> Result {
        let features = try log.step("read \(o.input)") { try CountryFile.read(path: o.input) }
        var polygonal: [(index: Int, id: String, polygons: [Polygon])] = []
        var points: [PointCountry] = []
        var capitals: [(id: String, at: Point)] = []
        for (i, f) in features.enumerated() {
            let id = f.id!  // CountryFile.read: a valid, unique ISO code, which names the globe node
            let ref = FeatureRef(index: i, name: f.string("name"), id: id)
            switch f.geometry {
            case .point(let p): points.append(PointCountry(id: id, at: p))
            case .polygon, .multiPolygon: polygonal.append((i, id, f.geometry.polygons))
            }
            let lat = f.double("capitalLat"), lon = f.double("capitalLon")
            if let lat, let lon {
                guard abs(lat) <= 90, abs(lon) <= 180 else { throw InputError(file: o.input, feature: ref, "capital position (\(lat), \(lon)) is out of range") }
                capitals.append((id, Point(lon, lat)))
            } else if (lat == nil) != (lon == nil) {
                throw InputError(file: o.input, feature: ref, "has only one of capitalLat / capitalLon")
            }
        }
        polygonal.sort { $0.id < $1.id }
        points.sort { $0.id < $1.id }
        capitals.sort { $0.id < $1.id }

        // Mesh: one job per polygon, biggest first, pulled by `threads` workers (one GEOS context
        // each) from a shared counter; then each country is assembled in polygon order.
        let t0 = log.elapsed
        // In a closure, so that the polygons' meshes are freed once assembled into countries.
        let meshes: [CountryMesh] = try {
            let seams = polygonal.map { RingPreparation.seamLatitudes(of: $0.polygons) }
            var jobs: [(country: Int, polygon: Int, size: Int)] = []
            for (ci, c) in polygonal.enumerated() { for (pi, p) in c.polygons.enumerated() { jobs.append((ci, pi, p.vertexCount)) } }
            jobs.sort { ($0.size, $1.country, $1.polygon) > ($1.size, $0.country, $0.polygon) }
            let meshOptions = MeshOptions(maxEdgeDegrees: o.maxEdgeDegrees, maxLonStep: o.maxLonStep)
            // Large polygons are meshed in tiles (Tiling): first every tile plan, so that the points
            // where cuts cross a border go into both countries' rings, then the meshes.
            let big = jobs.indices.filter { jobs[$0].size > meshOptions.tileAbove / 8 }
            let bigPlans = try Parallel.map(big, workers: max(1, o.threads), makeState: { () }) { k, _ in
                CountryMesher.tilePlan(polygonal[jobs[k].country].polygons, jobs[k].polygon, seamLatitudes: seams[jobs[k].country], options: meshOptions)
            }
            var plans = [TilePlan?](repeating: nil, count: jobs.count)
            for (i, k) in big.enumerated() { plans[k] = bigPlans[i] }
            let cuts = CutPoints(bigPlans)
            let tiled = plans.compactMap { $0 }
            if !tiled.isEmpty {
                log.info("tiled \(tiled.count) large polygons into \(formatCount(tiled.reduce(0) { $0 + $1.leafCount })) tiles; \(formatCount(cuts.count)) cut points on their rings")
            }
            let parts = try Parallel.map(Array(jobs.indices), workers: max(1, o.threads), makeState: { GEOSContext() }) { k, ctx in
                let job = jobs[k]
                let c = polygonal[job.country]
                let ref = FeatureRef(index: c.index, name: features[c.index].string("name"), id: c.id)
                return try forFeature(file: o.input, ref) {
                    try CountryMesher.meshPolygon(c.polygons, job.polygon, seamLatitudes: seams[job.country], options: meshOptions,
                                                  context: ctx, file: o.input, ref: ref, cuts: cuts, plan: plans[k])
                }
            }
            var byCountry = polygonal.map { [PolygonMesh?](repeating: nil, count: $0.polygons.count) }
            for (k, job) in jobs.enumerated() { byCountry[job.country][job.polygon] = parts[k] }
            return polygonal.indices.map { CountryMesher.assemble(id: polygonal[$0].id, polygons: polygonal[$0].polygons, parts: byCountry[$0].map { $0! }) }
        }()
        let meshSeconds = log.elapsed - t0
        let tris = meshes.reduce(0) { $0 + $1.triangleCount }, verts = meshes.reduce(0) { $0 + $1.vertexCount }
        log.info("meshed \(meshes.count) countries: \(formatCount(verts)) vertices, \(formatCount(tris)) triangles (\(String(format: "%.3fs", meshSeconds)), \(o.threads) threads)")
        let fallbacks = meshes.filter { $0.lonLatFallbacks > 0 }
        if !fallbacks.isEmpty {
            log.info("triangulated in lon/lat (gnomonic failed or did not apply; inward triangles repaired by edge flips): " + fallbacks.map { "\($0.id) \($0.lonLatFallbacks)" }.joined(separator: ", "))
        }
        let untiled = meshes.filter { $0.tileFallbacks > 0 }
        if !untiled.isEmpty {
            log.info("meshed whole (a tile could not be triangulated): " + untiled.map { "\($0.id) \($0.tileFallbacks)" }.joined(separator: ", "))
        }
        let folds = meshes.filter { $0.droppedFolds > 0 }
        if !folds.isEmpty {
            log.info("warning: dropped triangles that fold over on the sphere (input spikes): " + folds.map { "\($0.id) \($0.droppedFolds)" }.joined(separator: ", "))
        }
        // What is written: float32 positions relative to each node's centre, triangles checked in float32.
        let fills = meshes.map { FillNodeGeometry($0, radius: o.fillRadius) }
        for (ci, m) in meshes.enumerated() where m.triangleCount == 0 || fills[ci].triangleCount == 0 {
            let c = polygonal[ci]
            let ref = FeatureRef(index: c.index, name: features[c.index].string("name"), id: c.id)
            throw InputError(file: o.input, feature: ref, m.triangleCount == 0
                ? "meshes to no triangles: its polygons have no area on the sphere"
                : "meshes to no triangles that face outward once written as float32 (smaller than float32 can show)")
        }
        let flipped = meshes.indices.filter { fills[$0].droppedInFloat32 > 0 }
        if !flipped.isEmpty {
            log.info("left out slivers that float32 turns inward or flat: " + flipped.map { "\(meshes[$0].id) \(fills[$0].droppedInFloat32)" }.joined(separator: ", "))
        }
        let sectors = log.step("outlines") { Outlines.build(meshes, threads: o.threads) }

        let markers = GlobeMarkers(o, points: points, capitals: capitals)
        // The glTF and the USD encodings of the same meshes are independent. Each holds about
        // its file's size while it is built (130 MB at 2 M fill vertices): side by side on two
        // threads while the globe is small, one after the other past `sideBySideVertices`, so
        // that the peak stays bounded. Both come out in parts, written without joining.
        enum Encoded { case gltf(glb: [[UInt8]], stats: [String: NodeStats]), usdz([[UInt8]]) }
        func encode(_ k: Int) throws -> Encoded {
            if k == 0 {
                let s = log.step("glTF scene") { buildScene(o, meshes: meshes, fills: fills, points: points, capitals: capitals, sectors: sectors, markers: markers) }
                return .gltf(glb: s.glb, stats: s.stats)
            }
            // Every name is checked against USD's identifier rules: a name that is not one is
            // refused, never written as a prim path. The layer is dropped once encoded.
            let crate: [UInt8] = try {
                let layer = log.step("USD scene") { GlobeUSD.layer(o, meshes: meshes, fills: fills, points: points, capitals: capitals, sectors: sectors, markers: markers) }
                return try log.step("USD crate encoding") { try forFile(o.input) { try USDCrate.encode(layer) } }
            }()
            return .usdz(try log.step("usdz package") { try forFile(o.input) { try USDZPackage.archiveParts([(usdRootLayer(o.usdz!), crate)]) } })
        }
        // One after the other, the USD first: its layer and crate are dropped before the glTF
        // buffer grows, and only the finished package (its file's size) is held meanwhile.
        let encoders = o.usdz == nil ? [0] : [0, 1]
        let encoded = verts <= sideBySideVertices
            ? try Parallel.map(encoders, workers: min(2, max(1, o.threads)), makeState: { () }) { k, _ in try encode(k) }
            : try encoders.reversed().map(encode).reversed()
        guard case .gltf(let glb, let stats) = encoded[0] else { preconditionFailure("the glTF encoding comes first") }
        var usdz: [[UInt8]]?
        if encoded.count > 1, case .usdz(let parts) = encoded[1] { usdz = parts }
        let manifest = buildManifest(o, meshes: meshes, points: points, capitals: capitals, sectors: sectors, nodeStats: stats)
        return Result(output: o.output, glbParts: glb, manifest: manifest, usdzParts: usdz, usdzPath: o.usdz, meshes: meshes, points: points, sectors: sectors, capitals: capitals,
                      meshSeconds: meshSeconds, triangleCount: fills.reduce(0) { $0 + $1.triangleCount }, vertexCount: verts)
    }

    /// Fill vertices up to which the glTF and USD encodings run side by side (see `build`).
    static let sideBySideVertices = 1_000_000

    struct NodeStats { var vertices: Int; var triangles: Int }



    /// The name of the .usdc layer inside the package: the package's own name (globe.usdz → globe.usdc).
    static func usdRootLayer(_ usdzPath: String) -> String {
        let base = URL(fileURLWithPath: usdzPath).deletingPathExtension().lastPathComponent
        return (USDIdentifier.isValid(base) ? base : "scene") + ".usdc"
    }

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

    static func box(_ b: BoundingBox) -> JSONValue {
        .array([b.minX, b.minY, b.maxX, b.maxY].map { .number(($0 * 1e6).rounded() / 1e6) })
    }
    static func r6(_ d: Double) -> JSONValue { .number((d * 1e6).rounded() / 1e6) }
    static func sig(_ d: Double) -> JSONValue {
        guard d != 0 else { return .number(0) }
        let e = Int(floor(log10(abs(d)))) - 8
        let s = pow(10.0, Double(-e))
        return .number((d * s).rounded() / s)
    }

    static func buildManifest(_ o: Options, meshes: [CountryMesh], points: [PointCountry], capitals: [(id: String, at: Point)],
                              sectors: [OutlineSector], nodeStats: [String: NodeStats]) -> [UInt8] {
        var params = JSONObject()
        params["maxEdgeDegrees"] = .number(o.maxEdgeDegrees)
        params["maxLonStep"] = .number(o.maxLonStep)
        params["oceanRadius"] = .number(o.oceanRadius)
        params["fillRadius"] = .number(o.fillRadius)
        params["outlineRadius"] = .number(o.outlineRadius)
        params["pointRadius"] = .number(o.pointRadius)
        params["discRadius"] = .number(o.discRadius)
        params["rimRadius"] = .number(o.rimRadius)
        params["capitalRadius"] = .number(o.capitalRadius)
        params["starSize"] = .number(o.starSize)
        params["atmosphereRadius"] = .number(o.atmosphereRadius)
        params["sphereMaxEdgeDegrees"] = .number(o.sphereMaxEdgeDegrees)
        params["quantizeNormals"] = .bool(o.quantizeNormals)
        params["miterScale"] = .number(Outlines.maxMiterLength)
        params["sectors"] = .string("outline_sector_N, N = latBand·12 + lonBand, lonBand = ⌊(lon+180)/30⌋, latBand = ⌊(lat+90)/45⌋")

        var nodes = JSONObject()
        let km2 = Geodesic.authalicRadius * Geodesic.authalicRadius / 1e6
        var entries: [(String, JSONValue)] = []
        for m in meshes {
            let s = nodeStats[m.id]!
            entries.append((m.id, .object(JSONObject([
                ("iso", .string(m.id)), ("kind", .string("fill")),
                ("centroid", .array([r6(m.centroid.x), r6(m.centroid.y)])), ("bbox", box(m.bbox)),
                ("vertices", .number(Double(s.vertices))), ("triangles", .number(Double(s.triangles))),
                ("polygons", .number(Double(m.polygonCount))), ("inputVertices", .number(Double(m.inputVertices))),
                ("droppedFolds", .number(Double(m.droppedFolds))), ("lonLatFallbacks", .number(Double(m.lonLatFallbacks))),
                ("meshArea", sig(m.meshArea)), ("sphereArea", sig(m.sphereArea)),
                ("geodesicAreaKm2", .number((m.geodesicArea / 1e6 * 10).rounded() / 10)),
                ("sphereAreaKm2", .number((m.sphereArea * km2 * 10).rounded() / 10)),
            ]))))
        }
        for p in points {
            let s = nodeStats[p.id]!
            let bb = BoundingBox(minX: p.at.x, minY: p.at.y, maxX: p.at.x, maxY: p.at.y)
            entries.append((p.id, .object(JSONObject([
                ("iso", .string(p.id)), ("kind", .string("point")),
                ("centroid", .array([r6(p.at.x), r6(p.at.y)])), ("bbox", box(bb)),
                ("vertices", .number(Double(s.vertices))), ("triangles", .number(Double(s.triangles))),
            ]))))
        }
        for c in capitals {
            let name = "capital_\(c.id)", s = nodeStats[name]!
            let bb = BoundingBox(minX: c.at.x, minY: c.at.y, maxX: c.at.x, maxY: c.at.y)
            entries.append((name, .object(JSONObject([
                ("iso", .string(c.id)), ("kind", .string("capital")),
                ("centroid", .array([r6(c.at.x), r6(c.at.y)])), ("bbox", box(bb)),
                ("vertices", .number(Double(s.vertices))), ("triangles", .number(Double(s.triangles))),
            ]))))
        }
        entries.sort { $0.0 < $1.0 }
        for e in entries { nodes[e.0] = e.1 }
        var sec = JSONObject()
        for s in sectors {
            let name = "outline_sector_\(s.index)", st = nodeStats[name]!
            let lb = s.index % Outlines.lonBands, tb = s.index / Outlines.lonBands
            let bb = BoundingBox(minX: Double(-180 + 30 * lb), minY: Double(-90 + 45 * tb), maxX: Double(-150 + 30 * lb), maxY: Double(-45 + 45 * tb))
            sec[name] = .object(JSONObject([("bbox", box(bb)), ("segments", .number(Double(s.segmentCount))),
                                             ("vertices", .number(Double(st.vertices))), ("triangles", .number(Double(st.triangles)))]))
        }
        var totals = JSONObject()
        totals["fillVertices"] = .number(Double(meshes.reduce(0) { $0 + $1.vertexCount }))
        totals["fillTriangles"] = .number(Double(meshes.reduce(0) { $0 + nodeStats[$1.id]!.triangles }))  // as written, after the float32 check
        totals["outlineSegments"] = .number(Double(sectors.reduce(0) { $0 + $1.segmentCount }))
        totals["polygonCountries"] = .number(Double(meshes.count))
        totals["pointCountries"] = .number(Double(points.count))
        totals["capitals"] = .number(Double(capitals.count))
        var files: [(String, JSONValue)] = [("glb", .string(URL(fileURLWithPath: o.output).lastPathComponent))]
        if let u = o.usdz {
            // Which file holds what: the glb the whole scene; the usdz the same nodes as USD,
            // plus the materials scope, with each point country's rim as a GeomSubset.
            files.append(("usdz", .object(JSONObject([
                ("file", .string(URL(fileURLWithPath: u).lastPathComponent)), ("rootLayer", .string(usdRootLayer(u))),
                ("defaultPrim", .string("/globe")), ("materials", .string("/globe/\(GlobeUSD.materialsScope)")),
                ("pointRims", .string("<ISO>_rim is a GeomSubset of the <ISO> mesh (USD allows no mesh under a mesh)")),
            ]))))
        }
        let doc = JSONObject(files + [
            ("input", .string(URL(fileURLWithPath: o.input).lastPathComponent)),
            ("parameters", .object(params)), ("totals", .object(totals)),
            ("nodes", .object(nodes)), ("sectors", .object(sec)),
        ])
        var w = JSONWriter()
        w.value(.object(doc), indent: 1)
        w.bytes.append(0x0A)
        return w.bytes
    }

    /// The whole stage: build, write the manifest and the .glb atomically.
    public static func run(_ o: Options, log: StageLog) throws -> Result {
        let r = try build(o, log: log)
        // The .glb last, so that it is never newer-looking than a manifest that failed.
        if let m = o.manifest { try log.step("write \(m)") { try FileIO.writeAtomically(r.manifest, to: m) } }
        if let u = o.usdz, let parts = r.usdzParts { try log.step("write \(u) (\(formatCount(r.usdzSize ?? 0)) bytes)") { try FileIO.writeAtomically(parts: parts, to: u) } }
        try log.step("write \(o.output) (\(formatCount(r.glbSize)) bytes)") { try FileIO.writeAtomically(parts: r.glbParts, to: o.output) }
        return r
    }
}

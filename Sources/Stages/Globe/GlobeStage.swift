import Dispatch
import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ
import GeoFormats

/// The globe stage: dist/world.geojson → dist/globe.glb (+ manifest, + dist/globe.usdz with
/// `usdz`: the same scene as USD, encoded from the same meshes by GlobeUSD). In steps: read the
/// countries and capitals, mesh them (Mesh/), check the fills in float32, build the outlines;
/// then encode the glTF scene (GlobeScene.swift), the USD package and the manifest
/// (GlobeManifest.swift) and write them. The preview pictures are their own stage
/// (PreviewStage, geo-preview), rendered from the written .glb.
public enum GlobeStage: PipelineStage {
    public static let name = "globe"

    public struct Options: DeclaredOptions {
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

        /// `--float-normals`: the command line's spelling of `quantizeNormals`, inverted.
        public var floatNormals: Bool {
            get { !quantizeNormals }
            set { quantizeNormals = !newValue }
        }

        public static let declared: [StageOption<Options>] = [
            .argument("input", \.input, required: true, help: "World GeoJSON (CONTRACTS §1)."),
            .option("output", short: "o", \.output, help: "Output .glb file."),
            .option("manifest", \.manifest, help: "Manifest JSON to write beside the .glb."),
            .option("usdz", \.usdz, help: "Also write the scene as a USDZ package (one binary .usdc layer) for SceneKit/RealityKit."),
            .option("max-edge", \.maxEdgeDegrees, .above(0.01, atMost: 45), help: "Largest angle in degrees any fill triangle edge or outline segment may span."),
            .option("max-lon-step", \.maxLonStep, .above(0.01, atMost: 360),
                    help: "Largest longitude step in degrees of any fill edge (keeps polar triangles from folding)."),
            .option("fill-radius", \.fillRadius, .above(0), help: "Radius of the country fills."),
            .option("outline-radius", \.outlineRadius, .above(0), help: "Radius of the border outlines."),
            .option("point-radius", \.pointRadius, .above(0), help: "Radius of the point-country discs."),
            .option("disc-radius", \.discRadius, .above(0), help: "Radius of a point-country disc."),
            .option("rim-radius", \.rimRadius, .above(0), help: "Outer radius of a point-country disc's black rim."),
            .option("capital-radius", \.capitalRadius, .above(0), help: "Radius of the capital markers."),
            .option("star-size", \.starSize, .above(0), help: "Size of a capital star (centre to tip)."),
            .option("ocean-radius", \.oceanRadius, .above(0), help: "Radius of the ocean sphere."),
            .option("atmosphere-radius", \.atmosphereRadius, .above(0), help: "Radius of the atmosphere sphere."),
            .option("sphere-max-edge", \.sphereMaxEdgeDegrees, .within(0.1...90), help: "Largest edge in degrees of the ocean and atmosphere spheres."),
            .flag("float-normals", \.floatNormals, help: "Write normals as float32 instead of normalized bytes (no KHR_mesh_quantization)."),
            .option("threads", \.threads, .atLeast(1), help: "Worker threads for meshing."),
        ]

        public func validateRules() throws {
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

    public struct PointCountry: Sendable {
        public var id: String
        public var at: Point
    }

    /// The countries of the input, sorted by id: polygonal ones (with their feature index, for
    /// errors), point countries and capitals.
    struct Countries {
        var features: [Feature]
        var polygonal: [(index: Int, id: String, polygons: [Polygon])]
        var points: [PointCountry]
        var capitals: [(id: String, at: Point)]
    }

    /// The globe as meshed: what the glTF scene, the USD layer and the manifest are encoded from.
    public struct Globe: Sendable {
        public var meshes: [CountryMesh]
        /// Parallel to `meshes`: the fills as written (float32, relative to each node's centre).
        public var fills: [FillNodeGeometry]
        public var points: [PointCountry]
        public var capitals: [(id: String, at: Point)]
        public var sectors: [OutlineSector]
        public var markers: GlobeMarkers
        public var meshSeconds: Double
        public var vertexCount: Int { meshes.reduce(0) { $0 + $1.vertexCount } }
        /// Fill triangles as written (after the float32 orientation check).
        public var triangleCount: Int { fills.reduce(0) { $0 + $1.triangleCount } }
    }

    /// The encoded files, in parts (`FileIO.writeAtomically(parts:)`), never joined in memory.
    struct Files {
        var glb: [[UInt8]]
        var usdz: [[UInt8]]?
        var manifest: [UInt8]
    }

    public struct Report: StageReport {
        public var output: String
        public var glbSize: Int
        public var usdzPath: String?
        public var usdzSize: Int?
        public var fillCountries: Int
        public var pointCountries: Int
        public var capitals: Int
        public var outlineSegments: Int
        public var meshSeconds: Double
        /// Fill triangles as written (after the float32 orientation check).
        public var triangleCount: Int
        public var vertexCount: Int

        public var summary: String {
            "\(fillCountries) country fills (\(formatCount(vertexCount)) vertices, \(formatCount(triangleCount)) triangles, meshed in \(String(format: "%.2fs", meshSeconds))), \(pointCountries) point countries, \(capitals) capitals, \(formatCount(outlineSegments)) outline segments → \(output) (\(formatCount(glbSize)) bytes)"
                + (usdzSize.map { " + \(usdzPath ?? "usdz") (\(formatCount($0)) bytes)" } ?? "")
        }
    }

    /// The whole stage: build the globe, encode it, write the files atomically.
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        try write(try build(o, log: log), o, log: log)
    }

    /// Reads the world and meshes every country (in parallel, one GEOS context per worker):
    /// the globe in memory, before any encoding.
    public static func build(_ o: Options, log: StageLog) throws -> Globe {
        let countries = try readCountries(o, log: log)
        let t0 = log.elapsed
        let meshes = try mesh(o, countries, log: log)
        let meshSeconds = log.elapsed - t0
        let fills = try fills(o, countries, meshes, log: log)
        let sectors = log.step("outlines") { Outlines.build(meshes, threads: o.threads) }
        let markers = GlobeMarkers(o, points: countries.points, capitals: countries.capitals)
        return Globe(meshes: meshes, fills: fills, points: countries.points, capitals: countries.capitals,
                     sectors: sectors, markers: markers, meshSeconds: meshSeconds)
    }

    /// Encodes the globe and writes the manifest, the .usdz and the .glb atomically.
    public static func write(_ g: Globe, _ o: Options, log: StageLog) throws -> Report {
        let files = try encode(g, o, log: log)
        // The .glb last, so that it is never newer-looking than a manifest that failed.
        if let m = o.manifest { try log.step("write \(m)") { try FileIO.writeAtomically(files.manifest, to: m) } }
        let usdzSize = files.usdz.map { $0.reduce(0) { $0 + $1.count } }
        if let u = o.usdz, let parts = files.usdz { try log.step("write \(u) (\(formatCount(usdzSize ?? 0)) bytes)") { try FileIO.writeAtomically(parts: parts, to: u) } }
        let glbSize = files.glb.reduce(0) { $0 + $1.count }
        try log.step("write \(o.output) (\(formatCount(glbSize)) bytes)") { try FileIO.writeAtomically(parts: files.glb, to: o.output) }
        return Report(output: o.output, glbSize: glbSize, usdzPath: o.usdz, usdzSize: usdzSize,
                      fillCountries: g.meshes.count, pointCountries: g.points.count, capitals: g.capitals.count,
                      outlineSegments: g.sectors.reduce(0) { $0 + $1.segmentCount }, meshSeconds: g.meshSeconds,
                      triangleCount: g.triangleCount, vertexCount: g.vertexCount)
    }

    /// Reads the countries: polygons, point countries and capitals (checked), sorted by id.
    static func readCountries(_ o: Options, log: StageLog) throws -> Countries {
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
        return Countries(features: features, polygonal: polygonal, points: points, capitals: capitals)
    }

    /// Meshes every country: one job per polygon, biggest first, pulled by `threads` workers
    /// (one GEOS context each) from a shared counter; then each country is assembled in
    /// polygon order.
    static func mesh(_ o: Options, _ countries: Countries, log: StageLog) throws -> [CountryMesh] {
        let (features, polygonal) = (countries.features, countries.polygonal)
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
            let bigPlans = try Parallel.map(big, workers: max(1, o.threads), makeState: { () }) { [jobs] k, _ in
                CountryMesher.tilePlan(polygonal[jobs[k].country].polygons, jobs[k].polygon, seamLatitudes: seams[jobs[k].country], options: meshOptions)
            }
            var plans = [TilePlan?](repeating: nil, count: jobs.count)
            for (i, k) in big.enumerated() { plans[k] = bigPlans[i] }
            let cuts = CutPoints(bigPlans)
            let tiled = plans.compactMap { $0 }
            if !tiled.isEmpty {
                log.info("tiled \(tiled.count) large polygons into \(formatCount(tiled.reduce(0) { $0 + $1.leafCount })) tiles; \(formatCount(cuts.count)) cut points on their rings")
            }
            let parts = try Parallel.map(Array(jobs.indices), workers: max(1, o.threads), makeState: { GEOSContext() }) { [jobs, plans] k, ctx in
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
        let tris = meshes.reduce(0) { $0 + $1.triangleCount }, verts = meshes.reduce(0) { $0 + $1.vertexCount }
        log.info("meshed \(meshes.count) countries: \(formatCount(verts)) vertices, \(formatCount(tris)) triangles (\(String(format: "%.3fs", log.elapsed - t0)), \(o.threads) threads)")
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
        return meshes
    }

    /// What is written of each fill: float32 positions relative to each node's centre,
    /// triangles checked in float32. A country left with no triangle is an error naming it.
    static func fills(_ o: Options, _ countries: Countries, _ meshes: [CountryMesh], log: StageLog) throws -> [FillNodeGeometry] {
        let (features, polygonal) = (countries.features, countries.polygonal)
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
        return fills
    }

    /// Encodes the glTF scene, the USD package (with `usdz`) and the manifest.
    static func encode(_ g: Globe, _ o: Options, log: StageLog) throws -> Files {
        let (meshes, fills, points, capitals, sectors, markers) = (g.meshes, g.fills, g.points, g.capitals, g.sectors, g.markers)
        let verts = g.vertexCount
        // The glTF and the USD encodings of the same meshes are independent. Each holds about
        // its file's size while it is built (130 MB at 2 M fill vertices): side by side on two
        // threads while the globe is small, one after the other past `sideBySideVertices`, so
        // that the peak stays bounded. Both come out in parts, written without joining.
        enum Encoded { case gltf(glb: [[UInt8]], stats: [String: NodeStats]), usdz([[UInt8]]) }
        @Sendable func encode(_ k: Int) throws -> Encoded {
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
        return Files(glb: glb, usdz: usdz, manifest: manifest)
    }

    /// Fill vertices up to which the glTF and USD encodings run side by side (see `encode`).
    static let sideBySideVertices = 1_000_000
}

import Foundation
import GeoModel
import GeoGEOS
import Parallelism

extension GlobeStage {
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
}

import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ
import Parallelism

extension SilhouettesStage {
    /// Every polygon country drawn and written as <ISO>.svg, largest first on `threads` workers
    /// (one PROJ and one GEOS context each); point countries go to the report.
    static func drawSilhouettes(_ features: [Feature], _ o: Options, report: inout Report, log: StageLog) throws -> [Silhouette.Drawing] {
        struct Job { var index: Int; var id: String; var name: String; var polygons: [Polygon] }
        var jobs: [Job] = []
        for (i, f) in features.enumerated() {
            let id = f.id!
            if case .point = f.geometry { report.pointCountries.append(id); continue }
            jobs.append(Job(index: i, id: id, name: f.string("name") ?? id, polygons: f.geometry.polygons))
        }
        guard !jobs.isEmpty else { throw InputError(file: o.input, "has no polygon country to draw") }

        // Largest first, so the workers finish together; results go back to input order and
        // the first error by input order is the one reported.
        let size = jobs.map { $0.polygons.reduce(0) { $0 + $1.vertexCount } }
        let order = jobs.indices.sorted { (size[$0], $1) > (size[$1], $0) }
        let opts = o.silhouette
        let drawn = log.step("draw and write \(jobs.count) silhouettes on \(o.threads) threads") {
            try! Parallel.map(order, workers: max(1, o.threads), makeState: { (PROJContext(), GEOSContext()) }) { [jobs] k, ctx in
                let j = jobs[k]
                return Result {
                    try forFeature(file: o.input, FeatureRef(index: j.index, name: j.name, id: j.id)) {
                        let d = try Silhouette.draw(id: j.id, name: j.name, polygons: j.polygons, options: opts, proj: ctx.0, geos: ctx.1)
                        try FileIO.writeAtomically(d.svg, to: o.outputDir + "/" + j.id + ".svg")
                        return d
                    }
                }
            }
        }
        var results = [Result<Silhouette.Drawing, Error>?](repeating: nil, count: jobs.count)
        for (k, r) in zip(order, drawn) { results[k] = r }
        return try results.map { try $0!.get() }
    }
}

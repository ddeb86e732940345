import Foundation
import GeoModel

extension GlobeStage {
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
}

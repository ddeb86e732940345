import Foundation
import GeoModel

extension ReleaseStage {
    /// manifest.json; the release's files and their total size go to the report.
    static func writeManifest(_ o: Options, _ current: ReleaseSnapshot, products productList: [String: FileRecord], staging: String,
                              report: inout Report, log: StageLog) throws {
        // The products were hashed before the comparison and are unchanged since: only
        // the files written after (changes, the page) are hashed here.
        var files = try ReleaseFiles.list(staging, reusing: productList)
        let manifest = try log.step("manifest") { try Manifest.build(o, files: files, current: current) }
        try FileIO.writeAtomically(manifest, to: staging + "/manifest.json")
        files["manifest.json"] = FileRecord(bytes: manifest.utf8.count, sha256: "")
        report.files = files.count
        report.bytes = files.values.reduce(0) { $0 + $1.bytes }
    }

    /// The finished release replaces whatever was at `o.out`.
    static func publish(_ staging: String, _ o: Options) throws {
        let fm = FileManager.default
        if fm.fileExists(atPath: o.out) { try fm.removeItem(atPath: o.out) }
        try fm.moveItem(atPath: staging, toPath: o.out)
    }
}

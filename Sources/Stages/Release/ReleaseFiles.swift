import Foundation
import GeoDigest
import GeoModel
import Parallelism

/// One file of a release: its size and SHA-256.
public struct FileRecord: Equatable, Sendable {
    public var bytes: Int
    public var sha256: String
}

/// The files of a release directory: copying the products in, listing them with their digests.
enum ReleaseFiles {
    /// Where a release keeps the world stage's report (the page's rows, the tolerance).
    static let worldReportPath = "reports/world.tsv"
    /// Written by the release itself, so not compared as products.
    static let releaseOwn: Set<String> = ["manifest.json", "changes.json", "CHANGES.md"]

    /// Regular files under `root`, relative paths in byte order (symbolic links followed).
    static func paths(under root: String) throws -> [String] {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: root, isDirectory: &isDir), isDir.boolValue else {
            throw InputError(file: root, "is not a directory")
        }
        guard let e = fm.enumerator(atPath: root) else { throw InputError(file: root, "cannot be listed") }
        var out: [String] = []
        while let rel = e.nextObject() as? String {
            var d: ObjCBool = false
            if fm.fileExists(atPath: root + "/" + rel, isDirectory: &d), !d.boolValue { out.append(rel) }
        }
        return out.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// Copies every product under `dist` (not a page in `dist/inspect/`) and the world report.
    static func copyProducts(from dist: String, to root: String, worldReport: String) throws {
        let fm = FileManager.default
        let products = try paths(under: dist).filter { !$0.hasPrefix("inspect/") }
        guard products.contains("world.geojson") else { throw InputError(file: dist, "has no world.geojson: build the products first (make all)") }
        for rel in products + [worldReportPath] {
            let source = rel == worldReportPath ? worldReport : dist + "/" + rel
            let target = root + "/" + rel
            try fm.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            do { try fm.copyItem(atPath: source, toPath: target) } catch {
                throw InputError(file: source, "cannot be copied into the release: \(error.localizedDescription)")
            }
        }
    }

    /// Every file of a release with its size and digest (the release's own files too). A file
    /// in `known` (listed earlier from this same directory and not rewritten since) keeps its
    /// record, so products are hashed once per release.
    static func list(_ root: String, reusing known: [String: FileRecord] = [:]) throws -> [String: FileRecord] {
        var out: [String: FileRecord] = [:]
        let all = try paths(under: root)
        for rel in all { out[rel] = known[rel] }
        let paths = all.filter { known[$0] == nil }
        let records = try Parallel.map(paths, workers: 2, makeState: { () }) { rel, _ -> FileRecord in
            let path = root + "/" + rel
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            return FileRecord(bytes: size, sha256: try SHA256.hex(ofFile: path))
        }
        for (p, r) in zip(paths, records) { out[p] = r }
        return out
    }

    /// The previous release's products from its manifest (or, without one, from its files).
    static func previousProducts(_ root: String) throws -> [String: FileRecord] {
        let path = root + "/manifest.json"
        guard FileManager.default.fileExists(atPath: path) else { return try list(root) }
        let json = try JSONValue.parse(try FileIO.readBytes(path), file: path)
        guard let products = json["products"]?.objectValue else { throw InputError(file: path, "has no \"products\" object") }
        var out: [String: FileRecord] = [:]
        for (k, v) in products {
            guard let b = v["bytes"]?.doubleValue, let s = v["sha256"]?.stringValue else {
                throw InputError(file: path, "product \(k) has no bytes or sha256")
            }
            out[k] = FileRecord(bytes: Int(b), sha256: s)
        }
        return out
    }
}

import Foundation
import Testing
@testable import GeoModel

/// Paths into the repository, so tests run on the real data in data/.
enum Repo {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()
    static func path(_ relative: String) -> String { root + "/" + relative }
    static let neDir = path("data/natural-earth")
    static let units10m = neDir + "/ne_10m_admin_0_map_units.geojson"
    static let units50m = neDir + "/ne_50m_admin_0_map_units.geojson"
    static let countries110m = neDir + "/ne_110m_admin_0_countries.geojson"
}

/// A fresh temporary directory for one test.
func temporaryDirectory() -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geo-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.path
}

func writeFile(_ dir: String, _ name: String, _ text: String) -> String {
    let p = dir + "/" + name
    try! text.write(toFile: p, atomically: true, encoding: .utf8)
    return p
}

/// Real Natural Earth units picked out of a data file by SU_A3: small, real data slices.
enum Slices {
    private static let cache = SliceCache()

    static func units(_ file: String, _ suA3: Set<String>) throws -> [Feature] {
        try cache.features(file).filter { suA3.contains($0.string("SU_A3") ?? "") }
    }

    /// A FeatureCollection file with just these units.
    static func file(_ file: String, _ suA3: Set<String>, in dir: String, name: String = "units.geojson") throws -> String {
        let path = dir + "/" + name
        try GeoJSON.write(try units(file, suA3), to: path)
        return path
    }
}

/// `store` is guarded by `lock`.
final class SliceCache: @unchecked Sendable {
    private var store: [String: [Feature]] = [:]
    private let lock = NSLock()
    func features(_ file: String) throws -> [Feature] {
        lock.lock(); defer { lock.unlock() }
        if let f = store[file] { return f }
        let f = try GeoJSON.read(path: file)
        store[file] = f
        return f
    }
}

/// Expects `body` to throw an error whose text contains every fragment (file, feature, problem).
func expectError(_ fragments: [String], sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected an error containing \(fragments)", sourceLocation: sourceLocation)
    } catch {
        let text = "\(error)"
        for f in fragments { #expect(text.contains(f), "\(text) lacks \(f)", sourceLocation: sourceLocation) }
    }
}

import Foundation
import GeoModel
import GeoFormats

extension InspectStage {
    /// Leaflet's files must be there before anything is written.
    static func checkLeaflet(_ o: Options) throws {
        for file in ["leaflet.js", "leaflet.css"] where !FileManager.default.fileExists(atPath: o.leaflet + "/" + file) {
            throw InputError(file: o.leaflet + "/" + file, "is missing: the page needs Leaflet from Debian's libjs-leaflet (scripts/setup.sh installs it)")
        }
    }

    /// The page's folder: Leaflet (its script, style and images), data.js and index.html.
    static func writePage(_ o: Options, data: [UInt8]) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: o.out, withIntermediateDirectories: true)
        for file in ["leaflet.js", "leaflet.css"] {
            try copyReplacing(o.leaflet + "/" + file, o.out + "/leaflet/" + file)
        }
        for image in (try? fm.contentsOfDirectory(atPath: o.leaflet + "/images")) ?? [] where image.hasSuffix(".png") {
            try copyReplacing(o.leaflet + "/images/" + image, o.out + "/leaflet/images/" + image)
        }
        try FileIO.writeAtomically(data, to: o.out + "/data.js")
        try FileIO.writeAtomically(InspectPage.html, to: o.out + "/index.html")
    }

    /// (`source` exists: run checked Leaflet's files before writing, the images are listed.)
    static func copyReplacing(_ source: String, _ target: String) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileIO.writeAtomically(try FileIO.readBytes(source), to: target)
    }

    /// A JSON file's text as it is, after checking it parses (JSON is a JavaScript expression).
    static func embedJSON(_ path: String, _ w: inout JSONWriter) throws {
        let bytes = try FileIO.readBytes(path)
        _ = try JSONValue.parse(bytes, file: path)
        var end = bytes.count
        while end > 0 && (bytes[end - 1] == 0x0A || bytes[end - 1] == 0x20) { end -= 1 }
        w.bytes.append(contentsOf: bytes[..<end])
    }

    /// The world report's "# repaired XX: …" lines by country.
    static func repairLines(_ path: String) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for line in try FileIO.readLines(path) where line.hasPrefix("# repaired ") {
            let rest = line.dropFirst("# repaired ".count)
            if let colon = rest.firstIndex(of: ":") { out[String(rest[..<colon]), default: []].append(String(rest[rest.index(after: colon)...]).trimmingCharacters(in: .whitespaces)) }
        }
        return out
    }

    /// `to` relative to the folder `from` ("../silhouettes" from dist/inspect to dist/silhouettes).
    static func relativePath(from: String, to: String) -> String {
        let a = URL(fileURLWithPath: from).standardizedFileURL.pathComponents
        let b = URL(fileURLWithPath: to).standardizedFileURL.pathComponents
        var common = 0
        while common < min(a.count, b.count) && a[common] == b[common] { common += 1 }
        let parts = Array(repeating: "..", count: a.count - common) + b[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}

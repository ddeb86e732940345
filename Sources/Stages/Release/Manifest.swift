import Foundation
import GeoDigest
import GeoModel

/// manifest.json: every file of the release (bytes, sha256), every input (sha256, source and
/// version from the data directory's README), every parameter, the pipeline's commit and what
/// the world stage's vertex budget decided (the tolerance a next release reuses).
enum Manifest {
    /// `files`: the release's files as they are before manifest.json is written.
    static func build(_ o: ReleaseStage.Options, files: [String: FileRecord], current: ReleaseSnapshot) throws -> String {
        var m = JSONObject()
        m["release"] = .object(JSONObject([
            ("day", .string(o.day?.iso ?? "")), ("commit", .string(o.commit)), ("scale", .string(o.scale)),
            ("previous", o.previous.map { .string($0) } ?? .null),
        ]))
        m["world"] = .object(world(current.worldMeta, previous: o.previous))

        var products = JSONObject()
        for (path, r) in files.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) })
        where path != "manifest.json" {
            products[path] = .object(JSONObject([("bytes", .number(Double(r.bytes))), ("sha256", .string(r.sha256))]))
        }
        m["products"] = .object(products)

        let provenance = try Provenance(readme: o.data + "/README.md")
        var inputs = JSONObject()
        for rel in try ReleaseFiles.paths(under: o.data) {
            let path = o.data + "/" + rel
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            var entry = JSONObject([("bytes", .number(Double(size))), ("sha256", .string(try SHA256.hex(ofFile: path)))])
            let p = provenance.of(rel)
            entry["source"] = p.source.map { .string($0) } ?? .null
            entry["version"] = p.version.map { .string($0) } ?? .null
            if let d = p.detail { entry["detail"] = .string(d) }
            inputs[rel] = .object(entry)
        }
        m["inputs"] = .object(JSONObject([("directory", .string(o.data)), ("files", .object(inputs))]))

        var params = JSONObject()
        if let names = try? ReleaseFiles.paths(under: o.params) {
            for name in names {
                let text = try FileIO.readText(o.params + "/" + name)
                params[name] = .string(text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " "))
            }
        }
        m["parameters"] = .object(params)
        var w = JSONWriter()
        w.value(.object(m), indent: 1)
        return w.string + "\n"
    }

    /// What the simplification decided, from the world report's "# …" lines.
    static func world(_ meta: [String: String], previous: String?) -> JSONObject {
        var o = JSONObject()
        o["tolerance_km"] = meta["tolerance_km_exact"].flatMap { Double($0) }.map { .number($0) } ?? .null
        if let t = meta["target_vertices"].flatMap({ Int($0) }) {
            o["decided_by"] = .string("vertex budget \(t)")
            o["target_vertices"] = .number(Double(t))
        } else {
            o["decided_by"] = .string(previous != nil ? "the previous release's tolerance (\(previous!))" : "a fixed tolerance")
        }
        if let total = meta["total"] {
            let cells = total.split(separator: "\t", omittingEmptySubsequences: false)
            if cells.count >= 4, let after = Int(cells[3]) { o["vertices"] = .number(Double(after)) }
        }
        if let n = meta["budget_unreachable"] { o["budget_unreachable"] = .string(n) }
        return o
    }
}

/// Where each input comes from, as the data directory's README says: the section ("## …") that
/// names the file, and from a table row naming it the version column (and a source column).
struct Provenance {
    struct Entry { var source: String?; var version: String?; var detail: String? }
    private var lines: [(section: String, text: String, header: [String]?)] = []

    init(readme: String) throws {
        var section = ""
        var header: [String]?
        for line in try FileIO.readLines(readme) {
            if line.hasPrefix("## ") { section = String(line.dropFirst(3)); header = nil; continue }
            if line.hasPrefix("|") {
                let cells = Self.cells(line)
                if header == nil { header = cells.map { $0.lowercased() }; continue }
            } else { header = nil }
            lines.append((section, String(line), header))
        }
    }

    static func cells(_ line: Substring) -> [String] {
        line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "**", with: "") }
    }

    /// The entry of `rel` (a path under the data directory): the first line naming it in
    /// backticks, by its path, else by its file name.
    func of(_ rel: String) -> Entry {
        let name = (rel as NSString).lastPathComponent
        // A line that opens with the name (a list item or a table row) defines it; others only mention it.
        let defines = { (line: String, n: String) in line.hasPrefix("- `\(n)`") || line.hasPrefix("| `\(n)`") }
        guard let hit = lines.first(where: { defines($0.text, rel) }) ?? lines.first(where: { defines($0.text, name) })
                ?? lines.first(where: { $0.text.contains("`\(rel)`") }) ?? lines.first(where: { $0.text.contains("`\(name)`") })
        else { return Entry(source: nil, version: nil, detail: nil) }
        var e = Entry(source: hit.section.isEmpty ? nil : hit.section, version: nil, detail: nil)
        if let header = hit.header {
            let cells = Self.cells(Substring(hit.text))
            for (h, v) in zip(header, cells) {
                if h.contains("version") { e.version = v }
                if h == "source" { e.detail = v }
            }
        } else {
            e.detail = String(hit.text.trimmingCharacters(in: .whitespaces).prefix(240))
        }
        return e
    }
}

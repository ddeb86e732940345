import Foundation

/// File reading and atomic writing. A stage never leaves a half-written artefact: it writes
/// a temporary file next to the target and renames it into place only when complete.
public enum FileIO {
    public static func readBytes(_ path: String) throws -> [UInt8] {
        guard let fh = FileHandle(forReadingAtPath: path) else {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                throw InputError(file: path, isDir.boolValue ? "is a directory, not a file" : "cannot be opened for reading")
            }
            throw InputError(file: path, "no such file")
        }
        defer { try? fh.close() }
        do {
            let data = try fh.readToEnd() ?? Data()
            return [UInt8](data)
        } catch {
            throw InputError(file: path, "cannot be read: \(error.localizedDescription)")
        }
    }

    public static func readText(_ path: String) throws -> String {
        var bytes = try readBytes(path)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // a byte-order mark from some editors
        guard let s = String(validating: bytes, as: UTF8.self) else { throw InputError(file: path, "is not valid UTF-8 text") }
        return s
    }

    /// The lines of a text file, whether it ends lines with LF or CRLF. (In Swift "\r\n" is
    /// one Character, so splitting on "\n" alone would not split a CRLF file at all.)
    public static func readLines(_ path: String) throws -> [Substring] {
        try readText(path).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    }

    /// Writes `bytes` to `path` through a temporary file in the same directory and a rename,
    /// creating parent directories as needed.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw InputError(file: dir.path, "cannot create the output directory: \(error.localizedDescription)")
        }
        let tmp = dir.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
        let ok = FileManager.default.createFile(atPath: tmp.path, contents: Data(bytes))
        guard ok else { throw InputError(file: tmp.path, "cannot write the temporary output file") }
        if rename(tmp.path, url.path) != 0 {
            let err = String(cString: strerror(errno))
            unlink(tmp.path)
            throw InputError(file: path, "cannot move the finished output into place: \(err)")
        }
    }

    public static func writeAtomically(_ text: String, to path: String) throws {
        try writeAtomically(Array(text.utf8), to: path)
    }

    /// Reads a tab-separated table with a header row; `#` lines and blank lines are comments.
    /// Returns rows as dictionaries keyed by the header's column names.
    public static func readTSV(_ path: String) throws -> [[String: String]] {
        var header: [String]?
        var rows: [[String: String]] = []
        for (n, l) in try readLines(path).enumerated() {
            if l.trimmingCharacters(in: .whitespaces).isEmpty || l.hasPrefix("#") { continue }
            let cols = l.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let h = header else { header = cols; continue }
            guard cols.count <= h.count else {
                throw InputError(file: path, "line \(n + 1) has \(cols.count) columns, the header has \(h.count)")
            }
            var row: [String: String] = [:]
            for (i, name) in h.enumerated() { row[name] = i < cols.count ? cols[i] : "" }
            rows.append(row)
        }
        guard header != nil else { throw InputError(file: path, "has no header row") }
        return rows
    }
}

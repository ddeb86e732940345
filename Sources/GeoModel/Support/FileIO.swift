import Foundation

/// File reading and atomic writing. A stage never leaves a half-written artefact: it writes
/// a temporary file next to the target and renames it into place only when complete.
public enum FileIO {
    /// The largest input a stage reads: inputs are read whole, so this bounds a stage's memory
    /// by what the machine has. `GEO_MAX_INPUT_BYTES` overrides it (bytes).
    public static var maximumInputBytes: Int {
        if let s = ProcessInfo.processInfo.environment["GEO_MAX_INPUT_BYTES"], let n = Int(s), n > 0 { return n }
        return 1 << 30
    }

    /// Reads a whole regular file. Anything else is refused at once with what it is, before a
    /// byte is read: a directory, a FIFO (which could block forever), a device such as
    /// /dev/zero (endless), a socket, or a file larger than `maximumInputBytes`.
    public static func readBytes(_ path: String) throws -> [UInt8] { try readBytes(path, limit: maximumInputBytes) }

    public static func readBytes(_ path: String, limit: Int) throws -> [UInt8] {
        var st = stat()
        guard stat(path, &st) == 0 else {
            let e = errno
            throw InputError(file: path, e == ENOENT ? "no such file" : "cannot be read: \(String(cString: strerror(e)))")
        }
        if let kind = nonRegularKind(st.st_mode) { throw InputError(file: path, "is \(kind), not a regular file") }
        guard Int(st.st_size) <= limit else {
            throw InputError(file: path, "is \(formatBytes(Int(st.st_size))), larger than the \(formatBytes(limit)) an input may be (GEO_MAX_INPUT_BYTES)")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(file: path, "cannot be opened for reading: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        // Read what fstat says is there; a file that grows while read is refused, not chased.
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size) + 1)
        var count = 0
        while true {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, "cannot be read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            count += n
            if count == bytes.count {
                guard count <= limit else { throw InputError(file: path, "grew past \(formatBytes(limit)) while it was read") }
                bytes.append(contentsOf: [UInt8](repeating: 0, count: max(4096, count)))
            }
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// "a directory", "a FIFO", …; nil for a regular file.
    static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }

    static func formatBytes(_ n: Int) -> String {
        if n >= 1 << 30 { return String(format: "%.1f GiB", Double(n) / Double(1 << 30)) }
        if n >= 1 << 20 { return String(format: "%.1f MiB", Double(n) / Double(1 << 20)) }
        return "\(n) bytes"
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

    /// Writes `bytes` to `path`. A regular file (or a new one) is written through a temporary
    /// file in the same directory and a rename, so no reader ever sees it half-written; parent
    /// directories are created as needed. A symlink is written through (its target is
    /// replaced, the link stays). `-` is standard output; a FIFO or a device (/dev/stdout,
    /// /dev/null) is streamed to, never replaced. A failed write (ENOSPC on /dev/full, a
    /// closed pipe) fails the stage.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try writeAtomically(parts: [bytes], to: path)
    }

    /// The same, for a file made of parts formatted separately (in parallel, say): written in
    /// order, never joined in memory.
    public static func writeAtomically(parts: [[UInt8]], to path: String) throws {
        func stream(_ parts: [[UInt8]], to fd: Int32, name: String) throws {
            for p in parts { try FileIO.stream(p, to: fd, name: name) }
        }
        let bytes = parts
        if path == "-" { return try stream(bytes, to: STDOUT_FILENO, name: "standard output") }
        let target = try resolvingSymlinks(path)
        var st = stat()
        if stat(target, &st) == 0, let kind = nonRegularKind(st.st_mode) {
            if kind == "a directory" { throw InputError(file: path, "is a directory; name a file to write") }
            let fd = open(target, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw InputError(file: path, "cannot be opened for writing: \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            return try stream(bytes, to: fd, name: path)
        }
        let url = URL(fileURLWithPath: target)
        let dir = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw InputError(file: dir.path, "cannot create the output directory: \(error.localizedDescription)")
        }
        let tmp = dir.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw InputError(file: tmp, "cannot write the temporary output file: \(String(cString: strerror(errno)))") }
        do {
            try stream(bytes, to: fd, name: path)
        } catch {
            close(fd); unlink(tmp)
            throw error
        }
        guard close(fd) == 0 else {
            let err = String(cString: strerror(errno)); unlink(tmp)
            throw InputError(file: path, "cannot be written: \(err)")
        }
        do { try moveIntoPlace(tmp, target, named: path) } catch { unlink(tmp); throw error }
    }

    /// Renames a finished temporary file onto its target (same directory, so readers see the
    /// old file or the new one, never a half-written one).
    public static func moveIntoPlace(_ temporary: String, _ target: String, named name: String) throws {
        guard rename(temporary, target) == 0 else {
            throw InputError(file: name, "cannot move the finished output into place: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes all of `bytes` to an open descriptor; any error (ENOSPC, EPIPE, EIO) is thrown.
    static func stream(_ bytes: [UInt8], to fd: Int32, name: String) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, min($0.count - done, 1 << 24)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(file: name, "cannot be written: \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }

    /// The path a write to `path` lands on: symlinks followed (relative links against their
    /// own folder), so the link itself is kept. A dangling link's target is created.
    static func resolvingSymlinks(_ path: String) throws -> String {
        var p = path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(p, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return p }
            var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(p, &buf, buf.count - 1)
            guard n >= 0 else { throw InputError(file: path, "cannot read the symbolic link: \(String(cString: strerror(errno)))") }
            let dest = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            p = dest.hasPrefix("/") ? dest : URL(fileURLWithPath: p).deletingLastPathComponent().appendingPathComponent(dest).path
        }
        throw InputError(file: path, "has too many levels of symbolic links")
    }

    public static func writeAtomically(_ text: String, to path: String) throws {
        try writeAtomically(Array(text.utf8), to: path)
    }

    /// Reads a hand-edited tab-separated table (TSVTable: `#` and blank lines are comments,
    /// fields trimmed, short rows padded). Returns rows as dictionaries keyed by the header's
    /// column names.
    public static func readTSV(_ path: String) throws -> [[String: String]] {
        let table = try TSVTable.read(path, trim: true, padShortRows: true)
        return table.rows.map { row in
            var out: [String: String] = [:]
            for c in table.columns { out[c] = table[row, c] }
            return out
        }
    }
}

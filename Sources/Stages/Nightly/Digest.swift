import Foundation
import GeoModel

/// SHA-256 of the night's inputs, by coreutils' sha256sum (Foundation on Linux has no hash
/// functions) in a process of its own that runs while the night works: reading a night's 500 MB
/// of runs twice costs seconds.
final class InputsDigest {
    private let process = Process()
    private let output = Pipe()
    private let files: [String]
    private var result: String?

    /// Starts hashing `files` (each must be readable).
    init(_ files: [String]) throws {
        self.files = files
        for f in files where !FileManager.default.isReadableFile(atPath: f) {
            throw InputError(file: f, "cannot be read (is it built? run make)")
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", "--"] + files
        process.standardOutput = output
        try process.run()
    }

    /// The SHA-256 of the one file, or of sha256sum's lines ("<sha256>  <path>") for several.
    func wait() throws -> String {
        if let result { return result }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let sums = text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        guard process.terminationStatus == 0, sums.count == files.count else {
            throw StageError("sha256sum \(files.joined(separator: " ")) failed")
        }
        result = sums.count == 1 ? sums[0] : try InputsDigest.text(text)
        return result!
    }

    private static func text(_ s: String) throws -> String {
        let p = Process(), out = Pipe(), inp = Pipe()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["sha256sum"]
        p.standardOutput = out; p.standardInput = inp
        try p.run()
        inp.fileHandleForWriting.write(Data(s.utf8))
        try inp.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }
}

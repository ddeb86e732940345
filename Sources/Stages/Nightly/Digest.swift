import Foundation
import GeoModel

/// SHA-256 of the night's inputs, through coreutils' sha256sum (Foundation on Linux has no
/// hash functions).
enum Digest {
    static func sha256(file path: String) throws -> String {
        guard FileManager.default.isReadableFile(atPath: path) else { throw InputError(file: path, "cannot be read (is it built? run make)") }
        return try run(["sha256sum", "--", path], input: nil)
    }

    static func sha256(_ bytes: [UInt8]) -> String { (try? run(["sha256sum"], input: bytes)) ?? "" }

    private static func run(_ args: [String], input: [UInt8]?) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        let out = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardInput = inp
        try p.run()
        if let input { inp.fileHandleForWriting.write(Data(input)) }
        try inp.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0, let text = String(data: data, encoding: .utf8), let h = text.split(separator: " ").first else {
            throw StageError("sha256sum \(args.dropFirst().joined(separator: " ")) failed")
        }
        return String(h)
    }
}

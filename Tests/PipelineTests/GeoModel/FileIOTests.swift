import Foundation
import Testing
@testable import GeoModel

/// What a stage may read and how it writes: regular files only, bounded; atomic renames for
/// files, streaming for devices and FIFOs, symlinks written through.
@Suite struct FileIOTests {
    @Test func aByteOrderMarkIsIgnored() throws {
        let dir = temporaryDirectory()
        let plain = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"FR","properties":{"name":"France"},"geometry":{"type":"Point","coordinates":[2.35,48.85]}}]}"#
        let path = dir + "/bom.geojson"
        try Data([0xEF, 0xBB, 0xBF] + Array(plain.utf8)).write(to: URL(fileURLWithPath: path))
        let features = try GeoJSON.read(path: path)
        #expect(features.count == 1 && features[0].id == "FR")
    }

    @Test func aSymlinkIsWrittenThroughAndKept() throws {
        let dir = temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.txt", withDestinationPath: "real.txt")
        try FileIO.writeAtomically("hello", to: dir + "/link.txt")
        let attrs = try FileManager.default.attributesOfItem(atPath: dir + "/link.txt")
        #expect(attrs[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try String(contentsOfFile: dir + "/real.txt", encoding: .utf8) == "hello")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["link.txt", "real.txt"])
    }

    @Test func aFIFOIsStreamedToNotReplaced() throws {
        let dir = temporaryDirectory()
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o644) == 0)
        let got = ReadBox()
        let t = Thread {
            let fd = open(fifo, O_RDONLY)
            var all: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 4096)
            while true { let n = read(fd, &buf, buf.count); if n <= 0 { break }; all += buf[0..<n] }
            close(fd); got.set(all)
        }
        t.start()
        try FileIO.writeAtomically("through the pipe", to: fifo)
        for _ in 0..<200 where got.get() == nil { usleep(10_000) }
        #expect(got.get().map { String(decoding: $0, as: UTF8.self) } == "through the pipe")
        var st = stat()
        #expect(stat(fifo, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aFullDeviceFailsTheWrite() {
        #expect(throws: InputError.self) { try FileIO.writeAtomically("x", to: "/dev/full") }
    }

    @Test func inputsThatAreNotRegularFilesAreRefused() throws {
        for (path, kind) in [("/dev/zero", "a character device"), ("/tmp", "a directory")] {
            do { _ = try FileIO.readBytes(path); Issue.record("\(path) was read") }
            catch let e as InputError { #expect(e.problem == "is \(kind), not a regular file") }
        }
        let dir = temporaryDirectory()
        let big = writeFile(dir, "big.json", String(repeating: " ", count: 2048))
        do { _ = try FileIO.readBytes(big, limit: 1024); Issue.record("an oversized file was read") }
        catch let e as InputError { #expect(e.problem.contains("larger than the 1024 bytes an input may be")) }
    }
}

/// `value` is guarded by `lock`.
final class ReadBox: @unchecked Sendable {
    private var value: [UInt8]?
    private let lock = NSLock()
    func set(_ v: [UInt8]) { lock.lock(); value = v; lock.unlock() }
    func get() -> [UInt8]? { lock.lock(); defer { lock.unlock() }; return value }
}

import Foundation
import GeoDigest
import GeoModel
import Testing

/// SHA-256 over libcrypto: the standard vectors, fed at once and in pieces, and a file.
@Suite struct SHA256Tests {
    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256.hex(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 56 bytes: the padding needs a second block.
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // Fed in pieces, the same digest as at once.
        let d = SHA256()
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        for start in stride(from: 0, to: million.count, by: 777) { d.update(million[start..<min(start + 777, million.count)]) }
        #expect(d.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func aFileHashesAsItsBytes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(getpid()).bin").path
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try SHA256.hex(ofFile: path) == SHA256.hex(of: bytes))
        #expect(throws: InputError.self) { try SHA256.hex(ofFile: path + ".missing") }
    }
}

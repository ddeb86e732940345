import Foundation
import Testing
@testable import GeoModel

/// What the release stage builds on: SHA-256 of its files, the border displacement it reports.
@Suite struct ReleaseSupportTests {
    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256.hex(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 56 bytes: the padding needs a second block.
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // Fed in pieces, the same digest as at once.
        var d = SHA256()
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        for start in stride(from: 0, to: million.count, by: 777) { d.update(million[start..<min(start + 777, million.count)]) }
        #expect(d.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    static func square(_ x: Double, _ y: Double, _ side: Double) -> Geometry {
        .polygon(Polygon(rings: [[Point(x, y), Point(x + side, y), Point(x + side, y + side), Point(x, y + side), Point(x, y)]]))
    }

    @Test func sameBoundaryIsZeroWhateverTheRingStart() {
        let a = Self.square(10, 40, 1)
        let b = Geometry.polygon(Polygon(rings: [[Point(11, 40), Point(11, 41), Point(10, 41), Point(10, 40), Point(11, 40)]]))
        #expect(BoundaryDistance.hausdorffKm(a, a) == 0)
        #expect(BoundaryDistance.hausdorffKm(a, b) == 0)
    }

    @Test func oneMovedVertexGivesItsDisplacement() {
        // A square's corner pulled 0.036° north (4.0 km): the largest displacement is that vertex's.
        let a = Self.square(10, 40, 1)
        let b = Geometry.polygon(Polygon(rings: [[Point(10, 40), Point(11, 40), Point(11, 41.036), Point(10, 41), Point(10, 40)]]))
        let d = BoundaryDistance.hausdorffKm(a, b)
        #expect(abs(d - 4.0) < 0.05, "got \(d) km")
        // The far side of a square moved 1° east: 1° of longitude at 40–41°N, about 84 km.
        let c = Self.square(11, 40, 1)
        let far = BoundaryDistance.hausdorffKm(a, c)
        #expect(far > 83 && far < 86, "got \(far) km")
    }

    @Test func pointCountriesMoveByTheirDistance() {
        let d = BoundaryDistance.hausdorffKm(.point(Point(7.4, 43.7)), .point(Point(7.4, 43.8)))
        #expect(abs(d - 11.12) < 0.02, "got \(d) km")
    }
}

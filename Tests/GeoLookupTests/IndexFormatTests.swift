import Foundation
import Testing
@testable import GeoLookup
import Geodesy

/// The border rule and the file's defences, on two square countries sharing edges.
@Suite struct IndexFormatTests {
    static func square(_ code: String, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> LookupIndexBuilder.Country {
        .init(code: code, rings: [[Coordinate(latitude: y0, longitude: x0), Coordinate(latitude: y0, longitude: x1),
                                   Coordinate(latitude: y1, longitude: x1), Coordinate(latitude: y1, longitude: x0),
                                   Coordinate(latitude: y0, longitude: x0)]])
    }

    static let bytes: [UInt8] = {
        // AA west of BB (a south–north border at 10.3°E), CC north of both (an east–west border at 40.3°N)
        var b = LookupIndexBuilder(countries: [square("AA", 10.1, 40.1, 10.3, 40.3), square("BB", 10.3, 40.1, 10.5, 40.3),
                                               square("CC", 10.1, 40.3, 10.5, 40.5)],
                                   cities: [.init(name: "Town, the", countryCode: "AA", coordinate: Coordinate(latitude: 40.2, longitude: 10.2), population: 5)])
        return try! b.build()
    }()

    @Test func pointsOnABorderGetOneDocumentedAnswer() throws {
        let g = try GeoLookup(data: Data(Self.bytes))
        #expect(g.country(at: 40.2, 10.2) == "AA")
        #expect(g.country(at: 40.2, 10.4) == "BB")
        #expect(g.country(at: 40.4, 10.2) == "CC")
        // on the south–north border: east of it
        #expect(g.country(at: 40.2, 10.3) == "BB")
        // on the east–west border: south of it
        #expect(g.country(at: 40.3, 10.2) == "AA")
        #expect(g.country(at: 40.3, 10.4) == "BB")
        // the same answer every time
        for _ in 0..<3 { #expect(g.country(at: 40.3, 10.3) == g.country(at: 40.3, 10.3)) }
        #expect(g.country(at: 40.3, 10.3) != nil)
    }

    @Test func truncatedFileIsRefused() throws {
        let cut = Array(Self.bytes.prefix(Self.bytes.count - 100))
        #expect(throws: LookupIndexError.self) { try GeoLookup(data: Data(cut)) }
        do { _ = try GeoLookup(data: Data(cut)) } catch let e as LookupIndexError {
            #expect(e.message.hasPrefix("truncated: the header says \(Self.bytes.count) bytes, the file has \(cut.count)"))
        }
        do { _ = try GeoLookup(data: Data(Self.bytes.prefix(10))) } catch let e as LookupIndexError {
            #expect(e.message.hasPrefix("truncated"))
        }
    }

    @Test func corruptByteIsRefused() throws {
        var b = Self.bytes
        b[b.count / 2] ^= 0x40
        do { _ = try GeoLookup(data: Data(b)); Issue.record("a corrupt file was accepted") } catch let e as LookupIndexError {
            #expect(e.message.contains("checksum"))
        }
        var m = Self.bytes
        m[0] = UInt8(ascii: "X")
        #expect(throws: LookupIndexError("not a lookup index (no GEOLOOK1 magic)")) { try GeoLookup(data: Data(m)) }
    }

    @Test func cityNamesAndCodesRoundTrip() throws {
        let g = try GeoLookup(data: Data(Self.bytes))
        #expect(g.countryCodes == ["AA", "BB", "CC"])
        let c = try #require(g.nearestCity(to: 40.21, 10.21, within: 5))
        #expect(c.name == "Town, the" && c.countryCode == "AA" && c.population == 5)
        #expect(g.nearestCity(to: 41.0, 10.2, within: 5) == nil)
    }
}

@Suite struct SphereLegTests {
    @Test func positionAlongALeg() {
        let taipei = Coordinate(latitude: 25.035833, longitude: 121.568333), seoul = Coordinate(latitude: 37.568295, longitude: 126.997785)
        #expect(Sphere.position(from: taipei, to: seoul, fraction: 0) == taipei)
        #expect(Sphere.position(from: taipei, to: seoul, fraction: 1) == seoul)
        let total = Sphere.distanceKm(taipei, seoul)
        for t in [0.1, 0.25, 0.5, 0.9] {
            let p = Sphere.position(from: taipei, to: seoul, fraction: t)
            #expect(abs(Sphere.distanceKm(taipei, p) - t * total) < 1e-6)
            #expect(abs(Sphere.distanceKm(p, seoul) - (1 - t) * total) < 1e-6)
        }
        // across the antimeridian the short way
        let a = Coordinate(latitude: -17, longitude: 178), b = Coordinate(latitude: -14, longitude: -172)
        let mid = Sphere.position(from: a, to: b, fraction: 0.5)
        #expect(abs(mid.longitude) > 170)
    }
}

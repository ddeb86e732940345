import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoGEOS
@testable import GeoPROJ

/// The shared parts: JSON reading and writing, tables, GEOS ownership.
@Suite struct CoreTests {
    @Test func numbersAreWrittenTheSameWayEveryTime() {
        var w = JSONWriter()
        for d in [0.0, -0.0, 12.5, -0.000001, 180, 1.0000004, 1.0000005, -73.9857, 1e-7] {
            w.fixed(d, decimals: 6); w.raw(" ")
        }
        #expect(w.string == "0 0 12.5 -0.000001 180 1 1.000001 -73.9857 0 ")
    }

    @Test func parserReadsNumbersExactly() throws {
        let v = try JSONValue.parse("[0.1, -33.479999005400003, 1e-7, 123456789012345678, 5e300, -0]")
        let d = v.arrayValue!.map { $0.doubleValue! }
        #expect(d[0] == 0.1 && d[1] == -33.479999005400003 && d[2] == 1e-7)
        #expect(d[3] == Double(123456789012345678 as Int64) && d[4] == 5e300 && d[5] == 0)
    }

    @Test func stringsRoundTripWithEscapes() throws {
        let s = "Côte d'Ivoire \"quoted\" \\ tab\t nl\n \u{1}😀"
        var w = JSONWriter(); w.string(s)
        #expect(try JSONValue.parse(w.bytes, file: "written").stringValue == s)
        #expect(try JSONValue.parse(#""\ud83d\ude00 \u00e9""#).stringValue == "😀 é")
    }

    @Test func aPropertyNamedCoordinatesIsAnOrdinaryValue() throws {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"coordinates":["x",1]},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#
        let f = try GeoJSON.decode(Array(text.utf8), file: "t.geojson")
        #expect(f[0].properties["coordinates"] == .array([.string("x"), .number(1)]))
        #expect(f[0].geometry == .point(Point(1, 2)))
    }

    @Test func nonFiniteNumbersInPropertiesAreRejected() {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"NAME":"Nanland","POP":{"est":[1,NaN]}},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#
        #expect(throws: InputError.self) { try GeoJSON.decode(Array(text.utf8), file: "t.geojson") }
        do { _ = try GeoJSON.decode(Array(text.utf8), file: "t.geojson") } catch {
            #expect("\(error)".contains("feature #0 \"Nanland\": properties.POP.est[1] is NaN, not a finite number"))
        }
    }

    @Test func tablesReadTheSameWithCRLFAndAByteOrderMark() throws {
        let dir = temporaryDirectory()
        let lf = writeFile(dir, "lf.tsv", "# comment\nid\tname\nGB\tUnited Kingdom\n")
        let crlf = writeFile(dir, "crlf.tsv", "\u{FEFF}# comment\r\nid\tname\r\nGB\tUnited Kingdom\r\n")
        #expect(try FileIO.readTSV(lf) == [["id": "GB", "name": "United Kingdom"]])
        #expect(try FileIO.readTSV(crlf) == [["id": "GB", "name": "United Kingdom"]])
    }

    @Test func geosGeometriesStayValidAfterGoingIntoAUnion() throws {
        let ctx = GEOSContext()
        let a = try ctx.polygon(Polygon(rings: [[Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1), Point(0, 0)]]))
        let b = try ctx.polygon(Polygon(rings: [[Point(1, 0), Point(2, 0), Point(2, 1), Point(1, 1), Point(1, 0)]]))
        let u = try ctx.coverageUnion([a, b])
        #expect(try u.area() == 2)
        // The inputs are still ours to use (and free) after the union.
        #expect(try a.area() == 1 && b.area() == 1)
        #expect(try u.polygons().count == 1)
    }

    @Test func geosErrorsCarryGEOSsOwnMessage() throws {
        let ctx = GEOSContext()
        let bowtie = try ctx.polygon(Polygon(rings: [[Point(0, 0), Point(1, 1), Point(1, 0), Point(0, 1), Point(0, 0)]]))
        #expect(try !bowtie.isValid())
        #expect(bowtie.validityReason().hasPrefix("Self-intersection"))
        let fixed = try bowtie.makeValid()
        #expect(try fixed.isValid())
        #expect(abs(try fixed.area() - 0.5) < 1e-12)
    }

    @Test func projTransformsBuffersAndReportsBadDefinitions() throws {
        let ctx = PROJContext()
        let t = try Transformation(context: ctx, from: "EPSG:4326", to: "EPSG:3857")
        var pts = [Point(0, 0), Point(180, 0)]
        try t.transform(&pts)
        #expect(abs(pts[1].x - 20037508.342789244) < 1e-6)
        #expect(throws: PROJError.self) { try Transformation(context: ctx, from: "EPSG:4326", to: "EPSG:999999") }
        // A geodesic area: a 1°×1° cell at the equator is about 12,309 km².
        let cell = Polygon(rings: [[Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1), Point(0, 0)]])
        #expect(abs(Geodesic.wgs84.area(cell) / 1e6 - 12308.8) < 1)
    }

    @Test func countryFilesAreCheckedOnceForEveryConsumer() throws {
        func file(_ features: String...) -> [UInt8] { Array(#"{"type":"FeatureCollection","features":["#.utf8) + Array(features.joined(separator: ",").utf8) + Array("]}".utf8) }
        let fr = #"{"type":"Feature","id":"FR","properties":{"name":"France"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#
        let ad = #"{"type":"Feature","id":"AD","properties":{"name":"Andorra","renderAs":"point"},"geometry":{"type":"Point","coordinates":[1.5,42.5]}}"#
        let adPolygon = #"{"type":"Feature","id":"AD","properties":{"name":"Andorra","renderAs":"point"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#
        let nameless = #"{"type":"Feature","id":"DE","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        try CountryFile.check(try GeoJSON.decode(file(fr, ad), file: "w"), file: "w")
        let cases: [([UInt8], String)] = [
            (file(fr, fr), "w: feature #1 \"France\" (id FR): repeats the id FR of feature #0"),
            (file(adPolygon), "w: feature #0 \"Andorra\" (id AD): has renderAs \"point\" but a Polygon geometry"),
            (file(nameless), "w: feature #0 (id DE): has no name"),
            (file(ad.replacingOccurrences(of: "\"AD\"", with: "\"a/b\"")), "id \"a/b\" is not two upper-case letters"),
        ]
        for (bytes, message) in cases {
            do { try CountryFile.check(try GeoJSON.decode(bytes, file: "w"), file: "w"); Issue.record("no error for \(message)") }
            catch { #expect("\(error)".contains(message), "\(error)") }
        }
    }

    @Test func ringsMustBeCutAtTheAntimeridianButThePoleLineIsFine() throws {
        let uncut = Geometry.polygon(Polygon(rings: [[Point(178, -3), Point(-178, -3), Point(-178, 3), Point(178, 3), Point(178, -3)]]))
        #expect(CountryFile.antimeridianJump(uncut)?.contains("ring 0 crosses the antimeridian between positions 0 and 1") == true)
        // Antarctica at 1:110m closes its ring along the pole line from -180 to 180.
        let antarctica = try Slices.units(Repo.countries110m, ["ATA"])[0]
        #expect(CountryFile.antimeridianJump(antarctica.geometry) == nil)
        let fiji = try Slices.units(Repo.units10m, ["FJI"])[0]
        #expect(CountryFile.antimeridianJump(fiji.geometry) == nil)
    }
}


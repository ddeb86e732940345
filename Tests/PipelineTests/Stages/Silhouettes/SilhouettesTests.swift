import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import GeoModel
import Geodesy
@testable import GeoGEOS
@testable import GeoPROJ
@testable import GeoFormats
@testable import SilhouettesStage

/// Silhouettes on real Natural Earth slices, XML escaping, and the id rule that keeps file
/// names inside the output folder.
@Suite struct SilhouetteTests {
    let options = Silhouette.Options()

    func draw(_ unit: String, id: String, options o: Silhouette.Options = Silhouette.Options()) throws -> (Silhouette.Drawing, [Polygon]) {
        let f = try Slices.units(Repo.units10m, [unit])
        try #require(f.count == 1)
        let polys = f[0].geometry.polygons
        return (try Silhouette.draw(id: id, name: f[0].string("NAME") ?? id, polygons: polys, options: o, proj: PROJContext(), geos: GEOSContext()), polys)
    }

    func points(_ r: [GridPoint]) -> Ring { (r + [r[0]]).map { Point(Double($0.x), Double($0.y)) } }

    /// Fitted: the longer side fills the padded box, and the shape is centred.
    func expectFittedAndCentred(_ d: Silhouette.Drawing) {
        let inner = options.size - 2 * options.padding
        #expect(abs(max(d.box.width, d.box.height) - inner) <= 1)
        #expect(abs((d.box.minX + d.box.maxX) - options.size) <= 1)
        #expect(abs((d.box.minY + d.box.maxY) - options.size) <= 1)
    }

    @Test func fijiIsOneCompactShapeAcrossTheAntimeridian() throws {
        let (d, polys) = try draw("FJI", id: "FJ")
        #expect(abs(d.centre.x) > 176)            // the centre is near 180°, not near 0°
        expectFittedAndCentred(d)
        // Islands from both sides of ±180° are drawn…
        let lons = d.drawnParts.map { polys[$0].exterior[0].x }
        #expect(lons.contains { $0 > 0 } && lons.contains { $0 < 0 })
        // …as one compact group: two halves at the far ends of a picture would be a thin strip.
        #expect(d.box.width / d.box.height < 2 && d.box.height / d.box.width < 2)
        #expect(d.svg.utf8.count < 10_000)
    }

    @Test func russiaKeepsKaliningradAndJoinsChukotka() throws {
        let (d, polys) = try draw("RUS", id: "RU")
        expectFittedAndCentred(d)
        #expect(d.centre.x > 80 && d.centre.x < 110)
        // Kaliningrad (about 20.5°E, 54.7°N) is big enough to stay.
        #expect(d.drawnParts.contains { i in polys[i].exterior.allSatisfy { $0.x > 19 && $0.x < 23 && $0.y > 54 && $0.y < 56 } })
        // Chukotka's part east of 180° is joined to the mainland: one ring fewer than parts drawn.
        #expect(d.drawnParts.contains { i in polys[i].exterior.contains { $0.x == -180 } })
        let aspect = d.box.width / d.box.height
        #expect(aspect > 1.6 && aspect < 1.9)
        #expect(d.svg.utf8.count <= options.maxBytes)
    }

    @Test func lesothoIsAHoleInSouthAfrica() throws {
        let (d, _) = try draw("ZAF", id: "ZA")
        #expect(d.svg.contains("fill-rule=\"evenodd\""))
        let rings = d.gridRings.map(points)
        let outer = rings.indices.max { abs(RingMath.signedArea(rings[$0])) < abs(RingMath.signedArea(rings[$1])) }!
        let holes = rings.indices.filter { $0 != outer && rings[$0].allSatisfy { RingMath.contains(rings[outer], $0) } }
        try #require(holes.count == 1)
        let share = abs(RingMath.signedArea(rings[holes[0]])) / abs(RingMath.signedArea(rings[outer]))
        #expect(share > 0.02 && share < 0.04)      // Lesotho is about 2.5 % of South Africa's outline
    }

    @Test func smallRemotePartsGoButNeverTheWholeCountry() throws {
        let (cl, polys) = try draw("CHL", id: "CL")
        // Easter Island (109°W) and the Juan Fernández islands (79°W) are too small to keep.
        #expect(!cl.drawnParts.contains { i in polys[i].exterior[0].x < -78.5 })
        #expect(cl.drawnParts.count < polys.count)
        var o = Silhouette.Options()
        o.minPartShare = 0.99
        let (only, _) = try draw("CHL", id: "CL", options: o)
        #expect(only.drawnParts.count == 1)
        expectFittedAndCentred(only)
    }

    @Test func canadaStaysWithinTheByteBudget() throws {
        let (d, _) = try draw("CAN", id: "CA")
        #expect(d.svg.utf8.count <= options.maxBytes)
        #expect(d.tolerance > options.tolerance)  // unsimplified 1:10m Canada needs more simplification
        var o = Silhouette.Options()
        o.maxBytes = 0
        let (full, _) = try draw("CAN", id: "CA", options: o)
        #expect(full.svg.utf8.count > d.svg.utf8.count)
    }

    @Test func textIsXMLEscaped() throws {
        let name = "Ben & \"Jerry's\" <Land>\u{1}"
        let svg = SVGDocuments.silhouette(id: "BJ", name: name, pathData: "M0 0l1 0 0 1z", size: 100, fill: "#000")
        #expect(svg.contains("<title>Ben &amp; &quot;Jerry&apos;s&quot; &lt;Land&gt;\u{FFFD}</title>"))
        #expect(!svg.contains("<Land>"))
        let doc = try XMLDocument(xmlString: svg, options: [])
        let title = try doc.nodes(forXPath: "//*[local-name()='title']").first?.stringValue
        #expect(title == "Ben & \"Jerry's\" <Land>\u{FFFD}")
        let sheet = SVGDocuments.contactSheet([.init(id: "BJ", name: name, pathData: "M0 0l1 0 0 1z")], size: 100, fill: "#000")
        _ = try XMLDocument(xmlString: sheet, options: [])
        #expect(sheet.contains("&lt;Land&gt;") && !sheet.contains("<Land>"))
        let html = SVGDocuments.indexHTML([.init(id: "BJ", name: name, bytes: 10, parts: 1)], title: "a<b", note: "x&y")
        #expect(html.contains("alt=\"Ben &amp; &quot;Jerry&apos;s&quot; &lt;Land&gt;\u{FFFD}\"") && html.contains("<title>a&lt;b</title>"))
        let map = SVGDocuments.worldMap(width: 10, height: 10, title: "t", oceanPath: "M0 0l1 0 0 1z",
                                        countries: [.init(id: "BJ", name: name, pathData: "M0 0l1 0 0 1z", point: nil)], borderWidth: 1, pointRadius: 1)
        _ = try XMLDocument(xmlString: map, options: [])
    }

    @Test func idsThatAreNotTwoUpperCaseLettersAreRefused() throws {
        for bad in ["../x", "fr", "F", "FRA", "", "F/", "É1"] { #expect(!CountryID.isValid(bad)) }
        #expect(CountryID.isValid("FR") && CountryID.isValid("XK"))
        let dir = temporaryDirectory()
        let square = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1), Point(0, 0)]]))
        for (id, expected) in [("../x", "\"../x\" is not two upper-case letters"), (nil, "has no id")] as [(String?, String)] {
            let input = dir + "/bad.geojson"
            try GeoJSON.write([Feature(id: "AA", properties: JSONObject([("name", .string("Fine"))]), geometry: square),
                               Feature(id: id, properties: JSONObject([("name", .string("Evil"))]), geometry: square)], to: input)
            var o = SilhouettesStage.Options(input: input, outputDir: dir + "/out")
            o.threads = 1
            do {
                _ = try SilhouettesStage.run(o, log: StageLog(stage: "test", quiet: true))
                Issue.record("id \(id ?? "nil") was accepted")
            } catch let e as InputError {
                #expect(e.description.contains(input) && e.description.contains("feature #1") && e.description.contains(expected))
            }
            #expect(!FileManager.default.fileExists(atPath: dir + "/x.svg"))
        }
    }

    @Test func stageOutputIsTheSameOnOneOrTwoThreads() throws {
        let dir = temporaryDirectory()
        var features: [Feature] = []
        for (unit, id) in [("FJI", "FJ"), ("LSO", "LS"), ("ZAF", "ZA"), ("NOW", "NO")] {
            let f = try Slices.units(Repo.units10m, [unit])[0]
            features.append(Feature(id: id, properties: JSONObject([("name", .string(f.string("NAME")!))]), geometry: f.geometry))
        }
        features.append(Feature(id: "MC", properties: JSONObject([("name", .string("Monaco")), ("renderAs", .string("point"))]), geometry: .point(Point(7.4, 43.7))))
        let input = dir + "/world.geojson"
        try GeoJSON.write(features, to: input)
        var outputs: [[String: [UInt8]]] = []
        for threads in [1, 2] {
            var o = SilhouettesStage.Options(input: input, outputDir: dir + "/out\(threads)")
            o.threads = threads
            let r = try SilhouettesStage.run(o, log: StageLog(stage: "test", quiet: true))
            #expect(r.drawn.map(\.id) == ["FJ", "LS", "ZA", "NO"])
            #expect(r.pointCountries == ["MC"])
            let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/out\(threads)").sorted()
            #expect(names == ["FJ.svg", "LS.svg", "NO.svg", "ZA.svg", "contact-sheet.svg", "index.html", "manifest.json"])
            outputs.append(Dictionary(uniqueKeysWithValues: try names.map { ($0, try FileIO.readBytes(dir + "/out\(threads)/" + $0)) }))
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func pathDataIsCleanedAndCompact() {
        // A zero-width spike (10,10 → 10,20 → 10,10) and a repeated point disappear.
        let ring: Ring = [Point(0, 0), Point(10, 0), Point(10, 10), Point(10, 20), Point(10, 10), Point(10, 10), Point(0, 10), Point(0, 0)]
        let q = SVGPathData.quantize(ring, decimals: 0)
        #expect(q == [GridPoint(0, 0), GridPoint(10, 0), GridPoint(10, 10), GridPoint(0, 10)])
        #expect(SVGPathData.encode([q, [GridPoint(2, 2), GridPoint(2, 4), GridPoint(4, 4)]], decimals: 0) == "M0 0l10 0 0 10-10 0zm2 2l0 2 2 0z")
        #expect(SVGPathData.quantize([Point(0, 0), Point(0.2, 0.1), Point(0.1, 0.3), Point(0, 0)], decimals: 0).isEmpty)
        #expect(SVGPathData.encode([SVGPathData.quantize([Point(0, 0), Point(1.25, 0), Point(1.25, -2.5), Point(0, 0)], decimals: 2)], decimals: 2) == "M0 0l1.25 0 0-2.5z")
    }
}

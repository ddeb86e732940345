import Foundation
import Testing
import GeoModel
import H3
@testable import Hexagons

/// geo-hexagons' library: polygons read by GeoModel's streaming reader, the polyfill bound
/// checked before any work (h3's maxPolygonToCellsSize), the cells loop answering before a bad line.
@Suite struct HexagonsTests {
    func write(_ name: String, _ text: String) throws -> String {
        let dir = NSTemporaryDirectory() + "hexagons-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func polygonsOfCollectionsFeaturesAndGeometries() throws {
        let box = "[[[2,48],[3,48],[3,49],[2,49],[2,48]],[[2.4,48.4],[2.6,48.4],[2.6,48.6],[2.4,48.4]]]"
        let fc = try write("fc.geojson", """
        {"type":"FeatureCollection","features":[
         {"type":"Feature","properties":{"name":"a"},"geometry":{"type":"Polygon","coordinates":\(box)}},
         {"type":"Feature","properties":null,"geometry":{"coordinates":[\(box),\(box)],"type":"MultiPolygon"}},
         {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}},
         {"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Polygon","coordinates":\(box)}]}}]}
        """)
        let ps = try PolygonFile.polygons(path: fc)
        #expect(ps.count == 4 && ps.allSatisfy { $0.outer.count == 4 && $0.holes.count == 1 && $0.holes[0].count == 3 })
        #expect(ps[0].outer[1] == LatLng(latDegrees: 48, lngDegrees: 3))
        #expect(try PolygonFile.polygons(path: try write("g.geojson", "{\"type\":\"Polygon\",\"coordinates\":\(box)}")).count == 1)
        #expect(try PolygonFile.polygons(path: try write("f.geojson", "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(box)}}")).count == 1)
        for (text, message) in [("{\"type\": \"FeatureCollection\", \"features\": [}", "bad.geojson: not valid JSON"),
                                ("{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 1], [0, 0]]]}", "ring has fewer than 3 distinct positions"),
                                ("{\"type\": \"LineString\", \"coordinates\": [[0, 0], [1, 1]]}", "no Polygon or MultiPolygon geometry"),
                                ("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"name\":\"x\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,NaN],[1,1],[0,0]]]}}]}", "feature 0 (x): bad position")] {
            let path = try write("bad.geojson", text)
            #expect { _ = try PolygonFile.polygons(path: path) } throws: { "\($0)".contains(message) }
        }
    }

    @Test func polyfillRefusesBeyondTheLimitWithTheEstimate() throws {
        // A France-sized box: at res 15 some 10¹¹ cells; refused at once with h3's estimate.
        let france = GeoPolygon(outer: [(-5.0, 42.0), (8.0, 42.0), (8.0, 51.0), (-5.0, 51.0)].map { LatLng(latDegrees: $0.1, lngDegrees: $0.0) })
        let estimate = try H3.maxPolygonToCellsSize(france, res: 15)
        #expect(estimate > 100_000_000_000)
        let start = Date()
        #expect { _ = try Hexagons.polyfill([france], res: 15, file: "france.geojson") } throws: {
            let s = "\($0)"
            return s.contains("france.geojson") && s.contains(formatCount(estimate)) && s.contains("--max-cells")
        }
        #expect(Date().timeIntervalSince(start) < 1)
        // Within the limit the answer is h3's, and the estimate bounds it.
        let cells = try Hexagons.polyfill([france], res: 3, file: "france.geojson")
        let h3Cells = try H3.polygonToCells(france, res: 3), bound = try H3.maxPolygonToCellsSize(france, res: 3)
        #expect(cells == h3Cells.sorted() && cells.count <= bound)
    }

    @Test func cellsAnswerTheLinesBeforeABadOne() throws {
        var lines = ["48.85,2.35", "-33.87,151.21", "oops", "1,1"][...]
        var out = LineWriter()
        #expect { try Hexagons.cells(res: 5, lines: { lines.popFirst() }, out: &out) } throws: { "\($0)".contains("stdin line 3") }
        #expect(lines == ["1,1"])
    }
}

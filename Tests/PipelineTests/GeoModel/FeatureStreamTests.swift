import Foundation
import SeededRandom
import Testing
@testable import GeoModel
import Geodesy

/// The streaming GeoJSON reader: the plain and the ranged reader give the same features and
/// the same quarantined ones, whatever the ranges cut through (strings that look like a
/// feature's start included); bad JSON names the line.
@Suite struct FeatureStreamTests {
    /// One feature: its id and the sum of its coordinates' longitudes; a NaN is malformed.
    static func decode(_ c: inout JSONCursor, _ index: Int) throws -> (String, Double) {
        var id = "", sum = 0.0
        try c.object { c, key in
            switch key {
            case "id": id = try c.string(); c.featureID = id
            case "geometry":
                try c.object { c, key in
                    guard key == "coordinates" else { try c.skip(); return }
                    try c.array { c in
                        var n = 0
                        try c.array { c in let v = try c.number("coordinate"); if n == 0 { sum += v }; n += 1 }
                    }
                }
            default: try c.skip()
            }
        }
        return (id, sum)
    }

    func collection(_ n: Int) -> String {
        var parts: [String] = []
        for i in 0..<n {
            let lon = i == 7 ? "NaN" : "\(i % 180)"
            // A property whose text looks like a feature boundary: `},{"` inside a string.
            parts.append("{\"type\":\"Feature\",\"id\":\"f\(i)\",\"properties\":{\"note\":\"x},{\\\"y\\\":1\"},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[\(lon),1],[2.5,3]]}}")
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + parts.joined(separator: ",\n") + "\n]}"
    }

    @Test func plainAndRangedReadersAgree() throws {
        let bytes = Array(collection(20_000).utf8)   // ~2.6 MB: many ranges
        try bytes.withUnsafeBufferPointer { buf in
            let plain = try FeatureStream.read(buf, file: "f.geojson", workers: 2, Self.decode)
            let ranged = try FeatureStream.each(buf, file: "f.geojson", workers: 2, makeState: { () }) { c, i, _ in try Self.decode(&c, i) }
            #expect(plain.count == 20_000 && ranged.count == 20_000)
            #expect(plain.features.map(\.index) == ranged.features.map(\.index))
            #expect(plain.features.map(\.value.0) == ranged.features.map(\.value.0))
            #expect(plain.features.map(\.value.1) == ranged.features.map(\.value.1))
            #expect(plain.features[8].value == ("f9", 11.5))
            #expect(plain.rejected == [FeatureStream.Rejected(index: 7, id: "f7", reason: "coordinate is NaN, not a finite number")])
            #expect(ranged.rejected == plain.rejected)
        }
    }

    @Test func badJSONAndNotACollection() throws {
        for (text, message) in [("{\"type\":\"FeatureCollection\",\"features\":[{\"id\":\"a\"},\n{]}", "invalid JSON at line 2"),
                                ("{\"type\":\"Feature\",\"features\":[]}", "is not a GeoJSON FeatureCollection"),
                                ("{\"type\":\"FeatureCollection\"}", "has no features array")] {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBufferPointer { buf in
                #expect { _ = try FeatureStream.each(buf, file: "b.geojson", makeState: { () }) { c, i, _ in try Self.decode(&c, i) } }
                    throws: { "\($0)".hasPrefix("b.geojson") && "\($0)".contains(message) }
            }
        }
    }

    @Test func mappedFileReadsWhatFileIOReads() throws {
        let dir = temporaryDirectory()
        let path = writeFile(dir, "m.geojson", collection(3))
        let m = try MappedFile(path: path)
        #expect(Array(m.buffer) == (try FileIO.readBytes(path)))
        m.release(0..<m.buffer.count)
        #expect(Array(m.buffer) == (try FileIO.readBytes(path)))
    }

    /// A FeatureCollection's features read as one tree of the whole document, with the same
    /// key filter: what `GeoJSON.decode`'s reading range by range must agree with.
    static func wholeTree(_ bytes: [UInt8], options: GeoJSON.ReadOptions) throws -> [Feature] {
        let keep = options.keepProperties.map { JSONKeyFilter($0.union(GeoJSON.structuralKeys)) }
        let root = try bytes.withUnsafeBufferPointer { buf -> JSONValue in
            var c = JSONCursor(buf: buf, file: "t")
            c.skipByteOrderMark()
            return try c.value(keep: keep)
        }
        return try root["features"]!.arrayValue!.enumerated().map {
            try GeoJSON.decodeFeature($0.element, index: $0.offset, file: "t", options: options)
        }
    }

    /// GeoJSON.decode reads every well-formed FeatureCollection, other top-level members
    /// (Natural Earth's "name", a "crs") included, exactly as one tree of the whole document
    /// gives it; anything else (a bad feature, bad JSON anywhere, a second "features", a type
    /// that is not FeatureCollection) is an error.
    @Test func geoJSONDecodeReadsWhatTheWholeTreeGives() throws {
        let world = try FileIO.readBytes(Repo.path("Tests/BadInputs/world/two-countries.geojson"))
        let naturalEarth = try FileIO.readBytes(Repo.path("data/natural-earth/ne_110m_admin_0_countries.geojson"))
        var keep = GeoJSON.ReadOptions()
        keep.keepProperties = ["name", "NAME"]
        for file in [world, naturalEarth] {
            for options in [GeoJSON.ReadOptions(), keep] {
                let decoded = try GeoJSON.decode(file, file: "w", options: options)
                #expect(decoded == (try Self.wholeTree(file, options: options)))
                #expect(!decoded.isEmpty)
            }
        }
        let feature = #"{"type":"Feature","id":"AA","properties":{"name":"A"},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let crs = #""crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}}"#
        for text in [#"{"type":"FeatureCollection","name":"x",\#(crs),"features":[\#(feature)]}"#,
                     #"{"features":[\#(feature)],"name":["a",{"b":null}],"type":"FeatureCollection","bbox":[1,2,1,2]}"#,
                     "\u{FEFF}" + #"{"type":"FeatureCollection","name":"x","features":[]}"#,
                     #"{"type":"FeatureCollection","type":"Topology","features":[\#(feature)]}"#] {
            let bytes = Array(text.utf8)
            for options in [GeoJSON.ReadOptions(), keep] {
                #expect(try GeoJSON.decode(bytes, file: "t", options: options) == (try Self.wholeTree(bytes, options: options)), "\(text)")
            }
        }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        for text in [#"{"type":"FeatureCollection","features":[\#(feature),{"type":"Feature","properties":{},"geometry":null}]}"#,
                     #"{"type":"FeatureCollection","features":[\#(feature),]}"#,
                     #"{"type":"FeatureCollection","features":[\#(feature)]"#,
                     #"{"type":"FeatureCollection","name":tru,"features":[\#(feature)]}"#,
                     #"{"type":"FeatureCollection","name":"x",,"features":[\#(feature)]}"#,
                     #"{"type":"FeatureCollection","crs":\#(deep),"features":[\#(feature)]}"#,
                     #"{"type":"FeatureCollection","features":[\#(feature)],"features":[]}"#,
                     #"{"type":"Topology","name":"x","features":[\#(feature)]}"#,
                     #"{"type":"FeatureCollection","name":"x","features":[\#(feature)]} x"#] {
            #expect(throws: InputError.self, "\(text)") { try GeoJSON.decode(Array(text.utf8), file: "t") }
        }
        let badName = Array(#"{"type":"FeatureCollection","name":tru,"features":[\#(feature)]}"#.utf8)
        #expect { _ = try GeoJSON.decode(badName, file: "t.geojson") } throws: { "\($0)".hasPrefix("t.geojson: invalid JSON at line 1, column 36") }
        let bad = Array(#"{"type":"FeatureCollection","features":[\#(feature),{"type":"Feature","properties":{},"geometry":null}]}"#.utf8)
        #expect { _ = try GeoJSON.decode(bad, file: "t.geojson") } throws: { "\($0)".hasPrefix("t.geojson: feature #1") && "\($0)".hasSuffix("has no geometry") }
    }

    /// Whatever GeoJSON.decode accepts, one tree of the whole document reads alike: files with
    /// other top-level members, mutated byte by byte (deleted, inserted, replaced, a slice
    /// repeated — a second "features", a member cut, a stray byte-order mark).
    @Test func decodedFilesAreReadAlikeByTheWholeTree() throws {
        let f1 = #"{"type":"Feature","id":"AA","properties":{"name":"A","n":-0.0},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let f2 = #"{"type":"Feature","id":7,"properties":null,"geometry":{"type":"LineString","coordinates":[[1,2],[3.5,4e1]]}}"#
        let files = [#"{"type":"FeatureCollection","name":"x","crs":{"type":"name","properties":{"name":"urn"}},"features":[\#(f1),\#(f2)],"bbox":[1,2,3,4]}"#,
                     #"{"features":[\#(f1), \#(f2)],"type":"FeatureCollection"}"#,
                     #"{ "type" : "FeatureCollection" , "features" : [ ] , "name" : [1, {"features": [1]}] }"#]
        let alphabet = Array(#"{}[],:" \FeaturesCollectiontype0123456789.-e"#.utf8) + [0x0A, 0x09, 0xEF, 0xBB, 0xBF]
        var r = SplitMix64(state: 4242)
        var keep = GeoJSON.ReadOptions()
        keep.keepProperties = ["name"]
        var streamed = 0
        var wrong: [String] = []
        for file in files {
            let bytes = Array(file.utf8)
            for _ in 0..<3000 {
                var m = bytes
                for _ in 0..<(1 + r.below(3)) {
                    let i = r.below(m.count + 1)
                    switch r.below(4) {
                    case 0: if i < m.count { m.remove(at: i) }
                    case 1: m.insert(alphabet[r.below(alphabet.count)], at: i)
                    case 2: if i < m.count { m[i] = alphabet[r.below(alphabet.count)] }
                    default: let j = r.below(m.count + 1); m.insert(contentsOf: m[j..<min(m.count, j + r.below(24))], at: i)
                    }
                }
                for options in [GeoJSON.ReadOptions(), keep] {
                    guard let s = try? GeoJSON.decode(m, file: "t", options: options) else { continue }
                    streamed += 1
                    do {
                        if try Self.wholeTree(m, options: options) != s { wrong.append("read otherwise: \(String(decoding: m, as: UTF8.self))") }
                    } catch { wrong.append("\(error): \(String(decoding: m, as: UTF8.self))") }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
        #expect(streamed > 300)
    }
}

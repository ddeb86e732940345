import Foundation
import GeoModel
import H3

/// The polygons of a GeoJSON file for H3, read by GeoModel's streaming reader (`MappedFile`,
/// `JSONCursor`, `FeatureStream`): every Polygon and MultiPolygon geometry of a
/// FeatureCollection's features, of one Feature, or the file's own geometry (inside a
/// GeometryCollection too). Other geometry types are passed over; a file with no polygon at
/// all, a ring with fewer than 3 distinct positions or a position that is not two finite
/// numbers is an error naming the file and the feature.
public enum PolygonFile {
    public static func polygons(path: String) throws -> [GeoPolygon] {
        let file = try MappedFile(path: path)
        do {
            // The mapping lives as long as `file`: kept past the read, which reads its buffer.
            let polygons = try withExtendedLifetime(file) { try read(file.buffer, path: path) }
            guard !polygons.isEmpty else { throw HexagonsError("\(path): no Polygon or MultiPolygon geometry") }
            return polygons
        } catch let e as InputError where e.problem.hasPrefix("invalid JSON") {
            throw HexagonsError("\(path): not valid JSON (\(e.problem))")
        }
    }

    static func read(_ buf: UnsafeBufferPointer<UInt8>, path: String) throws -> [GeoPolygon] {
        // The top level: which kind of object, and where its members are.
        var c = JSONCursor(buf: buf, file: path)
        c.skipByteOrderMark()
        var type: String?, geometryAt: Int?
        try c.object { c, key in
            switch key {
            case "type": type = try c.string()
            case "geometry": c.ws(); geometryAt = c.pos; try c.skip()
            default: try c.skip()
            }
        }
        switch type {
        case "FeatureCollection":
            let read = try FeatureStream.read(buf, file: path) { c, i in try feature(&c, index: i) }
            if let bad = read.rejected.first { throw HexagonsError(bad.error(file: path).description) }
            return read.features.flatMap(\.value)
        case "Feature":
            guard let at = geometryAt else { return [] }
            var g = JSONCursor(buf: buf, file: path)
            g.pos = at
            var out: [GeoPolygon] = []
            try geometry(&g, where: "feature 0", into: &out)
            return out
        case nil: throw HexagonsError("\(path): not a GeoJSON object (no \"type\")")
        default:
            var g = JSONCursor(buf: buf, file: path)
            g.skipByteOrderMark()
            var out: [GeoPolygon] = []
            try geometry(&g, where: "geometry", into: &out)
            return out
        }
    }

    /// One feature's polygons, named "feature N (name)" in errors.
    static func feature(_ c: inout JSONCursor, index: Int) throws -> [GeoPolygon] {
        var name: String?, geometryAt: Int?
        try c.object { c, key in
            switch key {
            case "properties":
                guard try c.peek() == 0x7B else { try c.skip(); return }
                try c.object { c, key in
                    if key == "name", try c.peek() == 0x22 { name = try c.string() } else { try c.skip() }
                }
            case "geometry": c.ws(); geometryAt = c.pos; try c.skip()
            default: try c.skip()
            }
        }
        guard let at = geometryAt else { return [] }
        let end = c.pos
        c.pos = at
        var out: [GeoPolygon] = []
        try geometry(&c, where: name.map { "feature \(index) (\($0))" } ?? "feature \(index)", into: &out)
        c.pos = end
        return out
    }

    /// The polygons of one geometry object (null and non-polygon types give none).
    static func geometry(_ c: inout JSONCursor, where place: String, into out: inout [GeoPolygon]) throws {
        guard try c.peek() == 0x7B else { try c.skip(); return }
        var type: String?, coordinatesAt: Int?, geometriesAt: Int?
        try c.object { c, key in
            switch key {
            case "type": type = try c.string()
            case "coordinates": c.ws(); coordinatesAt = c.pos; try c.skip()
            case "geometries": c.ws(); geometriesAt = c.pos; try c.skip()
            default: try c.skip()
            }
        }
        let end = c.pos
        defer { c.pos = end }
        let file = c.file
        func fail(_ m: String) -> HexagonsError { HexagonsError("\(file): \(place): \(m)") }
        switch type {
        case "Polygon", "MultiPolygon":
            guard let at = coordinatesAt else { throw fail("bad \(type!): no coordinates") }
            c.pos = at
            if type == "Polygon" { out.append(try polygon(&c, fail)) }
            else {
                guard try c.peek() == 0x5B else { throw fail("bad MultiPolygon") }
                try c.array { c in out.append(try polygon(&c, fail)) }
            }
        case "GeometryCollection":
            guard let at = geometriesAt else { return }
            c.pos = at
            guard try c.peek() == 0x5B else { return }
            try c.array { c in try geometry(&c, where: place, into: &out) }
        default: break
        }
    }

    static func polygon(_ c: inout JSONCursor, _ fail: (String) -> HexagonsError) throws -> GeoPolygon {
        guard try c.peek() == 0x5B else { throw fail("polygon has no rings") }
        var rings: [[LatLng]] = []
        try c.array { c in rings.append(try ring(&c, fail)) }
        guard !rings.isEmpty else { throw fail("polygon has no rings") }
        return GeoPolygon(outer: rings[0], holes: Array(rings.dropFirst()))
    }

    static func ring(_ c: inout JSONCursor, _ fail: (String) -> HexagonsError) throws -> [LatLng] {
        guard try c.peek() == 0x5B else { throw fail("ring is not an array") }
        var r: [LatLng] = []
        try c.array { c in
            guard try c.peek() == 0x5B else { throw fail("bad position (not an array)") }
            var xy: [Double] = []
            try c.array { c in
                let v: Double
                do { v = try c.number("position \(r.count)") } catch let m as MalformedFeature { throw fail("bad position: \(m.error.problem)") }
                xy.append(v)
            }
            guard xy.count >= 2 else { throw fail("bad position \(xy)") }
            r.append(LatLng(latDegrees: xy[1], lngDegrees: xy[0]))
        }
        // GeoJSON rings repeat the first position; h3 takes open loops.
        if r.count > 1, r.first == r.last { r.removeLast() }
        guard r.count >= 3 else { throw fail("ring has fewer than 3 distinct positions") }
        return r
    }
}

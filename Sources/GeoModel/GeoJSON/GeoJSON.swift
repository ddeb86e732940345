import Foundation

/// One GeoJSON feature: an optional id, its properties in source order, and its geometry.
public struct Feature: Sendable, Equatable {
    public var id: String?
    public var properties: JSONObject
    public var geometry: Geometry

    public init(id: String?, properties: JSONObject, geometry: Geometry) {
        self.id = id; self.properties = properties; self.geometry = geometry
    }

    public func string(_ key: String) -> String? { properties[key]?.stringValue }
    public func double(_ key: String) -> Double? { properties[key]?.doubleValue }
}

/// Reading and writing GeoJSON FeatureCollections (RFC 7946) with the checks every stage needs.
public enum GeoJSON {
    public struct ReadOptions: Sendable {
        /// Property keys tried, in order, to name a feature in error messages.
        public var nameKeys: [String] = ["name", "NAME", "ADMIN", "NAME_LONG"]
        /// Read only these properties (nil: all). Saves time on wide tables.
        public var keepProperties: Set<String>? = nil
        public init() {}
    }

    /// Reads and validates a FeatureCollection file. Errors name the file and the feature.
    public static func read(path: String, options: ReadOptions = ReadOptions()) throws -> [Feature] {
        // Mapped, not read into an array: the file's pages come from the page cache as the
        // decoders reach them (no zero-filled copy of 12–16 MB first). MappedFile refuses what
        // FileIO.readBytes refuses, with its messages.
        // The mapping lives as long as `file`: kept past the decode, which reads its buffer.
        let file = try MappedFile(path: path)
        return try withExtendedLifetime(file) { try decode(file.buffer, file: path, options: options) }
    }

    /// The features of a FeatureCollection, decoded in parallel by the streaming reader
    /// (`FeatureStream.each`): each feature a tree (`JSONCursor.value`), then checked. The first
    /// problem, in file order, is thrown naming the file and the feature.
    public static func decode(_ bytes: [UInt8], file: String, options: ReadOptions = ReadOptions()) throws -> [Feature] {
        try bytes.withUnsafeBufferPointer { try decode($0, file: file, options: options) }
    }

    /// `decode` of bytes in memory that the caller keeps alive (a `MappedFile`'s).
    public static func decode(_ buf: UnsafeBufferPointer<UInt8>, file: String, options: ReadOptions = ReadOptions()) throws -> [Feature] {
        let keep = options.keepProperties.map { JSONKeyFilter($0.union(structuralKeys)) }
        return try FeatureStream.each(buf, file: file, makeState: { () }) { c, index, _ in
            try feature(&c, index: index, file: file, keep: keep, options: options)
        }.features.map(\.value)
    }

    /// The members every feature keeps, whatever `keepProperties` says.
    static let structuralKeys: Set<String> = ["type", "features", "geometry", "geometries", "coordinates", "properties", "id", "bbox"]

    /// One feature at the cursor. A value the tree refuses (a NaN, coordinates that nest
    /// unevenly) is thrown like every other problem of the feature, naming it as well as the
    /// feature's members can (its id, its name property); never quarantined.
    static func feature(_ c: inout JSONCursor, index: Int, file: String, keep: JSONKeyFilter?, options: ReadOptions) throws -> Feature {
        let start = c.pos, depth = c.depth
        let value: JSONValue
        do { value = try c.value(keep: keep) } catch let m as MalformedFeature {
            c.pos = start; c.depth = depth
            throw InputError(file: file, feature: reference(&c, index: index, options: options), m.error.problem)
        }
        return try decodeFeature(value, index: index, file: file, options: options)
    }

    /// The feature at the cursor named by its id and name property, read leniently (for the
    /// error of a feature whose tree was refused).
    static func reference(_ c: inout JSONCursor, index: Int, options: ReadOptions) -> FeatureRef {
        var id: String? = nil
        var names: [String: String] = [:]
        try? c.object { c, key in
            switch key {
            case "id":
                switch try c.peek() {
                case 0x22: id = try c.string()
                case 0x2D, 0x30...0x39: var w = JSONWriter(); w.number(try c.number("id")); id = w.string
                default: try c.skip()
                }
            case "properties" where (try? c.peek()) == 0x7B:
                try c.object { c, key in
                    if options.nameKeys.contains(key), names[key] == nil, try c.peek() == 0x22 { names[key] = try c.string() } else { try c.skip() }
                }
            default: try c.skip()
            }
        }
        return FeatureRef(index: index, name: options.nameKeys.lazy.compactMap { names[$0] }.first, id: id)
    }

    static func decodeFeature(_ item: JSONValue, index: Int, file: String, options: ReadOptions) throws -> Feature {
        guard case .object(let obj) = item else {
            throw InputError(file: file, feature: FeatureRef(index: index, name: nil), "is a JSON \(item.kindName), not a Feature object")
        }
        var properties = JSONObject()
        if let p = obj["properties"] {
            switch p {
            case .object(let o): properties = o
            case .null: break
            default: throw InputError(file: file, feature: FeatureRef(index: index, name: nil), "\"properties\" is a \(p.kindName), not an object")
            }
        }
        var id: String?
        switch obj["id"] {
        case .string(let s)?: id = s
        case .number(let d)?: var w = JSONWriter(); w.number(d); id = w.string
        case nil, .null?: id = nil
        case let other?: throw InputError(file: file, feature: FeatureRef(index: index, name: nil), "\"id\" is a \(other.kindName); GeoJSON ids are strings or numbers")
        }
        let name = options.nameKeys.lazy.compactMap { properties[$0]?.stringValue }.first
        let ref = FeatureRef(index: index, name: name, id: id)
        guard obj["type"]?.stringValue == "Feature" else {
            throw InputError(file: file, feature: ref, "\"type\" must be \"Feature\", found \(obj["type"].map(describe) ?? "nothing")")
        }
        guard let g = obj["geometry"], !g.isNull else { throw InputError(file: file, feature: ref, "has no geometry") }
        let geometry = try decodeGeometry(g, file: file, ref: ref, options: options)
        return Feature(id: id, properties: properties, geometry: geometry)
    }

    static func describe(_ v: JSONValue) -> String {
        if case .string(let s) = v { return "\"\(s)\"" }
        return "a \(v.kindName)"
    }

    public static func decodeGeometry(_ g: JSONValue, file: String, ref: FeatureRef, options: ReadOptions) throws -> Geometry {
        func fail(_ m: String) -> InputError { InputError(file: file, feature: ref, m) }
        guard case .object(let obj) = g else { throw fail("geometry is a \(g.kindName), not an object") }
        guard let type = obj["type"]?.stringValue else { throw fail("geometry has no \"type\"") }
        let expectedDepth: Int
        switch type {
        case "Point": expectedDepth = 1
        case "Polygon": expectedDepth = 3
        case "MultiPolygon": expectedDepth = 4
        default: throw fail("geometry type \"\(type)\" is not supported here (expected Point, Polygon or MultiPolygon)")
        }
        guard let c = obj["coordinates"] else { throw fail("\(type) has no \"coordinates\"") }
        guard case .coordinates(let tree) = c else { throw fail("\(type) \"coordinates\" is a \(c.kindName), not an array") }
        guard tree.depth == expectedDepth else {
            throw fail("\(type) coordinates are nested \(tree.depth) deep, expected \(expectedDepth)")
        }
        if let bad = tree.shortPositionIndex { throw fail("position \(bad) has fewer than 2 numbers") }
        for (i, p) in tree.positions.enumerated() {
            if abs(p.x) > 180 || abs(p.y) > 90 {  // GeoJSON is lon/lat (RFC 7946)
                throw fail("position \(i) (\(p.x), \(p.y)) is outside longitude [-180, 180] / latitude [-90, 90]")
            }
        }
        if type == "Point" { return .point(tree.positions[0]) }

        // Rebuild polygons from the flat tree.
        var next = 0
        func ring(_ n: Int, polygon: Int, ringIndex: Int) throws -> Ring {
            let r = Array(tree.positions[next..<(next + n)])
            next += n
            let where_ = type == "MultiPolygon" ? "polygon \(polygon) ring \(ringIndex)" : "ring \(ringIndex)"
            guard n >= 4 else { throw fail("\(where_) has \(n) positions; a ring needs at least 4") }
            guard r[0] == r[n - 1] else { throw fail("\(where_) is not closed (first position \(r[0].x),\(r[0].y) differs from last \(r[n - 1].x),\(r[n - 1].y))") }
            return r
        }
        if type == "Polygon" {
            let ringCounts = tree.counts[1]
            guard !ringCounts.isEmpty else { throw fail("Polygon has no rings") }
            return .polygon(Polygon(rings: try ringCounts.enumerated().map { try ring($0.element, polygon: 0, ringIndex: $0.offset) }))
        }
        var polys: [Polygon] = []
        var ringCursor = 0
        for (pi, nRings) in tree.counts[1].enumerated() {
            guard nRings > 0 else { throw fail("polygon \(pi) has no rings") }
            var rings: [Ring] = []
            for ri in 0..<nRings {
                rings.append(try ring(tree.counts[2][ringCursor], polygon: pi, ringIndex: ri))
                ringCursor += 1
            }
            polys.append(Polygon(rings: rings))
        }
        guard !polys.isEmpty else { throw fail("MultiPolygon has no polygons") }
        return .multiPolygon(polys)
    }

    // MARK: writing

    /// A FeatureCollection, one feature per line: readable, diffable and byte-stable.
    /// `members` are extra top-level members written before "features" (for example a
    /// projected file's "crs" note); RFC 7946 allows such foreign members.
    public static func encode(_ features: [Feature], decimals: Int = 6, members: JSONObject = JSONObject()) -> [UInt8] {
        var w = JSONWriter(coordinateDecimals: decimals, reserve: 1 << 20)
        w.raw("{\"type\":\"FeatureCollection\",\n")
        for e in members.entries {
            w.string(e.key); w.raw(":"); w.value(e.value); w.raw(",\n")
        }
        w.raw("\"features\":[\n")
        for (i, f) in features.enumerated() {
            if i > 0 { w.raw(",\n") }
            w.raw("{\"type\":\"Feature\"")
            if let id = f.id { w.raw(",\"id\":"); w.string(id) }
            w.raw(",\"properties\":")
            w.value(.object(f.properties))
            w.raw(",\"geometry\":")
            w.geometry(f.geometry)
            w.raw("}")
        }
        w.raw("\n]}\n")
        return w.bytes
    }

    public static func write(_ features: [Feature], to path: String, decimals: Int = 6, members: JSONObject = JSONObject()) throws {
        try FileIO.writeAtomically(encode(features, decimals: decimals, members: members), to: path)
    }
}

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
        let bytes = try FileIO.readBytes(path)
        return try decode(bytes, file: path, options: options)
    }

    /// The features of a FeatureCollection. The common case — a well-formed file — goes
    /// through the streaming reader: the top-level object is parsed as a whole read would parse
    /// it (other members such as Natural Earth's "name" and "crs" checked and dropped, as the
    /// whole read drops them), while its "features" array is decoded in parallel, byte range by
    /// byte range, in one pass over the bytes (`FeatureStream.featuresArray`). Anything else (a
    /// syntax error, a second "features", a feature that fails a check) is read again whole,
    /// in order, so that the first problem is reported exactly as always.
    public static func decode(_ bytes: [UInt8], file: String, options: ReadOptions = ReadOptions()) throws -> [Feature] {
        if let features = bytes.withUnsafeBufferPointer({ streamed($0, file: file, options: options) }) { return features }
        return try decodeWhole(bytes, file: file, options: options)
    }

    /// nil when the file is not the plain well-formed case (`decode` then reads it whole).
    static func streamed(_ buf: UnsafeBufferPointer<UInt8>, file: String, options: ReadOptions) -> [Feature]? {
        var read: FeatureStream.Read<Feature>? = nil
        let top = try? JSONParser.topLevelObject(buf, keepKeys: options.keepProperties, hooked: "features") { start in
            // A second "features" member: the whole read decides which counts.
            guard read == nil else { throw FeatureStream.ChunkFailed() }
            // Feature values sit two levels down (the collection object, the features array).
            let (got, end) = try FeatureStream.featuresArray(buf, file: file, from: start, makeState: { () }) { c, i, _ -> Feature in
                let (value, end) = try JSONParser.parse(c.buf, from: c.pos, depth: 2, keepKeys: options.keepProperties)
                c.pos = end
                return try decodeFeature(value, index: i, file: file, options: options)
            }
            read = got
            return end
        }
        // (Inside a range `i` counts from the range's first feature: it only names errors, and
        // any error sends the file to the whole-tree reader.)
        guard let top, top["type"]?.stringValue == "FeatureCollection", let read, read.rejected.isEmpty else { return nil }
        return read.features.map(\.value)
    }

    /// The whole file as one JSON tree, then its features in order (the first problem reported).
    static func decodeWhole(_ bytes: [UInt8], file: String, options: ReadOptions) throws -> [Feature] {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes, keepKeys: options.keepProperties) } catch let e as JSONSyntaxError {
            throw InputError(file: file, e.description)
        }
        guard case .object(let top) = root else {
            throw InputError(file: file, "the top level is a JSON \(root.kindName), not a GeoJSON FeatureCollection object")
        }
        guard let type = top["type"]?.stringValue else {
            throw InputError(file: file, "the top-level object has no \"type\" (expected \"FeatureCollection\")")
        }
        guard type == "FeatureCollection" else {
            throw InputError(file: file, "the top-level type is \"\(type)\", expected \"FeatureCollection\"")
        }
        guard let featuresValue = top["features"] else { throw InputError(file: file, "the FeatureCollection has no \"features\" array") }
        guard case .array(let items) = featuresValue else {
            throw InputError(file: file, "\"features\" is a JSON \(featuresValue.kindName), not an array")
        }
        var features: [Feature] = []
        features.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            features.append(try decodeFeature(item, index: index, file: file, options: options))
        }
        return features
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
        if let key = firstNonFinite(.object(properties)) {
            throw InputError(file: file, feature: ref, "property \"\(key)\" holds a non-finite number (NaN, Infinity or out of range)")
        }
        guard obj["type"]?.stringValue == "Feature" else {
            throw InputError(file: file, feature: ref, "\"type\" must be \"Feature\", found \(obj["type"].map(describe) ?? "nothing")")
        }
        guard let g = obj["geometry"], !g.isNull else { throw InputError(file: file, feature: ref, "has no geometry") }
        let geometry = try decodeGeometry(g, file: file, ref: ref, options: options)
        return Feature(id: id, properties: properties, geometry: geometry)
    }

    /// The key path of the first NaN or infinite number in a JSON value, if any.
    static func firstNonFinite(_ v: JSONValue, path: String = "") -> String? {
        switch v {
        case .number(let d): return d.isFinite ? nil : path
        case .array(let a):
            for (i, x) in a.enumerated() { if let p = firstNonFinite(x, path: "\(path)[\(i)]") { return p } }
            return nil
        case .object(let o):
            for e in o.entries { if let p = firstNonFinite(e.value, path: path.isEmpty ? e.key : "\(path).\(e.key)") { return p } }
            return nil
        default: return nil
        }
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
            if !p.x.isFinite || !p.y.isFinite {
                throw fail("position \(i) is not a finite number (\(p.x), \(p.y))")
            }
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

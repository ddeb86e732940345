// A small JSON model that keeps object key order (so properties round-trip in their
// source order and outputs are byte-stable) and stores GeoJSON coordinate arrays compactly.

import Geodesy

public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
    /// A nested array of numbers found under a `coordinates` key, kept flat for speed.
    case coordinates(CoordinateTree)

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var doubleValue: Double? {
        if case .number(let d) = self { return d }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The JSON type's name, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array, .coordinates: return "array"
        case .object: return "object"
        }
    }
}

/// An ordered JSON object. Lookups are linear: GeoJSON objects are small, and order matters
/// more here than constant-time access.
public struct JSONObject: Hashable, Sendable, Sequence {
    public private(set) var entries: [(key: String, value: JSONValue)]

    public init() { entries = [] }
    public init(_ entries: [(String, JSONValue)]) { self.entries = entries.map { (key: $0.0, value: $0.1) } }

    public subscript(key: String) -> JSONValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let i = entries.firstIndex(where: { $0.key == key }) {
                if let v = newValue { entries[i].value = v } else { entries.remove(at: i) }
            } else if let v = newValue {
                entries.append((key: key, value: v))
            }
        }
    }

    public var keys: [String] { entries.map(\.key) }
    public var count: Int { entries.count }
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { entries.makeIterator() }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.entries.count == b.entries.count
            && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
    public func hash(into h: inout Hasher) {
        for e in entries { h.combine(e.key); h.combine(e.value) }
    }
}

/// A nested array whose leaves are numbers, e.g. a MultiPolygon's `[[[[x, y], …]]]`.
/// `depth` counts the array levels (1 for a position). `positions` holds the innermost arrays
/// (each must have at least two numbers; extra dimensions are dropped). `counts[k]` lists, for
/// level k (0 = outermost), how many children each array at that level has.
public struct CoordinateTree: Hashable, Sendable {
    public var depth: Int
    public var positions: [Point]
    public var counts: [[Int]]
    /// Index in `positions` of a position that was not at least [x, y], if any.
    public var shortPositionIndex: Int?

    public init(depth: Int, positions: [Point], counts: [[Int]], shortPositionIndex: Int? = nil) {
        self.depth = depth; self.positions = positions; self.counts = counts
        self.shortPositionIndex = shortPositionIndex
    }
}

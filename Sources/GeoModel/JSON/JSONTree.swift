import Foundation
import Geodesy

extension JSONValue {
    /// A whole JSON document as a tree, read by the one tokenizer (`JSONCursor`, its rule).
    /// Every array under a geometry's `coordinates` key is read straight into a flat
    /// `CoordinateTree`. Errors name the file, and for bad JSON the line and column.
    public static func parse(_ bytes: [UInt8], file: String) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buf in
            var c = JSONCursor(buf: buf, file: file)
            c.skipByteOrderMark()
            do {
                let v = try c.value()
                c.ws()
                guard c.pos == buf.count else { throw c.syntax("unexpected characters after the top-level value") }
                return v
            } catch let m as MalformedFeature { throw m.error }
        }
    }

    /// A JSON text (tests, small documents); errors name it "JSON text".
    public static func parse(_ text: String) throws -> JSONValue { try parse(Array(text.utf8), file: "JSON text") }
}

/// Object keys a tree keeps (the others are skipped, their syntax still checked): the
/// populated places carry 102 properties of which a stage needs a handful.
public struct JSONKeyFilter: Sendable {
    public let keys: Set<String>
    /// The keys' bytes, to refuse a key without building its String.
    let bytes: [[UInt8]]
    /// Each key's length, first and last byte in one number (`signature`): most keys not kept
    /// are refused by comparing these alone.
    let signatures: [UInt64]
    public init(_ keys: Set<String>) {
        self.keys = keys
        bytes = keys.sorted().map { Array($0.utf8) }
        signatures = bytes.map { Self.signature(length: $0.count, first: $0.first ?? 0, last: $0.last ?? 0) }
    }

    @inline(__always) static func signature(length: Int, first: UInt8, last: UInt8) -> UInt64 {
        UInt64(truncatingIfNeeded: length) << 16 | UInt64(first) << 8 | UInt64(last)
    }
}

extension JSONCursor {
    /// The value at the cursor as a tree. `keep`: only these object members are read (at every
    /// level). `inGeometry`: the value is a GeoJSON geometry's (or geometries'), where a
    /// `coordinates` array is read as a `CoordinateTree` (a property may be called coordinates
    /// too). `path` names the value in errors ("properties.POP.est[1]"; "" at the top).
    public mutating func value(keep: JSONKeyFilter? = nil, inGeometry: Bool = false, path: () -> String = { "" }) throws -> JSONValue {
        let c = try peek()
        switch c {
        case 0x7B:
            try enter()
            var entries: [(String, JSONValue)] = []
            if closesAtOnce(0x7D) { return .object(JSONObject(entries)) }
            repeat {
                try keyStart()
                if let keep, let end = unwantedKeyEnd(keep) {
                    // A key not kept: step over it and its value without building Strings.
                    pos = end
                    try colon()
                    try skip()
                    continue
                }
                let key = try string()
                try colon()
                if let keep, !keep.keys.contains(key) { try skip(); continue }
                if key == "coordinates", inGeometry, try peek() == 0x5B {
                    entries.append((key, .coordinates(try coordinateTree())))
                } else {
                    // (The path closure is an argument, so it is not escaping and costs no allocation.)
                    entries.append((key, try value(keep: keep, inGeometry: key == "geometry" || key == "geometries",
                                                   path: { let p = path(); return p.isEmpty ? key : p + "." + key })))
                }
            } while try next(closing: 0x7D)
            return .object(JSONObject(entries))
        case 0x5B:
            try enter()
            var items: [JSONValue] = []
            if closesAtOnce(0x5D) { return .array(items) }
            repeat {
                let i = items.count
                items.append(try value(keep: keep, inGeometry: inGeometry, path: { "\(path())[\(i)]" }))
            } while try next(closing: 0x5D)
            return .array(items)
        case 0x22: return .string(try string())
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        case 0x2D, 0x30...0x39, 0x4E, 0x49:
            return .number(try number({ let p = path(); return p.isEmpty ? "the value" : p }()))
        default:
            throw syntax("unexpected character '\(Self.printable(c))'")
        }
    }

    /// With a key filter: if the key at `pos` (a plain key without escapes) is not kept, the
    /// position just after its closing quote; nil when it is kept or needs full reading.
    func unwantedKeyEnd(_ keep: JSONKeyFilter) -> Int? {
        var i = pos + 1
        while i < buf.count {
            let c = buf[i]
            if c == 0x22 { break }
            if c == 0x5C || c < 0x20 { return nil }
            i += 1
        }
        guard i < buf.count else { return nil }
        // Byte loops, not elementsEqual: this runs for every member of every skipped
        // properties object (a fifth of the populated places' read went to the generic one).
        let start = pos + 1, length = i - start
        let signature = length == 0 ? JSONKeyFilter.signature(length: 0, first: 0, last: 0)
                                    : JSONKeyFilter.signature(length: length, first: buf[start], last: buf[i - 1])
        for (n, s) in keep.signatures.enumerated() where s == signature {
            let same = keep.bytes[n].withUnsafeBufferPointer { kb -> Bool in
                var j = 0
                while j < length && kb[j] == buf[start + j] { j += 1 }
                return j == length
            }
            if same { return nil }
        }
        return i + 1
    }

    // MARK: coordinates

    /// A nested array of numbers (a geometry's coordinates) as a flat tree. A coordinate that is
    /// not a finite number, or arrays that nest unevenly, make the feature malformed (`reject`).
    mutating func coordinateTree() throws -> CoordinateTree {
        // The depth is the number of '[' before the first number (or the first ']').
        var levels = 0
        var j = pos
        while j < buf.count {
            let c = buf[j]
            if c == 0x5B { levels += 1 } else if !(c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09) { break }
            j += 1
        }
        guard levels <= 8 else { throw reject("coordinates nested \(levels) levels deep (GeoJSON uses at most 4)") }
        guard depth + levels <= Self.maximumDepth else { throw syntax("nesting deeper than \(Self.maximumDepth) levels") }
        var tree = CoordinateTree(depth: levels, positions: [], counts: Array(repeating: [], count: max(levels - 1, 0)))
        tree.positions.reserveCapacity(64)
        try coordinateLevel(1, &tree)
        return tree
    }

    mutating func coordinateLevel(_ level: Int, _ tree: inout CoordinateTree) throws {
        guard try peek() == 0x5B else {
            throw reject("coordinates nest unevenly: expected '[' at depth \(level) of \(tree.depth)")
        }
        if level == tree.depth, let p = plainPosition() {
            tree.positions.append(p)
            return
        }
        try enter()
        if level == tree.depth {
            // A position: two or more numbers.
            var values: (Double, Double) = (0, 0)
            var n = 0
            if closesAtOnce(0x5D) {
                tree.shortPositionIndex = tree.shortPositionIndex ?? tree.positions.count
                tree.positions.append(Point(.nan, .nan))
                return
            }
            repeat {
                let c = try peek()
                guard c == 0x2D || (c >= 0x30 && c <= 0x39) || c == 0x4E || c == 0x49 else {
                    throw reject(c == 0x5B ? "coordinates nest unevenly: a position holds an array"
                                           : "a coordinate must be a number, found '\(Self.printable(c))'")
                }
                let v = try number("position \(tree.positions.count)")
                if n == 0 { values.0 = v } else if n == 1 { values.1 = v }
                n += 1
            } while try next(closing: 0x5D)
            if n < 2 { tree.shortPositionIndex = tree.shortPositionIndex ?? tree.positions.count }
            tree.positions.append(Point(values.0, n < 2 ? .nan : values.1))
            return
        }
        var children = 0
        if closesAtOnce(0x5D) { tree.counts[level - 1].append(0); return }
        while true {
            try coordinateLevel(level + 1, &tree)
            children += 1
            ws()
            if pos < buf.count, buf[pos] == 0x2D || (buf[pos] >= 0x30 && buf[pos] <= 0x39) {
                throw reject("coordinates nest unevenly: a number where an array was expected")
            }
            if try !next(closing: 0x5D) { break }
        }
        tree.counts[level - 1].append(children)
    }

    /// The common position, "[x,y]" with two plain decimals (`plainDecimal`) and white space
    /// anywhere between, read in one pass from the '[' at the cursor; nil (the cursor unmoved)
    /// for anything else, which `coordinateLevel`'s general path then reads with every check.
    /// (The depth stays as it was: the position's bracket opens and closes here, and
    /// `coordinateTree` checked the depth of its deepest level beforehand.)
    @inline(__always) mutating func plainPosition() -> Point? {
        var i = Self.afterWhiteSpace(buf, pos + 1)
        guard let x = Self.plainDecimal(buf, &i) else { return nil }
        i = Self.afterWhiteSpace(buf, i)
        guard i < buf.count, buf[i] == 0x2C else { return nil }
        i = Self.afterWhiteSpace(buf, i + 1)
        guard let y = Self.plainDecimal(buf, &i) else { return nil }
        i = Self.afterWhiteSpace(buf, i)
        guard i < buf.count, buf[i] == 0x5D else { return nil }
        pos = i + 1
        return Point(x, y)
    }

    @inline(__always) static func afterWhiteSpace(_ buf: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        var i = from
        while i < buf.count {
            let c = buf[i]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { break }
            i += 1
        }
        return i
    }

    /// A number of the form -?digits(.digits)? with at most 15 digits in all and no leading zero,
    /// at `i` (moved past it), or nil. `number` reads such a text through its exact path
    /// (mantissa below 10^15, one division by 10^places), which this repeats, so the value is
    /// the same double; everything else (exponents, long mantissas, NaN, errors) is left to it.
    @inline(__always) static func plainDecimal(_ buf: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Double? {
        var k = i
        let end = buf.count
        guard k < end else { return nil }
        let neg = buf[k] == 0x2D
        if neg { k += 1 }
        let whole = k
        var mant: UInt64 = 0
        while k < end {
            let d = buf[k] &- 0x30
            guard d < 10 else { break }
            mant = mant &* 10 &+ UInt64(d)
            k += 1
        }
        let wholeDigits = k - whole
        guard wholeDigits > 0, wholeDigits == 1 || buf[whole] != 0x30 else { return nil }
        var places = 0
        if k < end && buf[k] == 0x2E {
            k += 1
            let fraction = k
            while k < end {
                let d = buf[k] &- 0x30
                guard d < 10 else { break }
                mant = mant &* 10 &+ UInt64(d)
                k += 1
            }
            places = k - fraction
            guard places > 0 else { return nil }
        }
        guard wholeDigits + places <= 15, k == end || buf[k] | 0x20 != 0x65 else { return nil }
        i = k
        var v = Double(mant)
        v = places > 0 ? v / PowersOfTen.exact(places) : v * PowersOfTen.exact(0)
        return neg ? -v : v
    }
}

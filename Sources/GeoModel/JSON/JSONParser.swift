import Foundation
import Geodesy

/// A JSON syntax error with the place it was found (1-based line and column).
public struct JSONSyntaxError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var line: Int
    public var column: Int
    public var description: String { "invalid JSON at line \(line), column \(column): \(message)" }
}

/// A byte-level JSON parser. Foundation's JSONSerialization builds NSNumber/NSDictionary trees
/// and is several times slower on Linux; this one parses the 16 MB Natural Earth file in a
/// fraction of a second, and reads every array under a `coordinates` key straight into a
/// flat `CoordinateTree`.
public struct JSONParser {
    /// Nesting deeper than this is refused (a hostile file must not overflow the stack).
    public static let maximumDepth = 512

    /// `keepKeys`: when given, object members whose key is neither in it nor a GeoJSON
    /// structural key are skipped without building values (the populated places carry 102
    /// properties of which a stage needs a handful). Skipped values are still checked for syntax.
    public static func parse(_ data: [UInt8], keepKeys: Set<String>? = nil) throws -> JSONValue {
        try data.withUnsafeBufferPointer { buf in
            var p = Cursor(buf: buf, keep: keepKeys.map { $0.union(structuralKeys) })
            if JSONCursor.hasByteOrderMark(buf) { p.pos = 3 }
            p.skipWhitespace()
            let v = try p.parseValue(depth: 0)
            p.skipWhitespace()
            if p.pos != buf.count { throw p.error("unexpected characters after the top-level value") }
            return v
        }
    }

    public static func parse(_ text: String) throws -> JSONValue { try parse(Array(text.utf8)) }

    /// One value starting at `start` of a larger document (a feature of a FeatureCollection),
    /// as parsing the whole document would give it: nested `depth` levels down, the same keys
    /// kept; and the position just after it. An error's line and column are the document's.
    static func parse(_ buf: UnsafeBufferPointer<UInt8>, from start: Int, depth: Int, keepKeys: Set<String>?) throws -> (JSONValue, Int) {
        var p = Cursor(buf: buf, keep: keepKeys.map { $0.union(structuralKeys) })
        p.pos = start
        let v = try p.parseValue(depth: depth)
        return (v, p.pos)
    }

    /// The top-level object of a document exactly as `parse` reads it (the same syntax checks,
    /// the same keys kept), except that the value of each member named `hooked` is read by
    /// `read` — given the position of the value's first byte, it returns the position just after
    /// the value — and stands in the object as null. nil when the top level is not an object.
    /// (The streaming GeoJSON reader hands the "features" array to its parallel decoder this
    /// way, so that every other top-level member is parsed and checked as a whole read would.)
    static func topLevelObject(_ buf: UnsafeBufferPointer<UInt8>, keepKeys: Set<String>?, hooked: String,
                               read: (Int) throws -> Int) throws -> JSONObject? {
        try withoutActuallyEscaping(read) { read in
            var p = Cursor(buf: buf, keep: keepKeys.map { $0.union(structuralKeys) })
            p.hook = (hooked, read)
            if JSONCursor.hasByteOrderMark(buf) { p.pos = 3 }
            p.skipWhitespace()
            guard p.peek() == UInt8(ascii: "{") else { return nil }
            guard case .object(let top) = try p.parseValue(depth: 0) else { return nil }
            p.skipWhitespace()
            if p.pos != buf.count { throw p.error("unexpected characters after the top-level value") }
            return top
        }
    }

    static let structuralKeys: Set<String> = ["type", "features", "geometry", "geometries", "coordinates", "properties", "id", "bbox"]

    struct Cursor {
        let buf: UnsafeBufferPointer<UInt8>
        var keep: Set<String>? = nil {
            didSet { keepBytes = keep.map { $0.sorted().map { Array($0.utf8) } } ?? [] }
        }
        var keepBytes: [[UInt8]] = []
        var pos = 0
        /// True while parsing the value of a "geometry"/"geometries" member: only there is a
        /// "coordinates" array read as a CoordinateTree (a property may be called coordinates too).
        var inGeometry = false
        /// A top-level member whose value another reader reads (`topLevelObject`).
        var hook: (key: String, read: (Int) throws -> Int)? = nil

        init(buf: UnsafeBufferPointer<UInt8>, keep: Set<String>? = nil) {
            self.buf = buf
            self.keep = keep
            self.keepBytes = keep.map { $0.sorted().map { Array($0.utf8) } } ?? []
        }

        func error(_ message: String) -> JSONSyntaxError {
            var line = 1, col = 1
            var i = 0
            let end = min(pos, buf.count)
            while i < end {
                if buf[i] == 0x0A { line += 1; col = 1 } else { col += 1 }
                i += 1
            }
            return JSONSyntaxError(message: message, line: line, column: col)
        }

        @inline(__always) mutating func skipWhitespace() {
            while pos < buf.count {
                let c = buf[pos]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { return }
            }
        }

        @inline(__always) func peek() -> UInt8? { pos < buf.count ? buf[pos] : nil }

        mutating func expect(_ c: UInt8, _ what: String) throws {
            skipWhitespace()
            guard pos < buf.count else { throw error("file ends early: expected \(what)") }
            guard buf[pos] == c else { throw error("expected \(what), found '\(printable(buf[pos]))'") }
            pos += 1
        }

        func printable(_ c: UInt8) -> String {
            c >= 0x20 && c < 0x7F ? String(UnicodeScalar(c)) : String(format: "\\x%02X", c)
        }

        mutating func parseValue(depth: Int) throws -> JSONValue {
            guard depth < JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
            skipWhitespace()
            guard let c = peek() else { throw error("file ends early: expected a value") }
            switch c {
            case UInt8(ascii: "{"): return try parseObject(depth: depth)
            case UInt8(ascii: "["): return try parseArray(depth: depth)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "N"), UInt8(ascii: "I"):
                return .number(try parseNumber())
            default:
                throw error("unexpected character '\(printable(c))'")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let n = word.utf8CodeUnitCount
            guard pos + n <= buf.count else { throw error("file ends early inside a literal") }
            for i in 0..<n where buf[pos + i] != word.utf8Start[i] {
                throw error("unexpected characters (expected '\(word)')")
            }
            pos += n
        }

        mutating func parseObject(depth: Int) throws -> JSONValue {
            pos += 1
            var entries: [(String, JSONValue)] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { pos += 1; return .object(JSONObject(entries)) }
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else {
                    if pos >= buf.count { throw error("file ends early inside an object") }
                    throw error("expected a quoted key, found '\(printable(buf[pos]))'")
                }
                if keep != nil, let end = unwantedKeyEnd() {
                    // A key we do not keep: step over it and its value without building Strings.
                    pos = end
                    try expect(UInt8(ascii: ":"), "':' after a key")
                    try skipValue(depth: depth + 1)
                    if try nextMember() { continue }
                    return .object(JSONObject(entries))
                }
                let key = try parseString()
                try expect(UInt8(ascii: ":"), "':' after key \"\(key)\"")
                skipWhitespace()
                let value: JSONValue
                if depth == 0, let hook, key == hook.key {
                    pos = try hook.read(pos)
                    entries.append((key, .null))
                    if try nextMember() { continue }
                    return .object(JSONObject(entries))
                }
                if let keep, !keep.contains(key) {
                    try skipValue(depth: depth + 1)
                    if try nextMember() { continue }
                    return .object(JSONObject(entries))
                }
                if key == "coordinates" && inGeometry && peek() == UInt8(ascii: "[") {
                    value = .coordinates(try parseCoordinateTree())
                } else {
                    let outer = inGeometry
                    inGeometry = key == "geometry" || key == "geometries"
                    value = try parseValue(depth: depth + 1)
                    inGeometry = outer
                }
                entries.append((key, value))
                if try !nextMember() { return .object(JSONObject(entries)) }
            }
        }

        /// After an object member: true at ',' (another member follows), false at '}'.
        mutating func nextMember() throws -> Bool {
            skipWhitespace()
            guard let c = peek() else { throw error("file ends early inside an object") }
            pos += 1
            if c == UInt8(ascii: "}") { return false }
            if c != UInt8(ascii: ",") { pos -= 1; throw error("expected ',' or '}' in an object, found '\(printable(c))'") }
            return true
        }

        mutating func parseArray(depth: Int) throws -> JSONValue {
            pos += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { pos += 1; return .array(items) }
            while true {
                items.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard let c = peek() else { throw error("file ends early inside an array") }
                pos += 1
                if c == UInt8(ascii: "]") { return .array(items) }
                if c != UInt8(ascii: ",") { pos -= 1; throw error("expected ',' or ']' in an array, found '\(printable(c))'") }
            }
        }

        /// With a key filter: if the key at `pos` (a plain key without escapes) is not kept,
        /// the position just after its closing quote; nil when it is kept or needs full parsing.
        func unwantedKeyEnd() -> Int? {
            var i = pos + 1
            while i < buf.count {
                let c = buf[i]
                if c == UInt8(ascii: "\"") { break }
                if c == UInt8(ascii: "\\") || c < 0x20 { return nil }
                i += 1
            }
            guard i < buf.count else { return nil }
            // Byte loops, not elementsEqual: this runs for every member of every skipped
            // properties object (a fifth of the populated places' parse went to the generic one).
            let start = pos + 1, length = i - start
            for k in keepBytes where k.count == length {
                let same = k.withUnsafeBufferPointer { kb -> Bool in
                    var j = 0
                    while j < length && kb[j] == buf[start + j] { j += 1 }
                    return j == length
                }
                if same { return nil }
            }
            return i + 1
        }

        /// Steps over one value, checking its syntax but building nothing.
        mutating func skipValue(depth: Int) throws {
            guard depth < JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
            skipWhitespace()
            guard let c = peek() else { throw error("file ends early: expected a value") }
            switch c {
            case UInt8(ascii: "\""):
                pos += 1
                while pos < buf.count {
                    let d = buf[pos]
                    if d == UInt8(ascii: "\"") { pos += 1; return }
                    if d == UInt8(ascii: "\\") { pos += 2; continue }
                    if d < 0x20 { throw error("a control character inside a string") }
                    pos += 1
                }
                throw error("file ends early inside a string")
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = c == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                pos += 1
                skipWhitespace()
                if peek() == close { pos += 1; return }
                while true {
                    if close == UInt8(ascii: "}") {
                        skipWhitespace()
                        guard peek() == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
                        try skipValue(depth: depth + 1)
                        try expect(UInt8(ascii: ":"), "':' after a key")
                    }
                    try skipValue(depth: depth + 1)
                    skipWhitespace()
                    guard let d = peek() else { throw error("file ends early") }
                    pos += 1
                    if d == close { return }
                    if d != UInt8(ascii: ",") { pos -= 1; throw error("expected ',' or '\(printable(close))', found '\(printable(d))'") }
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try skipNumber()
            default:
                _ = try parseValue(depth: depth)
            }
        }

        /// Steps over a number with exactly `parseNumber`'s syntax checks and messages, without
        /// computing its value (skipped properties are mostly numbers).
        mutating func skipNumber() throws {
            let start = pos
            if buf[pos] == UInt8(ascii: "-") { pos += 1 }
            if pos < buf.count && (buf[pos] == UInt8(ascii: "N") || buf[pos] == UInt8(ascii: "I")) {
                pos = start; _ = try parseNumber(); return
            }
            let intStart = pos
            while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 { pos += 1 }
            if pos == intStart { throw error("a number needs digits") }
            if pos - intStart > 1 && buf[intStart] == 0x30 { throw error("a number may not start with 0") }
            if pos < buf.count && buf[pos] == UInt8(ascii: ".") {
                pos += 1
                let fracStart = pos
                while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 { pos += 1 }
                if pos == fracStart { throw error("a number needs digits after '.'") }
            }
            if pos < buf.count && (buf[pos] == UInt8(ascii: "e") || buf[pos] == UInt8(ascii: "E")) {
                pos += 1
                if pos < buf.count && (buf[pos] == UInt8(ascii: "+") || buf[pos] == UInt8(ascii: "-")) { pos += 1 }
                let expStart = pos
                while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 { pos += 1 }
                if pos == expStart { throw error("a number needs digits in its exponent") }
            }
        }

        // MARK: coordinates

        mutating func parseCoordinateTree() throws -> CoordinateTree {
            // The depth is the number of '[' before the first number (or the first ']').
            var depth = 0
            var j = pos
            while j < buf.count {
                let c = buf[j]
                if c == UInt8(ascii: "[") { depth += 1 } else if !(c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09) { break }
                j += 1
            }
            guard depth <= 8 else { throw error("coordinates nested \(depth) levels deep (GeoJSON uses at most 4)") }
            var tree = CoordinateTree(depth: depth, positions: [], counts: Array(repeating: [], count: max(depth - 1, 0)))
            tree.positions.reserveCapacity(64)
            try parseCoordinateLevel(1, &tree)
            return tree
        }

        mutating func parseCoordinateLevel(_ level: Int, _ tree: inout CoordinateTree) throws {
            skipWhitespace()
            guard peek() == UInt8(ascii: "[") else {
                throw error("coordinates nest unevenly: expected '[' at depth \(level) of \(tree.depth)")
            }
            pos += 1
            if level == tree.depth {
                // A position: two or more numbers.
                var values: (Double, Double) = (0, 0)
                var n = 0
                skipWhitespace()
                if peek() == UInt8(ascii: "]") { pos += 1; tree.shortPositionIndex = tree.shortPositionIndex ?? tree.positions.count; tree.positions.append(Point(.nan, .nan)); return }
                while true {
                    skipWhitespace()
                    guard let c = peek() else { throw error("file ends early inside coordinates") }
                    guard c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "N") || c == UInt8(ascii: "I") else {
                        throw error(c == UInt8(ascii: "[") ? "coordinates nest unevenly: a position holds an array"
                                                          : "a coordinate must be a number, found '\(printable(c))'")
                    }
                    let v = try parseNumber()
                    if n == 0 { values.0 = v } else if n == 1 { values.1 = v }
                    n += 1
                    skipWhitespace()
                    guard let d = peek() else { throw error("file ends early inside coordinates") }
                    pos += 1
                    if d == UInt8(ascii: "]") { break }
                    if d != UInt8(ascii: ",") { pos -= 1; throw error("expected ',' or ']' in a position, found '\(printable(d))'") }
                }
                if n < 2 { tree.shortPositionIndex = tree.shortPositionIndex ?? tree.positions.count }
                tree.positions.append(Point(values.0, n < 2 ? .nan : values.1))
                return
            }
            var children = 0
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                pos += 1
                tree.counts[level - 1].append(0)
                return
            }
            while true {
                try parseCoordinateLevel(level + 1, &tree)
                children += 1
                skipWhitespace()
                guard let c = peek() else { throw error("file ends early inside coordinates") }
                pos += 1
                if c == UInt8(ascii: "]") { break }
                if c != UInt8(ascii: ",") {
                    pos -= 1
                    throw error(c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") || c == UInt8(ascii: "-")
                                ? "coordinates nest unevenly: a number where an array was expected"
                                : "expected ',' or ']' in coordinates, found '\(printable(c))'")
                }
            }
            tree.counts[level - 1].append(children)
        }

        // MARK: scalars

        /// Parses a JSON number. Simple decimals (up to 15 significant digits, exponent within
        /// ±22) take Clinger's exact fast path; anything else goes through strtod. The tokens
        /// NaN, Infinity and -Infinity (written by some tools) are accepted here so that the
        /// GeoJSON layer can reject them with the feature's name rather than a syntax error.
        mutating func parseNumber() throws -> Double {
            let start = pos
            var negative = false
            if buf[pos] == UInt8(ascii: "-") { negative = true; pos += 1 }
            if pos < buf.count && buf[pos] == UInt8(ascii: "N") { try literal("NaN"); return .nan }
            if pos < buf.count && buf[pos] == UInt8(ascii: "I") { try literal("Infinity"); return negative ? -.infinity : .infinity }
            var mantissa: UInt64 = 0
            var digits = 0
            var fractionDigits = 0
            let intStart = pos
            while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(buf[pos] - 0x30) }
                if mantissa != 0 { digits += 1 }
                pos += 1
            }
            if pos == intStart { throw error("a number needs digits") }
            if pos - intStart > 1 && buf[intStart] == 0x30 { throw error("a number may not start with 0") }
            if pos < buf.count && buf[pos] == UInt8(ascii: ".") {
                pos += 1
                let fracStart = pos
                while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 {
                    if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(buf[pos] - 0x30); fractionDigits += 1 }
                    if mantissa != 0 { digits += 1 }
                    pos += 1
                }
                if pos == fracStart { throw error("a number needs digits after '.'") }
            }
            var exponent = 0
            if pos < buf.count && (buf[pos] == UInt8(ascii: "e") || buf[pos] == UInt8(ascii: "E")) {
                pos += 1
                var expNegative = false
                if pos < buf.count && (buf[pos] == UInt8(ascii: "+") || buf[pos] == UInt8(ascii: "-")) {
                    expNegative = buf[pos] == UInt8(ascii: "-"); pos += 1
                }
                let expStart = pos
                while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 {
                    if exponent < 100_000 { exponent = exponent * 10 + Int(buf[pos] - 0x30) }
                    pos += 1
                }
                if pos == expStart { throw error("a number needs digits in its exponent") }
                if expNegative { exponent = -exponent }
            }
            let scale = exponent - fractionDigits
            if digits <= 15 && abs(scale) <= 22 {
                var v = Double(mantissa)
                if scale < 0 { v /= PowersOfTen.table[-scale] } else if scale > 0 { v *= PowersOfTen.table[scale] }
                return negative ? -v : v
            }
            // Slow path: let the C library round it.
            var text = [CChar](repeating: 0, count: pos - start + 1)
            for i in start..<pos { text[i - start] = CChar(bitPattern: buf[i]) }
            return strtod(text, nil)
        }

        mutating func parseString() throws -> String {
            pos += 1  // opening quote
            let start = pos
            // Fast path: no escapes.
            while pos < buf.count {
                let c = buf[pos]
                if c == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: buf[start..<pos])
                    pos += 1
                    guard let s = String(validating: slice, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
                    return s
                }
                if c == UInt8(ascii: "\\") { break }
                if c < 0x20 { throw error("a control character inside a string") }
                pos += 1
            }
            var bytes = Array(buf[start..<pos])
            while pos < buf.count {
                let c = buf[pos]
                if c == UInt8(ascii: "\"") {
                    pos += 1
                    guard let s = String(validating: bytes, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
                    return s
                }
                if c < 0x20 { throw error("a control character inside a string") }
                if c != UInt8(ascii: "\\") { bytes.append(c); pos += 1; continue }
                pos += 1
                guard pos < buf.count else { break }
                let e = buf[pos]
                pos += 1
                switch e {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "/"): bytes.append(0x2F)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard pos + 1 < buf.count, buf[pos] == UInt8(ascii: "\\"), buf[pos + 1] == UInt8(ascii: "u") else {
                            throw error("an unpaired UTF-16 surrogate in a \\u escape")
                        }
                        pos += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("an unpaired UTF-16 surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("an unpaired UTF-16 surrogate in a \\u escape")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
                    bytes.append(contentsOf: Array(String(Character(u)).utf8))
                default:
                    pos -= 1
                    throw error("an invalid escape '\\\(printable(e))' in a string")
                }
            }
            throw error("file ends early inside a string")
        }

        mutating func hex4() throws -> UInt32 {
            guard pos + 4 <= buf.count else { throw error("file ends early inside a \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = buf[pos]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: throw error("an invalid \\u escape")
                }
                v = v * 16 + d
                pos += 1
            }
            return v
        }
    }
}

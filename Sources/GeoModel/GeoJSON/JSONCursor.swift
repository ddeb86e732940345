import Foundation

/// The one JSON tokenizer (as tippecanoe has jsonpull). Every reader of JSON in the package is
/// built on it: the tree (`JSONValue.parse`), GeoJSON's features (`FeatureStream`, `GeoJSON`) and
/// the typed decoders a stage writes (Territory's runs): the caller walks the structure it
/// expects — `object`, `array`, `string`, `number`, `skip` — and decodes straight into its own
/// types. Errors name the file, the feature being decoded (`featureIndex`, `featureID`) and,
/// for bad JSON, the line and column.
///
/// One rule, RFC 8259 plus the byte-order mark, whoever reads:
/// - a document may start with a UTF-8 byte-order mark (`hasByteOrderMark`), which is skipped;
/// - numbers are RFC 8259's: no leading zeros ("007"), no "+", digits after "." and in an
///   exponent, and finite as a double (1e400 is refused when read);
/// - NaN, Infinity and -Infinity are not JSON. Some writers emit them anyway, so they are known
///   as tokens: reading one as a value is refused naming the value (`reject`: the feature is
///   malformed, the file around it is not, so a reader can quarantine that feature), and
///   `skip` steps over one nobody reads;
/// - at most `maximumDepth` arrays and objects are open at once (a hostile file must not
///   overflow the stack);
/// - strings are UTF-8 and hold no control characters and only RFC 8259's escapes, with
///   UTF-16 surrogates in pairs.
///
/// The methods a decoder calls per value are `@inlinable`: a stage's decoder (Territory's runs,
/// millions of numbers a night) is compiled in its own module and must not pay a call for each.
public struct JSONCursor {
    /// Arrays and objects open at once, at most.
    public static let maximumDepth = 512

    public let buf: UnsafeBufferPointer<UInt8>
    public let file: String
    public var pos = 0
    /// Arrays and objects open around the cursor (a feature of a FeatureCollection is at 2).
    public var depth = 0
    /// The feature being decoded and its id, for errors.
    public var featureIndex: Int? = nil
    public var featureID: String? = nil

    public init(buf: UnsafeBufferPointer<UInt8>, file: String) { self.buf = buf; self.file = file }

    /// Whether the file starts with a UTF-8 byte-order mark (3 bytes), which RFC 8259 §8.1 lets
    /// a parser ignore (some Windows tools write one): its JSON then starts at byte 3.
    @inlinable public static func hasByteOrderMark(_ buf: UnsafeBufferPointer<UInt8>) -> Bool {
        buf.count >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF
    }

    /// At a document's start: past its byte-order mark, if it has one.
    public mutating func skipByteOrderMark() { if pos == 0 && Self.hasByteOrderMark(buf) { pos = 3 } }

    /// A problem naming the file and, inside a feature, the feature.
    public func fail(_ problem: String) -> InputError {
        InputError(file: file, feature: featureIndex.map { FeatureRef(index: $0, name: nil, id: featureID) }, problem)
    }
    /// A problem with one value (a feature's field): the feature is malformed, the file around it is not.
    public func reject(_ problem: String) -> MalformedFeature { MalformedFeature(error: fail(problem)) }
    /// A problem with the file's JSON, at the cursor's line and column.
    public func syntax(_ message: String) -> InputError {
        var line = 1, col = 1, i = 0
        while i < min(pos, buf.count) { if buf[i] == 0x0A { line += 1; col = 1 } else { col += 1 }; i += 1 }
        return fail("invalid JSON at line \(line), column \(col): \(message)")
    }
    /// A byte as a message shows it.
    public static func printable(_ c: UInt8) -> String {
        c >= 0x20 && c < 0x7F ? String(UnicodeScalar(c)) : String(format: "\\x%02X", c)
    }

    @inlinable @inline(__always) public mutating func ws() {
        while pos < buf.count {
            let c = buf[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { return }
        }
    }
    /// The first byte of the next value (after white space).
    @inlinable @inline(__always) public mutating func peek() throws -> UInt8 {
        ws()
        guard pos < buf.count else { throw syntax("file ends early: expected a value") }
        return buf[pos]
    }
    @inlinable public mutating func expect(_ c: UInt8) throws {
        ws()
        guard pos < buf.count else { throw syntax("file ends early: expected '\(Self.printable(c))'") }
        guard buf[pos] == c else { throw syntax("expected '\(Self.printable(c))', found '\(Self.printable(buf[pos]))'") }
        pos += 1
    }

    // MARK: structure

    /// Opens an array or object at the cursor (the depth rule).
    @inlinable public mutating func enter() throws {
        guard depth < Self.maximumDepth else { throw syntax("nesting deeper than \(Self.maximumDepth) levels") }
        depth += 1
        pos += 1
    }

    /// Past an object member's key: white space, then its quote (the cursor stays on it).
    @inlinable public mutating func keyStart() throws {
        ws()
        guard pos < buf.count else { throw syntax("file ends early inside an object") }
        guard buf[pos] == 0x22 else { throw syntax("expected a quoted key, found '\(Self.printable(buf[pos]))'") }
    }
    /// The ':' after a key.
    @inlinable public mutating func colon() throws {
        ws()
        guard pos < buf.count, buf[pos] == 0x3A else {
            throw syntax(pos < buf.count ? "expected ':' after a key, found '\(Self.printable(buf[pos]))'" : "file ends early inside an object")
        }
        pos += 1
    }
    /// After an object member or array element: true at ',' (another follows), false at the
    /// closing bracket (consumed, the depth left).
    @inlinable @inline(__always) public mutating func next(closing: UInt8) throws -> Bool {
        ws()
        if pos < buf.count {
            let c = buf[pos]
            if c == 0x2C { pos += 1; return true }
            if c == closing { pos += 1; depth -= 1; return false }
        }
        throw separatorError(closing: closing)
    }
    /// What `next` says when neither ',' nor the closing bracket follows (out of line: `next` is
    /// inlined into every decoder's loops).
    public func separatorError(closing: UInt8) -> InputError {
        let inside = closing == 0x7D ? "an object" : "an array"
        guard pos < buf.count else { return syntax("file ends early inside \(inside)") }
        return syntax("expected ',' or '\(Self.printable(closing))' in \(inside), found '\(Self.printable(buf[pos]))'")
    }
    /// Just after the opening bracket: true when the container is empty (closed and left).
    @inlinable public mutating func closesAtOnce(_ closing: UInt8) -> Bool {
        ws()
        guard pos < buf.count, buf[pos] == closing else { return false }
        pos += 1
        depth -= 1
        return true
    }

    /// Iterates an object's members: `body` is called with the key, positioned on the value,
    /// and must consume the value.
    @inlinable public mutating func object(_ body: (inout JSONCursor, String) throws -> Void) throws {
        guard try peek() == 0x7B else { throw syntax("expected an object, found '\(Self.printable(buf[pos]))'") }
        try enter()
        if closesAtOnce(0x7D) { return }
        repeat {
            try keyStart()
            let key = try string()
            try colon()
            try body(&self, key)
        } while try next(closing: 0x7D)
    }

    /// Iterates an array's elements; `body` must consume one value.
    @inlinable public mutating func array(_ body: (inout JSONCursor) throws -> Void) throws {
        guard try peek() == 0x5B else { throw syntax("expected an array, found '\(Self.printable(buf[pos]))'") }
        try enter()
        if closesAtOnce(0x5D) { return }
        repeat { try body(&self) } while try next(closing: 0x5D)
    }

    // MARK: strings

    /// The raw bytes of a string without escapes (the common case), or nil when it has escapes
    /// (the cursor then stays on the string). The bytes are not checked to be UTF-8.
    @inlinable public mutating func rawString() throws -> UnsafeBufferPointer<UInt8>? {
        guard try peek() == 0x22 else { throw syntax("expected a string, found '\(Self.printable(buf[pos]))'") }
        let start = pos + 1
        var i = start
        while i < buf.count {
            let c = buf[i]
            if c == 0x22 { pos = i + 1; return UnsafeBufferPointer(rebasing: buf[start..<i]) }
            if c == 0x5C { return nil }
            if c < 0x20 { pos = i; throw syntax("a control character inside a string") }
            i += 1
        }
        pos = i
        throw syntax("file ends early inside a string")
    }

    public mutating func string() throws -> String {
        if let raw = try rawString() {
            guard let s = Self.utf8String(raw) else { throw syntax("a string is not valid UTF-8") }
            return s
        }
        var bytes: [UInt8] = []
        try unescape { bytes.append($0) }
        guard let s = bytes.withUnsafeBufferPointer(Self.utf8String) else { throw syntax("a string is not valid UTF-8") }
        return s
    }

    /// The bytes as a String, or nil when they are not UTF-8: checked by `isUTF8` (ASCII at one
    /// comparison a byte), then taken as they are. (The standard library's
    /// `String(validating:as:)` is generic and instantiated its metadata at every call: a tenth
    /// of reading the Natural Earth files.)
    @inlinable public static func utf8String(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        guard isUTF8(raw) else { return nil }
        return String(decoding: raw, as: UTF8.self)
    }

    /// Steps over a string with `string`'s checks (escapes, UTF-8), without building it.
    @inlinable public mutating func skipString() throws {
        if let raw = try rawString() {
            guard Self.isUTF8(raw) else { throw syntax("a string is not valid UTF-8") }
            return
        }
        var bytes: [UInt8] = []
        try unescape { bytes.append($0) }
        guard bytes.withUnsafeBufferPointer(Self.isUTF8) else { throw syntax("a string is not valid UTF-8") }
    }

    /// Whether bytes are UTF-8 (without building a String; ASCII at one comparison a byte).
    @inlinable public static func isUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < b.count && b[i] < 0x80 { i += 1 }
        if i == b.count { return true }
        return !transcode(UnsafeBufferPointer(rebasing: b[i...]).makeIterator(), from: UTF8.self, to: UTF8.self,
                          stoppingOnError: true, into: { _ in })
    }

    /// The string at the cursor (on its quote), its escapes decoded, byte by byte to `out`.
    public mutating func unescape(_ out: (UInt8) -> Void) throws {
        pos += 1
        while pos < buf.count {
            let c = buf[pos]
            if c == 0x22 { pos += 1; return }
            if c < 0x20 { throw syntax("a control character inside a string") }
            pos += 1
            if c != 0x5C { out(c); continue }
            guard pos < buf.count else { break }
            let e = buf[pos]
            pos += 1
            switch e {
            case 0x22, 0x5C, 0x2F: out(e)
            case 0x62: out(0x08)
            case 0x66: out(0x0C)
            case 0x6E: out(0x0A)
            case 0x72: out(0x0D)
            case 0x74: out(0x09)
            case 0x75:
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard pos + 1 < buf.count, buf[pos] == 0x5C, buf[pos + 1] == 0x75 else {
                        throw syntax("an unpaired UTF-16 surrogate in a \\u escape")
                    }
                    pos += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw syntax("an unpaired UTF-16 surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw syntax("an unpaired UTF-16 surrogate in a \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw syntax("an invalid \\u escape") }
                for b in String(Character(u)).utf8 { out(b) }
            default:
                pos -= 1
                throw syntax("an invalid escape '\\\(Self.printable(e))' in a string")
            }
        }
        throw syntax("file ends early inside a string")
    }

    mutating func hex4() throws -> UInt32 {
        guard pos + 4 <= buf.count else { throw syntax("file ends early inside a \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = buf[pos]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw syntax("an invalid \\u escape")
            }
            v = v * 16 + d
            pos += 1
        }
        return v
    }

    // MARK: literals and numbers

    /// true, false or null at the cursor.
    @inlinable public mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard pos + n <= buf.count else { throw syntax("file ends early inside a literal") }
        for i in 0..<n where buf[pos + i] != word.utf8Start[i] {
            throw syntax("unexpected characters (expected '\(word)')")
        }
        pos += n
    }

    /// Whether the value at the cursor, starting with `c`, may be NaN or Infinity: only one that
    /// starts N, I, -N or -I can be (a number pays two comparisons).
    @inlinable @inline(__always) func mayBeNonFinite(_ c: UInt8) -> Bool {
        c == 0x4E || c == 0x49 || (c == 0x2D && pos + 1 < buf.count && (buf[pos + 1] == 0x4E || buf[pos + 1] == 0x49))
    }

    /// The length of a NaN, Infinity or -Infinity token at the cursor (0 when there is none),
    /// and whether it is NaN.
    @inlinable public func nonFiniteToken() -> (length: Int, isNaN: Bool) {
        var i = pos
        if i < buf.count && buf[i] == 0x2D { i += 1 }
        func matches(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard i + n <= buf.count else { return false }
            for k in 0..<n where buf[i + k] != word.utf8Start[k] { return false }
            return true
        }
        if matches("NaN") { return (i + 3 - pos, true) }
        if matches("Infinity") { return (i + 8 - pos, false) }
        return (0, false)
    }

    /// A JSON number. NaN and Infinity are not JSON; some writers emit them anyway, and
    /// they get their own message naming the value (`what`).
    @inlinable public mutating func number(_ what: @autoclosure () -> String) throws -> Double {
        let c = try peek()
        if mayBeNonFinite(c) {
            let token = nonFiniteToken()
            if token.length > 0 { throw reject("\(what()) is \(token.isNaN ? "NaN" : "infinite"), not a finite number") }
        }
        if c == 0x6E, pos + 4 <= buf.count, buf[pos + 1] == 0x75 { throw reject("\(what()) is null, not a number") }
        if c == 0x22 { throw reject("\(what()) is a string, not a number") }
        let start = pos
        var neg = false
        if buf[pos] == 0x2D { neg = true; pos += 1 }
        var mant: UInt64 = 0, digits = 0, exp10 = 0
        // The digits are read with a local index (the cursor's own is stored back once) and
        // without overflow checks: below 19 significant digits, mant · 10 + 9 < 10¹⁹ < 2⁶⁴.
        var i = pos
        let end = buf.count
        while i < end {
            let d = buf[i] &- 0x30
            guard d < 10 else { break }
            if digits < 19 { mant = mant &* 10 &+ UInt64(d); if mant > 0 { digits += 1 } } else { exp10 += 1 }
            i += 1
        }
        guard i > pos else { throw reject("\(what()) is not a number") }
        if buf[pos] == 0x30 && i - pos > 1 { throw syntax("a number may not start with 0") }
        if i < end, buf[i] == 0x2E {
            i += 1
            let fraction = i
            while i < end {
                let d = buf[i] &- 0x30
                guard d < 10 else { break }
                if digits < 19 { mant = mant &* 10 &+ UInt64(d); exp10 -= 1; if mant > 0 { digits += 1 } }
                i += 1
            }
            pos = i
            guard i > fraction else { throw syntax("a number needs digits after '.'") }
        }
        pos = i
        var slow = digits > 15
        if pos < buf.count, buf[pos] == 0x65 || buf[pos] == 0x45 { slow = true; pos += 1
            if pos < buf.count, buf[pos] == 0x2B || buf[pos] == 0x2D { pos += 1 }
            let exponent = pos
            while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 { pos += 1 }
            guard pos > exponent else { throw syntax("a number needs digits in its exponent") }
        }
        if !slow && exp10 >= -22 && exp10 <= 22 {
            // Exact: both the mantissa (< 2^53) and 10^|e| (≤ 10^22) are exact doubles, and
            // one IEEE multiplication or division rounds correctly.
            var v = Double(mant)
            v = exp10 < 0 ? v / PowersOfTen.exact(-exp10) : v * PowersOfTen.exact(exp10)
            return neg ? -v : v
        }
        guard let v = Double(String(decoding: buf[start..<pos], as: UTF8.self)) else { throw reject("\(what()) is not a number") }
        guard v.isFinite else { throw reject("\(what()) is out of range, not a finite number") }
        return v
    }

    /// Steps over a number with `number`'s syntax checks, without its value.
    @inlinable public mutating func skipNumber() throws {
        if buf[pos] == 0x2D { pos += 1 }
        let digits = pos
        while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 { pos += 1 }
        if pos == digits { throw syntax("a number needs digits") }
        if pos - digits > 1 && buf[digits] == 0x30 { pos = digits; throw syntax("a number may not start with 0") }
        if pos < buf.count && buf[pos] == 0x2E {
            pos += 1
            let fraction = pos
            while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 { pos += 1 }
            if pos == fraction { throw syntax("a number needs digits after '.'") }
        }
        if pos < buf.count && (buf[pos] == 0x65 || buf[pos] == 0x45) {
            pos += 1
            if pos < buf.count && (buf[pos] == 0x2B || buf[pos] == 0x2D) { pos += 1 }
            let exponent = pos
            while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 { pos += 1 }
            if pos == exponent { throw syntax("a number needs digits in its exponent") }
        }
    }

    /// Steps over one value of any kind, checking its syntax (the same rule as reading it) but
    /// building nothing. A NaN or Infinity token is stepped over: nobody reads it.
    public mutating func skip() throws {
        let c = try peek()
        switch c {
        case 0x22: try skipString()
        case 0x7B, 0x5B:
            let closing: UInt8 = c == 0x7B ? 0x7D : 0x5D
            try enter()
            if closesAtOnce(closing) { return }
            repeat {
                if closing == 0x7D { try keyStart(); try skipString(); try colon() }
                try skip()
            } while try next(closing: closing)
        case 0x74: try literal("true")
        case 0x66: try literal("false")
        case 0x6E: try literal("null")
        default:
            if mayBeNonFinite(c) {
                let token = nonFiniteToken()
                if token.length > 0 { pos += token.length; return }
            }
            guard c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw syntax("unexpected character '\(Self.printable(c))'") }
            try skipNumber()
        }
    }
}

/// A problem with one feature's fields (as opposed to the file's JSON): that feature is
/// malformed, the features after it can still be read (`FeatureStream` quarantines it).
public struct MalformedFeature: Error, CustomStringConvertible, Sendable {
    public var error: InputError
    public init(error: InputError) { self.error = error }
    public var description: String { error.description }
}

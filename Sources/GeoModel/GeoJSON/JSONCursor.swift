import Foundation

/// A typed JSON reader over bytes (a memory-mapped file, say): the caller walks the structure
/// it expects — `object`, `array`, `string`, `number`, `skip` — and decodes straight into its
/// own types, with no JSON tree and no String per number. Errors name the file, the feature
/// being decoded (`featureIndex`, `featureID`) and, for bad JSON, the line and column.
///
/// `FeatureStream` cuts a FeatureCollection into features for it and decodes them in parallel.
/// The methods a decoder calls per value are `@inlinable`: a stage's decoder (Territory's runs,
/// millions of numbers a night) is compiled in its own module and must not pay a call for each.
public struct JSONCursor {
    public let buf: UnsafeBufferPointer<UInt8>
    public let file: String
    public var pos = 0
    /// The feature being decoded and its id, for errors.
    public var featureIndex: Int? = nil
    public var featureID: String? = nil

    public init(buf: UnsafeBufferPointer<UInt8>, file: String) { self.buf = buf; self.file = file }

    /// Whether the file starts with a UTF-8 byte-order mark (3 bytes), which RFC 8259 §8.1 lets
    /// a parser ignore (some Windows tools write one): its JSON then starts at byte 3.
    @inlinable public static func hasByteOrderMark(_ buf: UnsafeBufferPointer<UInt8>) -> Bool {
        buf.count >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF
    }

    /// A problem naming the file and, inside a feature, the feature.
    public func fail(_ problem: String) -> InputError {
        InputError(file: file, feature: featureIndex.map { FeatureRef(index: $0, name: nil, id: featureID) }, problem)
    }
    /// A problem with one feature's fields: the feature is malformed, the file around it is not.
    public func reject(_ problem: String) -> MalformedFeature { MalformedFeature(error: fail(problem)) }
    /// A problem with the file's JSON, at the cursor's line and column.
    public func syntax(_ message: String) -> InputError {
        var line = 1, col = 1, i = 0
        while i < min(pos, buf.count) { if buf[i] == 0x0A { line += 1; col = 1 } else { col += 1 }; i += 1 }
        return fail("invalid JSON at line \(line), column \(col): \(message)")
    }

    @inlinable @inline(__always) public mutating func ws() {
        while pos < buf.count {
            let c = buf[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { return }
        }
    }
    @inlinable @inline(__always) public mutating func peek() throws -> UInt8 {
        ws()
        guard pos < buf.count else { throw syntax("the file ends early") }
        return buf[pos]
    }
    @inlinable public mutating func expect(_ c: UInt8) throws {
        let p = try peek()
        guard p == c else { throw syntax("expected '\(Character(UnicodeScalar(c)))', found '\(Character(UnicodeScalar(p)))'") }
        pos += 1
    }

    /// Iterates an object's members: `body` is called with the key, positioned on the value,
    /// and must consume the value.
    @inlinable public mutating func object(_ body: (inout JSONCursor, String) throws -> Void) throws {
        try expect(0x7B)
        if try peek() == 0x7D { pos += 1; return }
        while true {
            let key = try string()
            try expect(0x3A)
            try body(&self, key)
            let c = try peek()
            pos += 1
            if c == 0x7D { return }
            guard c == 0x2C else { pos -= 1; throw syntax("expected ',' or '}' in an object") }
        }
    }

    /// Iterates an array's elements; `body` must consume one value.
    @inlinable public mutating func array(_ body: (inout JSONCursor) throws -> Void) throws {
        try expect(0x5B)
        if try peek() == 0x5D { pos += 1; return }
        while true {
            try body(&self)
            let c = try peek()
            pos += 1
            if c == 0x5D { return }
            guard c == 0x2C else { pos -= 1; throw syntax("expected ',' or ']' in an array") }
        }
    }

    /// The raw bytes of a string without escapes (the common case), or nil when it has escapes.
    @inlinable public mutating func rawString() throws -> UnsafeBufferPointer<UInt8>? {
        guard try peek() == 0x22 else { throw syntax("expected a string") }
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
        throw syntax("the file ends inside a string")
    }

    public mutating func string() throws -> String {
        let save = pos
        if let raw = try rawString() {
            guard let s = String(validating: raw, as: UTF8.self) else { throw syntax("a string that is not UTF-8") }
            return s
        }
        pos = save
        ws(); pos += 1
        var out = [UInt8]()
        while pos < buf.count {
            let c = buf[pos]; pos += 1
            if c == 0x22 {
                guard let s = String(validating: out, as: UTF8.self) else { throw syntax("a string that is not UTF-8") }
                return s
            }
            if c != 0x5C { out.append(c); continue }
            guard pos < buf.count else { break }
            let e = buf[pos]; pos += 1
            switch e {
            case 0x22, 0x5C, 0x2F: out.append(e)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                guard pos + 4 <= buf.count, let v = UInt32(String(decoding: buf[pos..<pos + 4], as: UTF8.self), radix: 16) else { throw syntax("a bad \\u escape") }
                pos += 4
                var scalar = v
                if (0xD800..<0xDC00).contains(v), pos + 6 <= buf.count, buf[pos] == 0x5C, buf[pos + 1] == 0x75,
                   let lo = UInt32(String(decoding: buf[pos + 2..<pos + 6], as: UTF8.self), radix: 16), (0xDC00..<0xE000).contains(lo) {
                    pos += 6
                    scalar = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00)
                }
                out.append(contentsOf: Array(String(UnicodeScalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
            default: throw syntax("a bad escape in a string")
            }
        }
        throw syntax("the file ends inside a string")
    }

    /// A JSON number. NaN and Infinity are not JSON; some writers emit them anyway, and
    /// they get their own message.
    @inlinable public mutating func number(_ what: @autoclosure () -> String) throws -> Double {
        let c = try peek()
        if c == 0x4E || c == 0x49 || (c == 0x2D && pos + 1 < buf.count && buf[pos + 1] == 0x49) {
            throw reject("\(what()) is \(c == 0x4E ? "NaN" : "infinite"), not a finite number")
        }
        if c == 0x6E, pos + 4 <= buf.count, buf[pos + 1] == 0x75 { throw reject("\(what()) is null, not a number") }
        if c == 0x22 { throw reject("\(what()) is a string, not a number") }
        let start = pos
        var neg = false
        if buf[pos] == 0x2D { neg = true; pos += 1 }
        var mant: UInt64 = 0, digits = 0, exp10 = 0
        var any = false
        // The digits are read with a local index (the cursor's own is stored back once) and
        // without overflow checks: below 19 significant digits, mant · 10 + 9 < 10¹⁹ < 2⁶⁴.
        var i = pos
        let end = buf.count
        while i < end {
            let d = buf[i] &- 0x30
            guard d < 10 else { break }
            if digits < 19 { mant = mant &* 10 &+ UInt64(d); if mant > 0 { digits += 1 } } else { exp10 += 1 }
            i += 1; any = true
        }
        if i < end, buf[i] == 0x2E {
            i += 1
            var fr = false
            while i < end {
                let d = buf[i] &- 0x30
                guard d < 10 else { break }
                if digits < 19 { mant = mant &* 10 &+ UInt64(d); exp10 -= 1; if mant > 0 { digits += 1 } }
                i += 1; fr = true
            }
            pos = i
            guard fr else { throw syntax("a number with no digits after '.'") }
        }
        pos = i
        guard any else { throw reject("\(what()) is not a number") }
        var slow = digits > 15
        if pos < buf.count, buf[pos] == 0x65 || buf[pos] == 0x45 { slow = true; pos += 1
            if pos < buf.count, buf[pos] == 0x2B || buf[pos] == 0x2D { pos += 1 }
            var e = false
            while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 { pos += 1; e = true }
            guard e else { throw syntax("a number with an empty exponent") }
        }
        if !slow && exp10 >= -22 && exp10 <= 22 {
            // Exact: both the mantissa (< 2^53) and 10^|e| (≤ 10^22) are exact doubles, and
            // one IEEE multiplication or division rounds correctly.
            var v = Double(mant)
            v = exp10 < 0 ? v / PowersOfTen.exact(-exp10) : v * PowersOfTen.exact(exp10)
            return neg ? -v : v
        }
        guard let v = Double(String(decoding: buf[start..<pos], as: UTF8.self)) else { throw reject("\(what()) is not a number") }
        guard v.isFinite else { throw reject("\(what()) is out of range") }
        return v
    }

    /// Skips one value of any kind, checking its structure only as far as needed to find its end.
    @inlinable public mutating func skip() throws {
        let c = try peek()
        switch c {
        case 0x22: if try rawString() == nil { _ = try string() }
        case 0x7B, 0x5B:
            var depth = 0
            while pos < buf.count {
                let b = buf[pos]
                if b == 0x22 { if try rawString() == nil { _ = try string() }; continue }
                pos += 1
                if b == 0x7B || b == 0x5B { depth += 1 } else if b == 0x7D || b == 0x5D { depth -= 1; if depth == 0 { return } }
            }
            throw syntax("the file ends inside an object or array")
        default:
            let start = pos
            while pos < buf.count, !(buf[pos] == 0x2C || buf[pos] == 0x7D || buf[pos] == 0x5D || buf[pos] == 0x20 || buf[pos] == 0x0A || buf[pos] == 0x0D || buf[pos] == 0x09) { pos += 1 }
            if pos == start { throw syntax("expected a value") }
        }
    }

    /// Pass 1: the byte ranges of the features of the top-level FeatureCollection.
    public mutating func featureRanges() throws -> [Range<Int>] {
        if Self.hasByteOrderMark(buf) { pos = 3 }
        var ranges: [Range<Int>]? = nil
        var type: String? = nil
        try object { c, key in
            switch key {
            case "type": type = try c.string()
            case "features":
                var r: [Range<Int>] = []
                try c.array { c in
                    c.ws()
                    let s = c.pos
                    guard c.buf[s] == 0x7B else { throw c.syntax("a feature must be an object") }
                    try c.skip()
                    r.append(s..<c.pos)
                }
                ranges = r
            default: try c.skip()
            }
        }
        ws()
        guard pos == buf.count else { throw syntax("unexpected characters after the FeatureCollection") }
        guard type == "FeatureCollection" else { throw fail("is not a GeoJSON FeatureCollection (type is \(type.map { "\"\($0)\"" } ?? "missing"))") }
        guard let r = ranges else { throw fail("the FeatureCollection has no features array") }
        return r
    }
}

/// A problem with one feature's fields (as opposed to the file's JSON): that feature is
/// malformed, the features after it can still be read (`FeatureStream` quarantines it).
public struct MalformedFeature: Error, CustomStringConvertible, Sendable {
    public var error: InputError
    public init(error: InputError) { self.error = error }
    public var description: String { error.description }
}

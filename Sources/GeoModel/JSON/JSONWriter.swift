// Deterministic JSON output: the same value always gives the same bytes. Object keys keep
// their order; numbers are written by rules that do not depend on locale or platform.

import Geodesy

public struct JSONWriter {
    public var bytes: [UInt8] = []
    /// Decimal places for coordinates (GeoJSON positions); 6 is about 0.1 m.
    public var coordinateDecimals: Int

    public init(coordinateDecimals: Int = 6, reserve: Int = 1 << 16) {
        self.coordinateDecimals = coordinateDecimals
        bytes.reserveCapacity(reserve)
    }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    @inline(__always) public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }

    /// A JSON string literal with the escapes RFC 8259 requires (and nothing else escaped,
    /// so non-ASCII names stay readable).
    public mutating func string(_ s: String) {
        bytes.append(0x22)
        for c in s.utf8 {
            switch c {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(JSONWriter.hexDigits[Int(c >> 4)])
                bytes.append(JSONWriter.hexDigits[Int(c & 0xF)])
            default: bytes.append(c)
            }
        }
        bytes.append(0x22)
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Integers as integers, other numbers in Swift's shortest round-trip form.
    /// Non-finite numbers have no JSON form and are written as null.
    public mutating func number(_ d: Double) {
        guard d.isFinite else { raw("null"); return }
        if d == d.rounded(), abs(d) < 1e15 {
            integer(Int64(d))
        } else {
            raw(d.description)
        }
    }

    public mutating func integer(_ i: Int64) {
        if i == 0 { bytes.append(0x30); return }
        if i < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(i.magnitude, minimumWidth: 1)
    }

    /// Decimal digits of `v`, left-padded with zeros to `minimumWidth`, without allocating.
    @inline(__always) private mutating func appendDigits(_ v: UInt64, minimumWidth: Int) {
        var tmp: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch: enough for 20 digits
        var n = 0
        withUnsafeMutableBytes(of: &tmp) { scratch in
            var v = v
            repeat { scratch[23 - n] = UInt8(v % 10) + 0x30; v /= 10; n += 1 } while v > 0 || n < minimumWidth
            // A typed buffer appends with one memcpy; the raw slice went through a generic
            // byte-by-byte copy (a tenth of the ingest stage's instructions).
            let digits = scratch.bindMemory(to: UInt8.self)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(24 - n)...]))
        }
    }

    /// A number rounded to `decimals` places with trailing zeros trimmed: 12.5, 3, -0.000001.
    public mutating func fixed(_ d: Double, decimals: Int) {
        guard d.isFinite else { raw("null"); return }
        let scaled = (d * PowersOfTen.table[decimals]).rounded()
        guard abs(scaled) < 9e18 else { number(d); return }
        scaledDecimal(Int64(scaled), decimals: decimals)
    }

    /// The number `n` × 10^-decimals with trailing zeros trimmed (`n` already on the decimal
    /// grid, as SVG path coordinates are): 1250 at 2 decimals is 12.5.
    public mutating func scaledDecimal(_ n: Int64, decimals: Int) {
        // Written into a scratch on the stack and appended at once: each append to `bytes` is
        // a call with its capacity check (four of them a number were most of its cost).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxScaledDecimalBytes) { scratch in
            let q = scratch.baseAddress!
            let n = Self.writeScaledDecimal(n, decimals: decimals, unit: UInt64(PowersOfTen.table[decimals]), to: q)
            bytes.append(contentsOf: UnsafeBufferPointer(start: q, count: n))
        }
    }

    /// The most bytes `writeScaledDecimal` writes: a sign, 19 digits, a point and 19 places.
    static let maxScaledDecimalBytes = 40

    /// `scaledDecimal`'s text at `q` (`unit` is 10^decimals); returns its length. The integer
    /// part has at least one digit, the fraction exactly the places left after trimming its
    /// trailing zeros (so that it is zero-padded on the left). Digits go two at a time.
    @inline(__always) static func writeScaledDecimal(_ n: Int64, decimals: Int, unit: UInt64, to q: UnsafeMutablePointer<UInt8>) -> Int {
        if n == 0 { q[0] = 0x30; return 1 }
        var k = 0
        if n < 0 { q[0] = UInt8(ascii: "-"); k = 1 }
        let m = n.magnitude
        var whole = m / unit
        var frac = m % unit
        if whole < 10 {
            q[k] = UInt8(truncatingIfNeeded: whole) &+ 0x30; k += 1
        } else {
            var digits = 2
            var t = whole / 100
            while t > 0 { t /= 10; digits += 1 }
            k += digits
            writeDigits(&whole, from: k, downTo: k - digits, q)
        }
        if frac == 0 { return k }
        var places = decimals
        while frac % 10 == 0 { frac /= 10; places -= 1 }
        q[k] = UInt8(ascii: ".")
        let end = k + 1 + places
        writeDigits(&frac, from: end, downTo: k + 1, q)
        return end
    }

    /// The decimal digits of `v` (which fits) right-aligned in q[low..<high], zero-padded.
    @inline(__always) static func writeDigits(_ v: inout UInt64, from high: Int, downTo low: Int, _ q: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        var j = high
        while j &- low >= 2 {
            let r = Int(truncatingIfNeeded: v % 100) &* 2
            v /= 100
            j &-= 2
            q[j] = pairs[r]; q[j &+ 1] = pairs[r &+ 1]
        }
        if j > low { q[j &- 1] = UInt8(truncatingIfNeeded: v) &+ 0x30 }
    }

    /// "00", "01", … "99".
    @inline(__always) static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// `(d * scale).rounded()` as an integer when it is below 9·10^18 in magnitude (nil
    /// otherwise, NaN and infinities included), without a call to libm's `round`: the
    /// truncation is exact, and so is the remainder it leaves (half away from zero, as `rounded`).
    @inline(__always) static func roundedScaled(_ v: Double) -> Int64? {
        guard abs(v) < 9e18 else { return nil }
        var i = Int64(v)
        let f = v - Double(i)
        if f >= 0.5 { i += 1 } else if f <= -0.5 { i -= 1 }
        return i
    }

    public mutating func position(_ p: Point) {
        bytes.append(UInt8(ascii: "["))
        fixed(p.x, decimals: coordinateDecimals)
        bytes.append(UInt8(ascii: ","))
        fixed(p.y, decimals: coordinateDecimals)
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func ring(_ r: Ring) {
        // The bulk of every GeoJSON file: the whole ring's text is written through a pointer
        // into one buffer and appended once. A coordinate `fixed` would not write on the grid
        // (not finite, or too large) sends the ring to the general path, so the bytes are
        // always `position`'s.
        let decimals = coordinateDecimals
        if decimals >= 0 && decimals <= 18 && !r.isEmpty {
            let scale = PowersOfTen.table[decimals], unit = UInt64(scale)
            var onGrid = true
            let perPosition = 2 * Self.maxScaledDecimalBytes + 4  // ",[x,y]"
            let text = [UInt8](unsafeUninitializedCapacity: r.count * perPosition + 2) { out, count in
                let start = out.baseAddress!
                var q = start
                q.pointee = UInt8(ascii: "["); q += 1
                for (i, p) in r.enumerated() {
                    guard let x = Self.roundedScaled(p.x * scale), let y = Self.roundedScaled(p.y * scale) else { onGrid = false; break }
                    if i > 0 { q.pointee = UInt8(ascii: ","); q += 1 }
                    q.pointee = UInt8(ascii: "["); q += 1
                    q += Self.writeScaledDecimal(x, decimals: decimals, unit: unit, to: q)
                    q.pointee = UInt8(ascii: ","); q += 1
                    q += Self.writeScaledDecimal(y, decimals: decimals, unit: unit, to: q)
                    q.pointee = UInt8(ascii: "]"); q += 1
                }
                q.pointee = UInt8(ascii: "]"); q += 1
                count = onGrid ? q - start : 0
            }
            if onGrid { bytes.append(contentsOf: text); return }
        }
        bytes.append(UInt8(ascii: "["))
        for (i, p) in r.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            position(p)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func polygonCoordinates(_ poly: Polygon) {
        bytes.append(UInt8(ascii: "["))
        for (i, r) in poly.rings.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            ring(r)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func geometry(_ g: Geometry) {
        raw("{\"type\":")
        string(g.typeName)
        raw(",\"coordinates\":")
        switch g {
        case .point(let p): position(p)
        case .polygon(let poly): polygonCoordinates(poly)
        case .multiPolygon(let polys):
            bytes.append(UInt8(ascii: "["))
            for (i, poly) in polys.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                polygonCoordinates(poly)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Any JSON value, compact. `indent` > 0 pretty-prints objects and arrays.
    public mutating func value(_ v: JSONValue, indent: Int = 0, level: Int = 0) {
        switch v {
        case .null: raw("null")
        case .bool(let b): if b { raw("true") } else { raw("false") }
        case .number(let d): number(d)
        case .string(let s): string(s)
        case .coordinates(let tree): coordinateTree(tree)
        case .array(let items):
            if items.isEmpty { raw("[]"); return }
            bytes.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent, level + 1)
                value(item, indent: indent, level: level + 1)
            }
            newline(indent, level)
            bytes.append(UInt8(ascii: "]"))
        case .object(let o):
            if o.count == 0 { raw("{}"); return }
            bytes.append(UInt8(ascii: "{"))
            for (i, e) in o.entries.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent, level + 1)
                string(e.key)
                bytes.append(UInt8(ascii: ":"))
                if indent > 0 { bytes.append(0x20) }
                value(e.value, indent: indent, level: level + 1)
            }
            newline(indent, level)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func newline(_ indent: Int, _ level: Int) {
        guard indent > 0 else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(0x20, count: indent * level))
    }

    private mutating func coordinateTree(_ t: CoordinateTree) {
        var positionIndex = 0
        var countIndex = Array(repeating: 0, count: t.counts.count)
        func level(_ k: Int, _ w: inout JSONWriter) {
            if k == t.depth - 1 || t.depth == 0 {
                w.position(t.positions[positionIndex]); positionIndex += 1; return
            }
            let n = t.counts[k][countIndex[k]]; countIndex[k] += 1
            w.bytes.append(UInt8(ascii: "["))
            for i in 0..<n {
                if i > 0 { w.bytes.append(UInt8(ascii: ",")) }
                level(k + 1, &w)
            }
            w.bytes.append(UInt8(ascii: "]"))
        }
        level(0, &self)
    }
}

/// Exact powers of ten 10^0 … 10^22 (all exactly representable as Double), shared by the
/// JSON reader's fast path, the JSON writer and the SVG path writer.
public enum PowersOfTen {
    public static let table: [Double] = (0...22).map { var s = 1.0; for _ in 0..<$0 { s *= 10 }; return s }

    /// `table[e]` (0 ≤ e ≤ 22) as constants, for the reader's per-number path: a global
    /// array's accessor is a call and a once-check per number.
    @inlinable @inline(__always) public static func exact(_ e: Int) -> Double {
        switch e {
        case 0: 1e0; case 1: 1e1; case 2: 1e2; case 3: 1e3; case 4: 1e4; case 5: 1e5; case 6: 1e6; case 7: 1e7
        case 8: 1e8; case 9: 1e9; case 10: 1e10; case 11: 1e11; case 12: 1e12; case 13: 1e13; case 14: 1e14
        case 15: 1e15; case 16: 1e16; case 17: 1e17; case 18: 1e18; case 19: 1e19; case 20: 1e20; case 21: 1e21
        case 22: 1e22
        default: table[e]
        }
    }
}

/// Numbers as text for attributes and messages (SVG viewBox, PROJ strings, logs): `decimals`
/// places, trailing zeros trimmed, the same digits the JSON writer produces.
public enum DecimalText {
    public static func fixed(_ d: Double, decimals: Int) -> String {
        var w = JSONWriter()
        w.fixed(d, decimals: decimals)
        return w.string
    }
}

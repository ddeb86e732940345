import GeoModel
import H3

/// Coordinate text written byte by byte, inlinable, so every write inlines in its caller (a night
/// writes tens of millions of coordinates; the writer's own calls cross a module each): into a
/// small buffer on the stack, appended to `out` a few kilobytes at a time (an append per number
/// was a call to memmove each).
public struct CoordText {
    @usableFromInline var out: [UInt8]
    /// `chunk` bytes and room for one more position past them.
    @usableFromInline let buf: UnsafeMutablePointer<UInt8>
    @usableFromInline var n = 0
    @usableFromInline static let chunk = 4096, capacity = chunk + 128

    @inlinable init(out: [UInt8], buf: UnsafeMutablePointer<UInt8>) { self.out = out; self.buf = buf }

    /// Makes room for one position (two numbers of at most 24 bytes each and a separator).
    @inlinable @inline(__always) mutating func room() { if n > Self.chunk { flush() } }

    @inlinable mutating func flush() {
        out.append(contentsOf: UnsafeBufferPointer(start: buf, count: n))
        n = 0
    }

    @inlinable @inline(__always) public mutating func byte(_ b: UInt8) { room(); buf[n] = b; n += 1 }

    /// A coordinate that reads back as exactly the same double: a double nearest to k·10⁻⁷ as
    /// those (at most 7) decimals, fast integer formatting; anything else (a crossing GEOS
    /// computed) in Swift's shortest round-trip form.
    @inlinable @inline(__always) public mutating func exact(_ d: Double) {
        room()
        put(d)
    }

    /// A WKT position, "x y".
    @inlinable @inline(__always) public mutating func wktPosition(_ x: Double, _ y: Double) {
        room()
        put(x); buf[n] = 0x20; n += 1; put(y)
    }

    /// `exact` without making room (at most 24 bytes).
    @inlinable @inline(__always) mutating func put(_ d: Double) {
        let k = Self.decimal(d, into: buf + n)
        if k > 0 { n += k; return }
        for c in d.description.utf8 { buf[n] = c; n += 1 }
    }

    /// Writes `d` at `s` as the decimals of the integer k nearest to d·10⁷, trailing zeros
    /// trimmed, when k·10⁻⁷ is exactly `d` (at most 18 bytes); returns how many bytes, 0 when
    /// `d` is not such a number. k is rounded half away from zero (`rounded()`), by truncating
    /// and comparing the remainder: exact below 2⁵², and libm's round is a call per number.
    @inlinable @inline(__always) static func decimal(_ d: Double, into s: UnsafeMutablePointer<UInt8>) -> Int {
        let x = d * 1e7
        guard abs(x) < 9e15 else { return 0 }  // also NaN and ±∞
        var i = Int64(x)
        let rest = x - Double(i)
        if rest >= 0.5 { i += 1 } else if rest <= -0.5 { i -= 1 }
        guard Double(i) / 1e7 == d else { return 0 }
        let digits: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        let pair = digits.utf8Start
        var n = 0
        if i < 0 { s[0] = 0x2D; n = 1 }
        let m = i.magnitude
        var ip = Int(truncatingIfNeeded: m / 10_000_000)
        let frac = Int(truncatingIfNeeded: m % 10_000_000)
        // The integer part (at most 9 digits for |d| < 9e8): a longitude or latitude has at
        // most three, written straight from the pair table.
        if ip < 10 {
            s[n] = UInt8(truncatingIfNeeded: ip) + 0x30; n += 1
        } else if ip < 100 {
            s[n] = pair[2 * ip]; s[n + 1] = pair[2 * ip + 1]; n += 2
        } else if ip < 1000 {
            let h = ip / 100, r = ip % 100
            s[n] = UInt8(truncatingIfNeeded: h) + 0x30; s[n + 1] = pair[2 * r]; s[n + 2] = pair[2 * r + 1]; n += 3
        } else {
            var tmp: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &tmp) { t in
                var k = 16
                repeat { k -= 1; t[k] = UInt8(truncatingIfNeeded: ip % 10) + 0x30; ip /= 10 } while ip > 0
                for j in k..<16 { s[n] = t[j]; n += 1 }
            }
        }
        guard frac != 0 else { return n }
        // Seven decimals: one digit, then three pairs; then the trailing zeros go.
        s[n] = 0x2E
        s[n + 1] = UInt8(truncatingIfNeeded: frac / 1_000_000) + 0x30
        let r = frac % 1_000_000
        let p1 = r / 10_000, p2 = r / 100 % 100, p3 = r % 100
        s[n + 2] = pair[2 * p1]; s[n + 3] = pair[2 * p1 + 1]
        s[n + 4] = pair[2 * p2]; s[n + 5] = pair[2 * p2 + 1]
        s[n + 6] = pair[2 * p3]; s[n + 7] = pair[2 * p3 + 1]
        n += 8
        while s[n - 1] == 0x30 { n -= 1 }
        return n
    }
}

extension JSONWriter {
    /// A cell's boundary as territory_hex.cell stores it, `SRID=4326;POLYGON((…))` (the SQL file
    /// quotes it, the night's COPY row does not).
    public mutating func cellEWKT(_ cell: UInt64) throws {
        raw("SRID=4326;POLYGON((")
        let ring = try H3Cell.storedRing(cell)
        wktCoordinates(ring.count) { (ring[$0].x, ring[$0].y) }
        raw("))")
    }

    /// A WKT coordinate list "x y,x y,…" of `count` points, each written to read back exactly.
    @inlinable @inline(__always) public mutating func wktCoordinates(_ count: Int, _ point: (Int) -> (x: Double, y: Double)) {
        withCoordText { t in
            for i in 0..<count {
                if i > 0 { t.byte(0x2C) }
                let p = point(i)
                t.wktPosition(p.x, p.y)
            }
        }
    }

    /// Lends the writer's buffer to a `CoordText` (moved, not copied) and takes it back.
    @inlinable @inline(__always) public mutating func withCoordText(_ body: (inout CoordText) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CoordText.capacity) { b in
            var t = CoordText(out: bytes, buf: b.baseAddress!)
            bytes = []
            body(&t)
            t.flush()
            bytes = t.out
        }
    }
}

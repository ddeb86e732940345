import CalendarDay
import Foundation
import GeoModel

// Times as integer microseconds since 1970-01-01T00:00:00Z: exact comparisons (ownership
// ties), PostgreSQL's own precision (timestamptz keeps microseconds), no floating point.

public enum Timestamp {
    /// Parses ISO 8601 / RFC 3339 date-times as phones and `psql \copy` write them:
    /// `2026-11-21T07:02:11Z`, `2026-11-21T07:02:11.25+01:00`, `2026-11-21 07:02:11+00`.
    /// A zone is required (a time without one is ambiguous); fractions beyond microseconds
    /// are refused rather than rounded.
    public static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        // Inlined: a night parses ten million of these.
        @inline(__always) func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += n
            return v
        }
        @inline(__always) func take(_ c: UInt8) -> Bool { if i < b.count && b[i] == c { i += 1; return true }; return false }
        guard let year = digits(4), take(0x2D), let month = digits(2), take(0x2D), let day = digits(2) else { return nil }
        guard i < b.count, b[i] == 0x54 || b[i] == 0x74 || b[i] == 0x20 else { return nil }  // T, t or space
        i += 1
        guard let hh = digits(2), take(0x3A), let mm = digits(2), take(0x3A), let ss = digits(2) else { return nil }
        var micros = 0
        if take(0x2E) {
            var n = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                guard n < 6 else { return nil }
                micros = micros * 10 + Int(b[i] - 0x30); n += 1; i += 1
            }
            guard n > 0 else { return nil }
            for _ in n..<6 { micros *= 10 }
        }
        var offsetMinutes = 0
        if take(0x5A) || take(0x7A) {
        } else if i < b.count, b[i] == 0x2B || b[i] == 0x2D {
            let sign = b[i] == 0x2D ? -1 : 1
            i += 1
            guard let oh = digits(2) else { return nil }
            var om = 0
            if take(0x3A) { guard let m = digits(2) else { return nil }; om = m } else if i < b.count { guard let m = digits(2) else { return nil }; om = m }
            guard oh <= 23, om <= 59 else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
        } else { return nil }
        guard i == b.count else { return nil }
        guard hh <= 23, mm <= 59, ss <= 59, let date = Day(year: year, month: month, day: day) else { return nil }
        let days = Int64(date.ordinal)
        let seconds = days * 86_400 + Int64(hh * 3600 + mm * 60 + ss) - Int64(offsetMinutes * 60)
        return seconds * 1_000_000 + Int64(micros)
    }

    /// The date of the last time `parse(_:sameDay:)` read in full, so that a time on the same
    /// date reads only its clock: a run's thousand times share one or two dates.
    public struct SameDay {
        /// Bytes 0..<8 and 3..<11 of that time (`YYYY-MM-DDT`), and its date's midnight (µs).
        var head: UInt64 = 0, tail: UInt64 = 0, midnight: Int64 = 0, known = false
        public init() {}
    }

    /// `parse`, with a shortcut for the form a phone writes, `2026-11-21T07:02:11Z`, when the
    /// date (with its `T`) is byte for byte the last one read in full: only the clock is read
    /// and checked, and the result is exactly `parse`'s.
    @inline(__always) public static func parse(_ b: UnsafeBufferPointer<UInt8>, sameDay day: inout SameDay) -> Int64? {
        guard b.count == 20, let base = b.baseAddress else { return parse(b) }
        let raw = UnsafeRawPointer(base)
        let head = raw.loadUnaligned(as: UInt64.self), tail = raw.loadUnaligned(fromByteOffset: 3, as: UInt64.self)
        @inline(__always) func digit(_ k: Int) -> Int { Int(b[k]) &- 0x30 }
        @inline(__always) func clock() -> Int? {
            guard b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x5A else { return nil }
            let d = (digit(11), digit(12), digit(14), digit(15), digit(17), digit(18))
            guard UInt(bitPattern: d.0) < 10, UInt(bitPattern: d.1) < 10, UInt(bitPattern: d.2) < 10,
                  UInt(bitPattern: d.3) < 10, UInt(bitPattern: d.4) < 10, UInt(bitPattern: d.5) < 10 else { return nil }
            let hh = d.0 * 10 + d.1, mm = d.2 * 10 + d.3, ss = d.4 * 10 + d.5
            guard hh <= 23, mm <= 59, ss <= 59 else { return nil }
            return hh * 3600 + mm * 60 + ss
        }
        if day.known, head == day.head, tail == day.tail, let t = clock() { return day.midnight + Int64(t) * 1_000_000 }
        guard let full = parse(b) else { return nil }
        if let t = clock() { day.head = head; day.tail = tail; day.midnight = full - Int64(t) * 1_000_000; day.known = true }
        return full
    }

    public static func parse(_ s: String) -> Int64? { Array(s.utf8).withUnsafeBufferPointer { parse($0) } }

    /// `2026-11-21T07:02:11Z`, with `.ffffff` (trailing zeros trimmed) when there is a fraction.
    public static func iso(_ t: Int64) -> String {
        var secs = t / 1_000_000
        var micros = t % 1_000_000
        if micros < 0 { micros += 1_000_000; secs -= 1 }
        var days = secs / 86_400
        var rem = secs % 86_400
        if rem < 0 { rem += 86_400; days -= 1 }
        let (y, m, d) = Day(ordinal: Int(days)).components
        func p2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var s = "\(String(format: "%04d", y))-\(p2(m))-\(p2(d))T\(p2(Int(rem / 3600))):\(p2(Int(rem % 3600 / 60))):\(p2(Int(rem % 60)))"
        if micros != 0 {
            var f = String(format: "%06d", Int(micros))
            while f.hasSuffix("0") { f.removeLast() }
            s += "." + f
        }
        return s + "Z"
    }
}

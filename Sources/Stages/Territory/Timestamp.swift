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

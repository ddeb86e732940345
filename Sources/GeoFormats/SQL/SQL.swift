// Writing SQL text that cannot be broken by the data in it. Every value that goes into a
// statement passes through `SQL.literal`; names that only go into
// comments pass through `SQL.comment`.
import CalendarDay
import GeoModel


public enum SQL {
    /// A string literal PostgreSQL reads back as exactly `s`, whatever
    /// `standard_conforming_strings` is set to: single quotes are doubled, and a string that
    /// contains a backslash is written as an escape string (`E'…'`) with the backslash doubled,
    /// so neither setting can turn it into an escape. NUL cannot be stored in PostgreSQL text
    /// and is rejected.
    public static func literal(_ s: String) throws -> String {
        var out: [UInt8] = []
        try appendLiteral(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `literal(s)` appended to a byte buffer, for writers that build large files: escaping
    /// works on the UTF-8 bytes (NUL, '\\' and '\'' are single bytes that occur in no other
    /// character's encoding), so no intermediate String is made. (`String.contains(String)`
    /// went through Foundation's CFString search, and escaping scalar by scalar into a String
    /// was most of the cities seed's cost.)
    public static func appendLiteral(_ s: String, to out: inout [UInt8]) throws {
        var s = s
        try s.withUTF8 { bytes in
            var hasBackslash = false, hasQuote = false
            for b in bytes {
                if b == 0 {
                    throw StageError("a text value contains a NUL character, which PostgreSQL text cannot hold: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                } else if b == 0x5C { hasBackslash = true } else if b == 0x27 { hasQuote = true }
            }
            if hasBackslash { out.append(0x45) }   // E'…': an escape string either setting reads alike
            out.append(0x27)
            if !hasBackslash && !hasQuote {
                out.append(contentsOf: bytes)
            } else {
                for b in bytes {
                    if b == 0x27 || b == 0x5C { out.append(b) }
                    out.append(b)
                }
            }
            out.append(0x27)
        }
    }

    /// A date literal (`date '2026-01-01'`); `day` must already be a valid ISO date.
    public static func date(_ day: Day) -> String { "date '\(day.iso)'" }

    public static func bool(_ b: Bool) -> String { b ? "true" : "false" }

    /// A `-- ` comment line that holds `text` safely: a line comment ends only at a line
    /// break, so line breaks (and every other control character) become spaces.
    public static func comment(_ text: String) -> String {
        var out = "--"
        if !text.isEmpty { out += " " }
        for ch in text.unicodeScalars {
            if ch.value < 0x20 || ch.value == 0x7F || ch == "\u{2028}" || ch == "\u{2029}" || ch == "\u{85}" {
                out += " "
            } else {
                out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}

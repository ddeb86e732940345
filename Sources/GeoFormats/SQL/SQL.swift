// Writing SQL text that cannot be broken by the data in it. Every value that goes into a
// statement passes through `SQL.literal`; names that only go into
// comments pass through `SQL.comment`.
import GeoModel


public enum SQL {
    /// A string literal PostgreSQL reads back as exactly `s`, whatever
    /// `standard_conforming_strings` is set to: single quotes are doubled, and a string that
    /// contains a backslash is written as an escape string (`E'…'`) with the backslash doubled,
    /// so neither setting can turn it into an escape. NUL cannot be stored in PostgreSQL text
    /// and is rejected.
    public static func literal(_ s: String) throws -> String {
        // Tested on UTF-8 bytes: NUL, '\\' and '\'' are single bytes that occur in no other
        // character's encoding. (`String.contains(String)` went through Foundation's CFString
        // search and was the cities stage's largest cost.)
        var nul = false, hasBackslash = false, hasQuote = false
        func scan<C: Collection>(_ bytes: C) where C.Element == UInt8 {
            for b in bytes {
                if b == 0 { nul = true } else if b == 0x5C { hasBackslash = true } else if b == 0x27 { hasQuote = true }
            }
        }
        if s.utf8.withContiguousStorageIfAvailable({ scan($0) }) == nil { scan(s.utf8) }
        if nul {
            throw StageError("a text value contains a NUL character, which PostgreSQL text cannot hold: \(s.debugDescription)")
        }
        if !hasBackslash && !hasQuote { return "'" + s + "'" }
        var out = hasBackslash ? "E'" : "'"
        out.reserveCapacity(s.utf8.count + 3)
        for ch in s.unicodeScalars {
            switch ch {
            case "'": out += "''"
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(ch)
            }
        }
        out += "'"
        return out
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

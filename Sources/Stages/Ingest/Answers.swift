// Quiz answers (CONTRACTS §1): the spellings a player may type for a country's name or capital.
// The quiz compares a typed guess case-insensitively with the name (or capital) and its aliases;
// these helpers add the forms a player types without thinking (no diacritics, St. for Saint,
// spaces for hyphens) and give the key under which two answers could not be told apart.

import Foundation

public enum Answers {
    /// Letters that have no canonical decomposition but a usual ASCII spelling, and the
    /// apostrophes a phone keyboard types.
    static let special: [Unicode.Scalar: String] = [
        "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "đ": "d", "Đ": "D",
        "ł": "l", "Ł": "L", "ı": "i", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ʻ": "'", "’": "'", "‘": "'",
    ]

    /// The text without diacritics (København → Kobenhavn, Chișinău → Chisinau), NFC.
    public static func asciiFold(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.decomposedStringWithCanonicalMapping.unicodeScalars {
            if u.properties.generalCategory == .nonspacingMark { continue }
            if let r = special[u] { out.append(contentsOf: r.unicodeScalars) } else { out.append(u) }
        }
        return String(out).precomposedStringWithCanonicalMapping
    }

    /// What two answers share when a player could not tell them apart by typing: folded,
    /// lower case, hyphens as spaces, no dots or apostrophes, "saint" as "st", single spaces.
    public static func key(_ s: String) -> String {
        let folded = asciiFold(s).lowercased().replacingOccurrences(of: "-", with: " ")
        let words = folded.filter { $0 != "." && $0 != "'" }.split(whereSeparator: \.isWhitespace)
        return words.map { $0 == "saint" ? "st" : String($0) }.joined(separator: " ")
    }

    /// The forms a player types without thinking: without diacritics, Saint/St./St, and with
    /// spaces for hyphens (Port-of-Spain → Port of Spain). Excludes `s` itself.
    public static func variants(_ s: String) -> [String] {
        var out: [String] = []
        for base in [s, asciiFold(s)] {
            out.append(base)
            out += saintForms(base)
            if base.contains("-") { out.append(base.replacingOccurrences(of: "-", with: " ")) }
        }
        return out.filter { $0 != s }
    }

    /// "Saint X" ↔ "St. X" ↔ "St X" (every occurrence takes the same form).
    static func saintForms(_ s: String) -> [String] {
        let words = s.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let forms = ["Saint", "St.", "St"]
        guard words.contains(where: { forms.contains($0) }) else { return [] }
        return forms.compactMap { form in
            let w = words.map { forms.contains($0) ? form : $0 }.joined(separator: " ")
            return w == s ? nil : w
        }
    }

    /// `main`'s accepted other spellings: `explicit` in order, then the variants of `main` and
    /// of each, without repeats (ignoring case) and without `main`.
    public static func aliases(main: String, explicit: [String]) -> [String] {
        var seen: Set<String> = [main.lowercased()]
        var out: [String] = []
        func add(_ a: String) {
            let t = a.trimmingCharacters(in: .whitespaces)
            if !t.isEmpty && seen.insert(t.lowercased()).inserted { out.append(t) }
        }
        explicit.forEach(add)
        for base in [main] + out { variants(base).forEach(add) }
        return out
    }
}

import Foundation

extension CitiesStage {
    /// "City, Admin, Country" without repeated parts: the admin is left out when it is the
    /// country's name, the country when the city is the country ("Singapore"). A state that
    /// shares its city's name stays ("São Paulo, São Paulo, Brazil").
    public static func displayName(city: String, admin: String?, country: String) -> String {
        var parts = [city]
        if let a = admin, !a.isEmpty, a != country { parts.append(a) }
        if !(parts.count == 1 && city == country) { parts.append(country) }
        return parts.joined(separator: ", ")
    }

    /// The name without diacritics: combining marks removed after canonical decomposition, and
    /// the Latin letters with a stroke or bar (which do not decompose) given their base letter.
    public static func plainName(_ name: String) -> String {
        // ASCII has no combining marks, no decompositions and none of the stroked letters: an
        // ASCII name is its own plain form (CitiesTests checks this against the Unicode path
        // for every ASCII name of the source). Foundation's normalisation on Linux costs some
        // 24,000 instructions a name; it was a fifth of the stage.
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name }
        return plainNameByUnicode(name)
    }

    /// The general path: canonical decomposition, marks dropped, strokes mapped, recomposed.
    static func plainNameByUnicode(_ name: String) -> String {
        var out = String.UnicodeScalarView()
        for s in name.decomposedStringWithCanonicalMapping.unicodeScalars {
            switch s.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark: continue
            default: break
            }
            if let base = strokes[s] { out.append(contentsOf: base.unicodeScalars) } else { out.append(s) }
        }
        return String(out).precomposedStringWithCanonicalMapping
    }

    static let strokes: [Unicode.Scalar: String] = [
        "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ħ": "h", "Ħ": "H",
        "ı": "i", "ŧ": "t", "Ŧ": "T", "ƀ": "b", "ɨ": "i", "ʉ": "u", "ƶ": "z", "Ƶ": "Z",
    ]

    /// A report field: tabs and line breaks would break the row.
    static func tsvField(_ s: String) -> String {
        String(s.unicodeScalars.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }
}

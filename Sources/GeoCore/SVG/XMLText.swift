// XML text for SVG and HTML outputs: every piece of data (names, ids) that goes into markup
// passes through `XMLText.escape`, so a name with quotes or angle brackets cannot break the file.

public enum XMLText {
    /// Escapes text for XML character data and for attribute values in either quote style:
    /// & < > " ' become entities; characters XML 1.0 forbids (C0 controls other than tab,
    /// newline, carriage return) become U+FFFD so the document stays well-formed.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(u)
            default:
                if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }
}

/// Country ids become file names and element ids: only two upper-case ASCII letters pass
/// (ISO 3166-1 alpha-2, CONTRACTS §1), so "../x", "" or "fr" can never escape the output folder.
public enum CountryID {
    public static func isValid(_ id: String) -> Bool {
        let u = Array(id.utf8)
        return u.count == 2 && u.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
    }

    /// The feature's id, or an error naming the file, the feature and the problem.
    public static func require(_ feature: Feature, index: Int, file: String) throws -> String {
        let ref = FeatureRef(index: index, name: feature.string("name"), id: feature.id)
        guard let id = feature.id else {
            throw InputError(file: file, feature: ref, "has no id; an ISO 3166-1 alpha-2 id (two upper-case letters) is required")
        }
        guard isValid(id) else {
            var w = JSONWriter(); w.string(id)
            throw InputError(file: file, feature: ref, "id \(w.string) is not two upper-case letters A–Z; ids name output files and SVG elements, so nothing else is accepted")
        }
        return id
    }
}

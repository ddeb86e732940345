// XML text for SVG and HTML outputs: every piece of data (names, ids) that goes into markup
// passes through `XMLText.escape`, so a name with quotes or angle brackets cannot break the file.
import GeoModel


public enum XMLText {
    /// Escapes text for XML character data and for attribute values in either quote style:
    /// & < > " ' become entities; characters XML 1.0 forbids (C0 controls other than tab,
    /// newline, carriage return) become U+FFFD so the document stays well-formed.
    public static func escape(_ s: String) -> String {
        // Most text (path data, numbers, ids) has nothing to escape: returned as it is, without
        // rebuilding it scalar by scalar. 0xEF leads U+FFFE and U+FFFF, so it takes the slow way.
        if !s.utf8.contains(where: { b in
            b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b == 0x27 || b == 0xEF || (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D)
        }) { return s }
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

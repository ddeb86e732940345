// XML text for SVG and HTML outputs: every piece of data (names, ids) that goes into markup
// passes through `XMLText.escape`, so a name with quotes or angle brackets cannot break the file.
import GeoModel


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

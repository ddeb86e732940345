extension SQL {
    /// Reads back one row of a `values` list as the writers here print it, one row a line:
    /// `  ('…'::uuid, date '2026-01-01', true, false, false, 'FR'),  -- comment`. Returns the
    /// values in order: a string literal (`'…'`, `E'…'`) unescaped, `null` as nil, any other
    /// token as written (`date '2026-01-01'` as `2026-01-01`, a cast dropped). nil when the line
    /// is not such a row. Used to compare two releases' seeds without a database.
    public static func tuple(_ line: Substring) -> [String?]? {
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count && bytes[i] == 0x20 { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "(") else { return nil }
        i += 1
        var values: [String?] = []
        while i < bytes.count {
            while i < bytes.count && bytes[i] == 0x20 { i += 1 }
            guard i < bytes.count else { return nil }
            var escaped = false
            if bytes[i] == UInt8(ascii: "E") && i + 1 < bytes.count && bytes[i + 1] == 0x27 { escaped = true; i += 1 }
            var text: [UInt8] = []
            var quoted = false, isNull = false
            if bytes[i] == 0x27 {
                quoted = true
                i += 1
                while true {
                    guard i < bytes.count else { return nil }
                    let b = bytes[i]
                    if b == 0x27 {
                        if i + 1 < bytes.count && bytes[i + 1] == 0x27 { text.append(0x27); i += 2; continue }
                        i += 1; break
                    }
                    if escaped && b == 0x5C && i + 1 < bytes.count { text.append(bytes[i + 1]); i += 2; continue }
                    text.append(b); i += 1
                }
                // A cast after the literal (`'…'::uuid`) is not part of the value.
                while i < bytes.count && bytes[i] != UInt8(ascii: ",") && bytes[i] != UInt8(ascii: ")") { i += 1 }
            } else {
                var token: [UInt8] = []
                while i < bytes.count && bytes[i] != UInt8(ascii: ",") && bytes[i] != UInt8(ascii: ")") {
                    if bytes[i] == 0x27 {   // date '…': the literal is the value
                        if let close = bytes[(i + 1)...].firstIndex(of: 0x27) { token = Array(bytes[(i + 1)..<close]); i = close + 1; quoted = true; continue }
                    }
                    if !quoted { token.append(bytes[i]) }
                    i += 1
                }
                while let last = token.last, last == 0x20 { token.removeLast() }
                if !quoted && token == Array("null".utf8) { isNull = true }
                text = token
            }
            values.append(isNull ? nil : String(decoding: text, as: UTF8.self))
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ")") { return values }
            i += 1
        }
        return nil
    }
}

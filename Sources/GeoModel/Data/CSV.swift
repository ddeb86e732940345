/// Lines of the CSV files `psql \copy … csv header` writes (the quiz's live schedule, the
/// game's current territory): one parser for both readers.
public enum CSV {
    /// The fields of one CSV line (RFC 4180 quoting; no line breaks inside fields, which psql's
    /// exports of these tables never write). A malformed quote is an error naming file and line.
    public static func fields(_ line: Substring, file: String, line n: Int) throws -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false, wasQuoted = false
        var it = line.makeIterator()
        while let c = it.next() {
            if quoted {
                if c == "\"" {
                    var peek = it
                    if peek.next() == "\"" { field.append("\""); it = peek } else { quoted = false }
                } else { field.append(c) }
            } else if c == "," {
                fields.append(field); field = ""; wasQuoted = false
            } else if c == "\"" && field.isEmpty && !wasQuoted {
                quoted = true; wasQuoted = true
            } else if wasQuoted {
                throw InputError(file: file, "line \(n): text after a closing quote")
            } else {
                field.append(c)
            }
        }
        if quoted { throw InputError(file: file, "line \(n): a quoted field is not closed") }
        fields.append(field)
        return fields
    }
}

import Foundation

/// A tab-separated table as the pipeline's curated and downloaded files are written: `#` lines
/// and blank lines are comments, the first other line is the header, every row keeps its line
/// number for messages. One reader for all of them (the curated tables, GeoNames' cities,
/// the routes), so a byte-order mark, CRLF line ends or a broken row read the same everywhere.
///
/// Split on bytes (tab and line feed are single bytes in UTF-8, never part of another
/// character): much faster than splitting Strings by Character on a 34,000-line file.
public struct TSVTable: Sendable {
    public struct Row: Sendable {
        /// 1-based line number in the file.
        public let line: Int
        public let fields: [String]
    }

    public let path: String
    /// The header's column names, in file order.
    public let columns: [String]
    /// Column name → field index.
    public let index: [String: Int]
    public let rows: [Row]

    /// The field of `row` in `column` (a column of the header; "" where a short row, allowed
    /// by `padShortRows`, has none).
    public subscript(_ row: Row, _ column: String) -> String {
        let i = index[column]!
        return i < row.fields.count ? row.fields[i] : ""
    }

    /// Reads `path`. `required` columns must be in the header (in any order). `trim` strips
    /// white space around fields (and skips lines of white space only): for hand-edited tables.
    /// `padShortRows` accepts rows with fewer fields than the header (the rest read as ""),
    /// as editors that drop trailing tabs write them; otherwise every row has the header's width.
    public static func read(_ path: String, required: [String] = [], trim: Bool = false, padShortRows: Bool = false) throws -> TSVTable {
        var bytes = try FileIO.readBytes(path)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var header: [String]?
        var rows: [Row] = []
        var lineNo = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            lineNo += 1
            var stop = end
            if stop > start && bytes[stop - 1] == 0x0D { stop -= 1 }   // CRLF
            defer { start = end + 1 }
            if stop == start || bytes[start] == 0x23 { continue }       // blank or '#'
            if trim && bytes[start..<stop].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            var fields: [String] = []
            var f = start
            for i in start...stop where i == stop || bytes[i] == 0x09 {
                // A contiguous buffer takes the standard library's fast validating path (an
                // ArraySlice took its generic one, ten times slower on GeoNames' cities).
                let decoded = bytes.withUnsafeBufferPointer { String(validating: UnsafeBufferPointer(rebasing: $0[f..<i]), as: UTF8.self) }
                guard let field = decoded else {
                    throw InputError(file: path, "line \(lineNo): is not valid UTF-8 text")
                }
                fields.append(trim ? field.trimmingCharacters(in: .whitespaces) : field)
                f = i + 1
            }
            guard let h = header else {
                let missing = required.filter { !fields.contains($0) }
                if !missing.isEmpty {
                    throw InputError(file: path, "line \(lineNo): the header lacks the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))")
                }
                header = fields
                continue
            }
            guard fields.count == h.count || (padShortRows && fields.count < h.count) else {
                throw InputError(file: path, "line \(lineNo): has \(fields.count) column\(fields.count == 1 ? "" : "s"), the header has \(h.count) (a broken row: tabs or line breaks inside a field?)")
            }
            rows.append(Row(line: lineNo, fields: fields))
        }
        guard let h = header else { throw InputError(file: path, "has no header row") }
        var index: [String: Int] = [:]
        for (i, c) in h.enumerated() where index[c] == nil { index[c] = i }
        return TSVTable(path: path, columns: h, index: index, rows: rows)
    }
}

import Foundation
import GeoModel

/// The curated TSV tables and code lists in data/ (the ingest stage reads them).
public enum DataTables {
    /// A TSV table keyed by one column; every row must fill the `required` columns.
    public static func loadTable(_ path: String, key: String, required: [String]) throws -> [String: [String: String]] {
        var out: [String: [String: String]] = [:]
        for (n, row) in try FileIO.readTSV(path).enumerated() {
            guard let k = row[key], !k.isEmpty else { throw InputError(file: path, "row \(n + 1) has no \(key)") }
            for col in required where (row[col] ?? "").isEmpty {
                throw InputError(file: path, "row \(k) has no \(col)")
            }
            if out[k] != nil { throw InputError(file: path, "\(key) \(k) appears twice") }
            out[k] = row
        }
        return out
    }

    public static func loadCountrySet(_ path: String) throws -> [String] {
        var codes: [String] = []
        var seen: Set<String> = []
        for (n, line) in try FileIO.readLines(path).enumerated() {
            let code = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if code.isEmpty || code.hasPrefix("#") { continue }
            guard CountryID.isValid(code) else { throw InputError(file: path, "line \(n + 1): \"\(code)\" is not a two-letter upper-case ISO code") }
            guard seen.insert(code).inserted else { throw InputError(file: path, "line \(n + 1): \(code) is listed twice") }
            codes.append(code)
        }
        guard !codes.isEmpty else { throw InputError(file: path, "lists no country codes") }
        return codes
    }
}

import Foundation
import GeoModel
import H3

/// The current territory as `psql \copy territory_hex to … (format csv, header)` writes it:
/// `hex_id,owner_user_id,last_run_id,claimed_at`, claimed_at like `2026-11-21 07:02:11+00`.
/// Rows without an owner (a cell nobody holds) are skipped.
public enum ExistingTerritory {
    public static func read(_ path: String) throws -> [Claim] {
        try read(lines: try FileIO.readLines(path), source: path)
    }

    /// The same rows from lines in that format (`geo-nightly` reads the live table with
    /// `copy (…) to stdout csv header`); `source` names where they came from in errors.
    public static func read(lines: [Substring], source path: String) throws -> [Claim] {
        var header: [String]? = nil
        var out: [Claim] = []
        for (n, line) in lines.enumerated() {
            if line.isEmpty { continue }
            let cols = try CSV.fields(line, file: path, line: n + 1)
            guard let h = header else {
                header = cols.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                for need in ["hex_id", "owner_user_id", "last_run_id", "claimed_at"] where !header!.contains(need) {
                    throw InputError(file: path, "line 1: the header has no \(need) column (expected hex_id,owner_user_id,last_run_id,claimed_at)")
                }
                continue
            }
            func col(_ name: String) -> String {
                let i = h.firstIndex(of: name)!
                return i < cols.count ? cols[i] : ""
            }
            let where_ = "line \(n + 1)"
            guard cols.count == h.count else { throw InputError(file: path, "\(where_) has \(cols.count) columns, the header has \(h.count)") }
            let hex = col("hex_id").lowercased()
            guard let cell = UInt64(hex, radix: 16), hex.count == 15, H3.isValidCell(H3Index(cell)), H3.getResolution(H3Index(cell)) == 9 else {
                throw InputError(file: path, "\(where_): hex_id \"\(col("hex_id"))\" is not an H3 resolution-9 cell")
            }
            if col("owner_user_id").isEmpty { continue }
            guard let owner = RunsReader.canonicalUUID(col("owner_user_id")) else { throw InputError(file: path, "\(where_): owner_user_id \"\(col("owner_user_id"))\" is not a UUID") }
            guard let run = RunsReader.canonicalUUID(col("last_run_id")) else { throw InputError(file: path, "\(where_): last_run_id \"\(col("last_run_id"))\" is not a UUID") }
            guard let at = Timestamp.parse(col("claimed_at")) else { throw InputError(file: path, "\(where_): claimed_at \"\(col("claimed_at"))\" is not a time with a zone") }
            out.append(Claim(cell: cell, owner: owner, run: run, claimedAt: at))
        }
        guard header != nil else { throw InputError(file: path, "is empty (expected the header hex_id,owner_user_id,last_run_id,claimed_at)") }
        return out
    }
}

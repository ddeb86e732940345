import Foundation
import GeoModel
import H3

/// One cell's owner: who, by which run, since when (the run's end time, µs).
public struct Claim: Sendable, Equatable {
    public var cell: UInt64
    public var owner: String
    public var run: String
    public var claimedAt: Int64
    public init(cell: UInt64, owner: String, run: String, claimedAt: Int64) {
        self.cell = cell; self.owner = owner; self.run = run; self.claimedAt = claimedAt
    }

    /// The ownership order: the later claim wins, and at the same instant the larger run id
    /// (lower-case UUID text, which is also PostgreSQL's uuid order). A total order on
    /// (claimed_at, run id), so folding claims in any order, in any grouping — yesterday's
    /// table plus tonight's runs, or all runs at once, or shard by shard — gives the same owner.
    @inline(__always) public func beats(_ other: Claim) -> Bool {
        claimedAt != other.claimedAt ? claimedAt > other.claimedAt : run > other.run
    }
}

/// Cell → winning claim.
public struct Territory: Sendable {
    public private(set) var cells: [UInt64: Claim] = [:]
    public init() {}

    public mutating func offer(_ c: Claim) {
        if let cur = cells[c.cell], !c.beats(cur) { return }
        cells[c.cell] = c
    }

    /// Owned cells sorted by cell index (the order of every output).
    public var sorted: [Claim] { cells.values.sorted { $0.cell < $1.cell } }
}

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

/// The H3 library's cell operations on the raw 64-bit ids the stage stores (its cells are
/// valid resolution-9 cells: produced by polygonToCells or checked on reading).
public enum H3Cell {
    /// The parent at `res` (the cell itself when `res` is not coarser).
    public static func parent(_ h: UInt64, res: Int) -> UInt64 { (try? H3.cellToParent(H3Index(h), res: res))?.value ?? h }
    /// Lower-case hexadecimal, as h3 and the game's `hex_id` write it.
    public static func hex(_ h: UInt64) -> String { H3Index(h).description }
}

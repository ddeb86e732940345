import H3
import SeededRandom
import TerritoryRules

/// `--shard i/n`: the runs are split by the resolution-3 cell their first fix lies in (the
/// parent of its resolution-9 cell), hashed over n shards; yesterday's cells go to the shard
/// of their own resolution-3 parent. A loop is a few km across and a resolution-3 cell about
/// 120 km, so nearly every cell is claimed from one shard only; a loop that crosses a
/// resolution-3 border may claim a cell in two shards' outputs, and merging keeps the claim
/// that wins by the ownership order — which is what the SQL's guarded upsert does when the
/// shards' files are loaded in any order. Runs (rows and reasons) are in exactly one shard.
public struct Shard: Sendable, CustomStringConvertible, Equatable {
    public var index: Int
    public var count: Int
    public init(index: Int, count: Int) { self.index = index; self.count = count }
    public init(parsing s: String) throws {
        let parts = s.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else {
            throw ShardError(text: s)
        }
        index = i; count = n
    }
    public var description: String { "\(index)/\(count)" }

    /// The shard of a resolution-3 cell: a fixed 64-bit mix of its index, so neighbouring
    /// cells spread over the shards and the split never depends on the data.
    public func shardOf(res3 cell: UInt64) -> Int {
        Int(SplitMix64.mix(cell &+ 0x9E37_79B9_7F4A_7C15) % UInt64(count))
    }
    public func contains(cell: UInt64) -> Bool { shardOf(res3: H3Cell.parent(cell, res: 3)) == index }
    public func contains(runHome run: Run, resolution: Int) throws -> Bool {
        guard run.fixCount > 0 else { return index == 0 }
        let c = try H3.latLngToCell(LatLng(latDegrees: run.lat[0], lngDegrees: run.lon[0]), res: resolution)
        return contains(cell: c.value)
    }
}

/// A shard that is not `i/n` with 0 ≤ i < n.
public struct ShardError: Error, CustomStringConvertible, Sendable {
    /// The text that is no shard.
    public var text: String
    public init(text: String) { self.text = text }
    /// What a shard must look like.
    public static let form = "i/n with 0 ≤ i < n"
    public var description: String { "a shard must be \(Self.form) (got \"\(text)\")" }
}

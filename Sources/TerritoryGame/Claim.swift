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

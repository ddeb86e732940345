import Foundation
import GeoModel
import H3

/// One cell's owner: who, by which run, since when (µs): the run's end time capped at the time
/// the server received it (CONTRACTS §8c), and where the run came in the server's arrival order.
public struct Claim: Sendable, Equatable {
    public var cell: UInt64
    public var owner: String
    public var run: String
    public var claimedAt: Int64
    /// The run's place in the server's arrival order (`runs.arrival`; a night's file loaded into
    /// the database: after every stored claim, in file order); 0: none (geo-territory's file
    /// runs, a run stored before runs had the column).
    public var arrival: Int64
    public init(cell: UInt64, owner: String, run: String, claimedAt: Int64, arrival: Int64 = 0) {
        self.cell = cell; self.owner = owner; self.run = run; self.claimedAt = claimedAt; self.arrival = arrival
    }

    /// The ownership order (CONTRACTS §8c, fair time): the later claim wins, and at the same
    /// instant the later arrival, never a client-chosen id; the run id (lower-case UUID text,
    /// PostgreSQL's uuid order) only between runs without one (geo-territory's file). A total order on
    /// (claimed_at, arrival, run id), so folding claims in any order, in any grouping —
    /// yesterday's table plus tonight's runs, or all runs at once, or shard by shard — gives
    /// the same owner. `TerritoryGame.cellsConflict` is the same order in SQL.
    @inline(__always) public func beats(_ other: Claim) -> Bool {
        if claimedAt != other.claimedAt { return claimedAt > other.claimedAt }
        // The same run claimed again (a rerun of its night): one arrival in the database, so
        // equal, whatever arrival a night's fold gave it this time.
        if run == other.run { return false }
        return arrival != other.arrival ? arrival > other.arrival : run > other.run
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

import TerritoryGame

extension TerritoryStage {
    /// The territory after tonight: every owned cell (yesterday's included) and those won tonight,
    /// sorted by cell; tonight's runs, valid loops and the runners owning cells.
    struct Claims {
        var owned: [Claim]
        var won: [Claim]
        var runs: Int
        var valid: Int
        var users: Int
    }

    /// Yesterday's claims and tonight's valid runs folded through the one ownership order.
    static func claimCells(existing: [Claim], runs records: [RunRecord]) -> Claims {
        // A file's runs have no arrival (0): ties by run id, as territory_hex.sql's rule.
        let territory = TerritoryGame.territory(existing: existing, valid: records.lazy.filter(\.verdict.valid).map {
            ($0.cells, $0.userID, $0.id, $0.endedAt, 0)
        })
        let owned = territory.sorted
        let tonight = Set(records.map(\.id))
        return Claims(owned: owned, won: owned.filter { tonight.contains($0.run) }, runs: tonight.count,
                      valid: records.reduce(0) { $0 + ($1.verdict.valid ? 1 : 0) }, users: Set(owned.map(\.owner)).count)
    }
}

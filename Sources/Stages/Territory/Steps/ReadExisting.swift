import GeoModel
import TerritoryGame

extension TerritoryStage {
    /// Yesterday's territory (`--existing`), the shard's cells only; none without the option.
    static func readExisting(_ o: Options, shard: Shard?, log: StageLog) throws -> [Claim] {
        var existing = try o.existing.map { path in try log.step("read \(path)") { try ExistingTerritory.read(path) } } ?? []
        if let s = shard { existing = existing.filter { s.contains(cell: $0.cell) } }
        return existing
    }
}

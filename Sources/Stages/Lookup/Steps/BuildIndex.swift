import GeoLookup
import GeoModel

extension LookupStage {
    /// The index (LookupIndexBuilder), within the byte budget; its statistics go to the report.
    static func buildIndex(_ o: Options, _ countries: [LookupIndexBuilder.Country], _ cities: [LookupIndexBuilder.City],
                           report: inout Report, log: StageLog) throws -> [UInt8] {
        var p = LookupIndexBuilder.Parameters()
        p.maxEdgesPerLeaf = o.maxEdgesPerLeaf; p.seaMaxDepth = o.seaMaxDepth; p.coastBufferKm = o.coastBufferKm; p.threads = o.threads
        var builder = LookupIndexBuilder(countries: countries, cities: cities, parameters: p)
        let bytes: [UInt8]
        do { bytes = try builder.build { log.info($0) } } catch let e as LookupIndexError {
            throw StageError("\(e.input == .cities ? o.places : o.input): \(e.message)")
        }
        report.statistics = builder.statistics
        guard bytes.count <= o.maxBytes else {
            throw StageError("the index would be \(formatCount(bytes.count)) bytes, over the \(formatCount(o.maxBytes))-byte budget (--max-bytes); raise --max-edges or lower --sea-depth")
        }
        return bytes
    }
}

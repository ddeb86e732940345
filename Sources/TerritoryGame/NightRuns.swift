import Foundation
import GeoGEOS
import GeoModel
import TerritoryRules

extension TerritoryGame {
    /// Decodes and judges every run of the FeatureCollection in `buf` (in parallel, one GEOS
    /// context per worker) into the rows a night loads: a night's runs file and a batch of
    /// submitted runs (CONTRACTS §8b) go through this same code. Malformed runs are in
    /// `rejected`, with the field at fault (a run ending after `endsBy`, µs, too); a run outside
    /// `shard` is nil. The runs' claim time is their end, their arrival 0: the caller sets both.
    public static func nightRuns(_ buf: UnsafeBufferPointer<UInt8>, file: String, shard: Shard?, threads: Int,
                                 rules: Rules = Rules(), resolution: Int = 9, endsBy: Int64? = nil,
                                 released: (@Sendable (Range<Int>) -> Void)? = nil) throws -> RunsReader.Read<NightRun?> {
        try RunsReader.eachRun(buf, file: file, workers: threads, makeState: { GEOSContext() }, endsBy: endsBy, released: released) { run, geos -> NightRun? in
            if let s = shard, try !s.contains(runHome: run, resolution: resolution) { return nil }
            return try NightRun(judging: run, rules: rules, resolution: resolution, file: file, geos: geos)
        }
    }
}

import GeoModel
import Parallelism

/// The world stage's index-based parallel maps, over Support/Parallel.swift (one GEOS
/// context per worker thread; results in index order, whatever the scheduling).
public func parallelMap<T: Sendable>(_ count: Int, threads: Int, _ body: @Sendable (Int, GEOSContext) throws -> T) throws -> [T] {
    try Parallel.map(Array(0..<count), workers: threads, makeState: { GEOSContext() }, body)
}

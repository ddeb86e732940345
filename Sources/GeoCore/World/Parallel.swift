import Foundation

/// Runs `body` for every index on `threads` workers (work pulled from a shared counter so
/// big countries do not stall one worker), each worker with its own GEOS context. Results are
/// stored by index, so the output does not depend on scheduling.
func parallelMap<T>(_ count: Int, threads: Int, _ body: (Int, GEOSContext) throws -> T) throws -> [T] {
    var results = [Result<T, Error>?](repeating: nil, count: count)
    let workers = max(1, min(threads, count))
    let lock = NSLock()
    var nextIndex = 0
    results.withUnsafeMutableBufferPointer { out in
        let buffer = out
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let ctx = GEOSContext()
            while true {
                lock.lock(); let i = nextIndex; nextIndex += 1; lock.unlock()
                if i >= count { break }
                buffer[i] = Result { try body(i, ctx) }
            }
        }
    }
    return try results.map { try $0!.get() }
}

/// `parallelMap` for pure Swift work (no GEOS context).
func parallelMap<T>(_ count: Int, threads: Int, _ body: (Int) -> T) -> [T] {
    var results = [T?](repeating: nil, count: count)
    let workers = max(1, min(threads, count))
    let lock = NSLock()
    var nextIndex = 0
    results.withUnsafeMutableBufferPointer { out in
        let buffer = out
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                lock.lock(); let i = nextIndex; nextIndex += 1; lock.unlock()
                if i >= count { break }
                buffer[i] = body(i)
            }
        }
    }
    return results.map { $0! }
}

import Foundation

/// Data-parallel map over the machine's cores with one worker state per thread (for example
/// a GEOSContext or PROJContext, which must not be shared between threads). Results come
/// back in input order, so outputs stay deterministic whatever the scheduling.
public enum Parallel {
    public static var defaultWorkers: Int {
        if let s = ProcessInfo.processInfo.environment["GEO_THREADS"], let n = Int(s), n > 0 { return n }
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// `makeState` runs once per worker thread; `body` gets that worker's state.
    /// The first error thrown (by input order) is rethrown. Items and results cross threads, and
    /// `body` runs on several at once, hence `Sendable`; a worker's state never leaves its thread.
    public static func map<T: Sendable, S, R: Sendable>(_ items: [T], workers: Int = Parallel.defaultWorkers,
                                    makeState: @Sendable () -> S, _ body: @Sendable (T, S) throws -> R) throws -> [R] {
        let n = items.count
        if n == 0 { return [] }
        let w = min(workers, n)
        var results = [Result<R, Error>?](repeating: nil, count: n)
        if w == 1 {
            let state = makeState()
            for i in 0..<n { results[i] = Result { try body(items[i], state) } }
        } else {
            let next = Locked(0)
            let lock = NSLock()
            results.withUnsafeMutableBufferPointer { out in
                let outBase = Slots(base: out.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: w) { _ in
                    lock.lock(); let state = makeState(); lock.unlock()
                    while true {
                        let i = next.withLock { v in defer { v += 1 }; return v }
                        if i >= n { break }
                        let r = Result { try body(items[i], state) }
                        (outBase.base + i).pointee = r
                    }
                }
            }
        }
        return try results.map { try $0!.get() }
    }

    /// The results' storage, written from the workers: each index is handed out once by `next`,
    /// so exactly one worker writes each slot, and the caller reads them after all have joined.
    struct Slots<R>: @unchecked Sendable { let base: UnsafeMutablePointer<Result<R, Error>?> }

    /// `first` on this thread and `second` on another at once, for two independent pieces of
    /// work; `second`'s error (after `first` is done) or `first`'s is rethrown.
    public static func both<A, B: Sendable>(_ first: () throws -> A, _ second: @escaping @Sendable () throws -> B) throws -> (A, B) {
        let other = Background(second)
        let a = try first()
        return (a, try other.value())
    }
}

/// `Parallel.map` over the indexes 0..<count for pure Swift work (no per-thread state).
public func parallelMap<T: Sendable>(_ count: Int, threads: Int, _ body: @Sendable (Int) -> T) -> [T] {
    try! Parallel.map(Array(0..<count), workers: threads, makeState: { () }) { i, _ in body(i) }
}

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
            let next = Counter()
            let lock = NSLock()
            results.withUnsafeMutableBufferPointer { out in
                let outBase = Slots(base: out.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: w) { _ in
                    lock.lock(); let state = makeState(); lock.unlock()
                    while true {
                        let i = next.increment()
                        if i >= n { break }
                        let r = Result { try body(items[i], state) }
                        (outBase.base + i).pointee = r
                    }
                }
            }
        }
        return try results.map { try $0!.get() }
    }

    /// The results' storage, written from the workers: each index is handed out once by `Counter`,
    /// so exactly one worker writes each slot, and the caller reads them after all have joined.
    struct Slots<R>: @unchecked Sendable { let base: UnsafeMutablePointer<Result<R, Error>?> }

    /// Guarded by its lock.
    final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()
        func increment() -> Int { lock.lock(); defer { lock.unlock() }; let v = value; value += 1; return v }
    }
}

/// `Parallel.map` over the indexes 0..<count for pure Swift work (no per-thread state).
public func parallelMap<T: Sendable>(_ count: Int, threads: Int, _ body: @Sendable (Int) -> T) -> [T] {
    try! Parallel.map(Array(0..<count), workers: threads, makeState: { () }) { i, _ in body(i) }
}

/// Work started on another thread at once, its result taken later: `value()` waits for it and
/// returns it or rethrows its error. For two independent pieces of a stage (reading two inputs)
/// that would otherwise run one after the other on a machine with cores to spare. With
/// `onThread: false` (a run told to use one thread) the work runs in the first `value()` call.
///
/// `result` and `deferred` are guarded by the semaphore: the worker writes `result` before it
/// signals, and readers go through `finished` first; the deferred body runs in `value()`, which
/// one thread calls.
public final class Background<T: Sendable>: @unchecked Sendable {
    private var result: Result<T, Error>?
    private var deferred: (@Sendable () throws -> T)?
    private let finished = DispatchSemaphore(value: 0)

    public init(onThread: Bool = true, _ body: @escaping @Sendable () throws -> T) {
        guard onThread else { deferred = body; return }
        DispatchQueue.global().async {
            self.result = Result { try body() }
            self.finished.signal()
        }
    }

    /// Waits for the work (once; later calls return at once).
    public func value() throws -> T {
        if let body = deferred {
            deferred = nil
            result = Result { try body() }
            finished.signal()
        }
        // Through the semaphore every time (and back), so the worker's write of `result` is seen.
        finished.wait(); finished.signal()
        return try result!.get()
    }
}

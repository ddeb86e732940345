import Foundation

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

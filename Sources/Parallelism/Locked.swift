import Foundation

/// A value shared by threads, read and changed only inside `withLock`, under its own lock:
/// the one box this package uses for shared mutable state (counters, tallies), so that the
/// `@unchecked Sendable` it needs is written, and reviewed, once.
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock; what it returns is returned.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}

import Dispatch
import Foundation

/// SIGTERM and SIGINT, caught instead of ending the process: the follower finishes the batch
/// it is in (its transaction commits or rolls back as a whole either way) and exits 0.
/// `@unchecked`: `signalName` is guarded by `lock`; `sources` is written only by `init` and read
/// only by `deinit`.
final class StopRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var signalName: String? = nil
    private var sources: [DispatchSourceSignal] = []

    init(signals: [(Int32, String)] = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")]) {
        for (number, name) in signals {
            signal(number, SIG_IGN)   // the dispatch source sees it; the default action (exit) does not run
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.request(name) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { for s in sources { s.cancel() } }

    private func request(_ name: String) { lock.withLock { if signalName == nil { signalName = name } } }

    /// The signal that asked to stop, nil while none has.
    var requested: String? { lock.withLock { signalName } }

    /// Sleeps up to `seconds`, waking early when a stop is requested. Returns whether it was.
    @discardableResult
    func sleep(_ seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while requested == nil {
            let left = end.timeIntervalSinceNow
            if left <= 0 { return false }
            usleep(UInt32(min(left, 0.1) * 1_000_000))
        }
        return true
    }
}

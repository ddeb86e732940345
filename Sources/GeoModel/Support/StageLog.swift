import Foundation

/// Progress lines on standard error: `[stage  1.23s] message`. Standard output stays free
/// for data a person may pipe elsewhere.
public final class StageLog: Sendable {
    public let stage: String
    public let quiet: Bool
    private let start: UInt64

    public init(stage: String, quiet: Bool = false) {
        self.stage = stage
        self.quiet = quiet
        self.start = DispatchTime.now().uptimeNanoseconds
    }

    public var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    public func info(_ message: @autoclosure () -> String) {
        guard !quiet else { return }
        let line = "[\(stage) \(String(format: "%6.2fs", elapsed))] \(message())\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// The one-line summary a stage prints when it is done.
    public func summary(_ message: String) {
        guard !quiet else { return }
        let line = "[\(stage) done in \(String(format: "%.2fs", elapsed))] \(message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Measures one step and logs it.
    public func step<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let t0 = elapsed
        let r = try body()
        info("\(name) (\(String(format: "%.3fs", elapsed - t0)))")
        return r
    }
}

public func formatCount(_ n: Int) -> String {
    let s = String(n.magnitude)
    var out = ""
    for (i, c) in s.enumerated() {
        if i > 0 && (s.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return n < 0 ? "-" + out : out
}

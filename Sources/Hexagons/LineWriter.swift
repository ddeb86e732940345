import Foundation

/// Buffered standard output (the batch modes write millions of lines).
public struct LineWriter {
    var buf: [UInt8] = []
    public init() { buf.reserveCapacity(1 << 16) }
    public mutating func write(_ s: String) {
        buf.append(contentsOf: s.utf8)
        if buf.count >= 1 << 16 { flush() }
    }
    public mutating func line(_ s: String) { write(s); buf.append(10) }
    public mutating func flush() {
        // Through file descriptor 1 after flushing C's streams (`stdout` is a C global that
        // Swift 6 refuses to read from nonisolated code), so the order of output is kept.
        fflush(nil)
        buf.withUnsafeBufferPointer { p in
            var done = 0
            while done < p.count {
                let n = Foundation.write(1, p.baseAddress! + done, p.count - done)
                if n <= 0 { break }
                done += n
            }
        }
        buf.removeAll(keepingCapacity: true)
    }
}

import Foundation
import GeoModel

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
        // Through file descriptor 1 (FileIO's "-") after flushing C's streams (`stdout` is a C
        // global that Swift 6 refuses to read from nonisolated code), so the order of output is
        // kept. `flush` cannot throw: a failed write (a closed pipe) drops the rest.
        fflush(nil)
        try? FileIO.writeAtomically(buf, to: "-")
        buf.removeAll(keepingCapacity: true)
    }
}

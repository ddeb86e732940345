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
        buf.withUnsafeBufferPointer { p in _ = fwrite(p.baseAddress, 1, p.count, stdout) }
        buf.removeAll(keepingCapacity: true)
        fflush(stdout)
    }
}

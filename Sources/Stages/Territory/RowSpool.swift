import Foundation
import GeoModel

/// Where one run's row of the runs insert lies in the spools.
struct RowRef: Sendable {
    var spool: Int32
    var length: Int32
    var offset: Int
}

/// The runs insert streamed instead of held: each worker appends the rows it formats to its own
/// scratch file (unlinked as soon as it is made, so nothing is left behind whatever happens),
/// and the SQL is written by reading them back in the runs' order. A night's rows are most of
/// its 400 MB of SQL; held in memory they were most of the stage's peak.
final class RowSpools: @unchecked Sendable {
    final class Spool: @unchecked Sendable {
        let index: Int32
        let fd: Int32
        var pending: [UInt8] = []
        var size = 0
        init(index: Int32, fd: Int32) { self.index = index; self.fd = fd; pending.reserveCapacity(1 << 20) }
        deinit { close(fd) }

        func append(_ row: [UInt8]) throws -> RowRef {
            let ref = RowRef(spool: index, length: Int32(row.count), offset: size)
            pending += row
            size += row.count
            if pending.count >= 1 << 20 { try flush() }
            return ref
        }

        func flush() throws {
            try pending.withUnsafeBytes { b in
                var done = 0
                while done < b.count {
                    let n = write(fd, b.baseAddress! + done, b.count - done)
                    guard n > 0 else { throw StageError("cannot write the runs' scratch file: \(String(cString: strerror(errno)))") }
                    done += n
                }
            }
            pending.removeAll(keepingCapacity: true)
        }
    }

    private var spools: [Spool] = []
    private let lock = NSLock()

    /// A new spool for one worker.
    func make() throws -> Spool {
        var template = Array((NSTemporaryDirectory() + "/geo-territory-rows-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw StageError("cannot make a scratch file in \(NSTemporaryDirectory()): \(String(cString: strerror(errno)))") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        lock.lock(); defer { lock.unlock() }
        let s = Spool(index: Int32(spools.count), fd: fd)
        spools.append(s)
        return s
    }

    /// Every spool's rows on disk (call once the workers are done).
    func flush() throws { for s in spools { try s.flush() } }

    /// Appends the row at `ref` to `out`.
    func read(_ ref: RowRef, into out: inout [UInt8]) throws {
        let start = out.count, n = Int(ref.length)
        out += repeatElement(0, count: n)
        let fd = spools[Int(ref.spool)].fd
        let got = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + start, n, off_t(ref.offset)) }
        guard got == n else { throw StageError("cannot read back the runs' scratch file: \(String(cString: strerror(errno)))") }
    }
}

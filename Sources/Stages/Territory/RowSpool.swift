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
/// `spools` is guarded by `lock` while the workers make theirs; `finish` and `copy` run after the
/// workers are done. A `Spool` is written by the one worker that made it, and read after.
final class RowSpools: @unchecked Sendable {
    final class Spool: @unchecked Sendable {
        let index: Int32
        let fd: Int32
        var pending: [UInt8] = []
        var size = 0
        /// The spool mapped for reading, once written (`RowSpools.finish`).
        var mapped: UnsafeRawPointer? = nil
        init(index: Int32, fd: Int32) { self.index = index; self.fd = fd; pending.reserveCapacity(2 << 20) }
        deinit {
            if let m = mapped { munmap(UnsafeMutableRawPointer(mutating: m), size) }
            close(fd)
        }

        /// Appends the row `format` writes, and the ",\n" that follows it in an insert (the last
        /// row of an insert is written without it). The row is formatted straight into the
        /// pending bytes: no buffer of its own to allocate, fill and copy.
        func append(_ format: (inout JSONWriter) -> Void) throws -> RowRef {
            var w = JSONWriter(reserve: 0)
            swap(&w.bytes, &pending)
            let start = w.bytes.count
            format(&w)
            w.bytes.append(0x2C); w.bytes.append(0x0A)
            swap(&w.bytes, &pending)
            let length = pending.count - start
            let ref = RowRef(spool: index, length: Int32(length), offset: size)
            size += length
            if pending.count >= Self.flushAt { try flush() }
            return ref
        }

        /// Pending bytes are written out past this size (with room for a last row before the
        /// buffer would grow).
        static let flushAt = 1 << 20

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

    /// Every spool's rows on disk and mapped for reading (call once the workers are done).
    func finish() throws {
        for s in spools where s.mapped == nil {
            try s.flush()
            guard s.size > 0 else { continue }
            guard let m = mmap(nil, s.size, PROT_READ, MAP_PRIVATE, s.fd, 0), m != MAP_FAILED else {
                throw StageError("cannot map the runs' scratch file: \(String(cString: strerror(errno)))")
            }
            s.mapped = UnsafeRawPointer(m)
        }
    }

    /// Writes bytes `range` of spool `spool` to `fd` straight from its mapping (one copy, in the
    /// kernel), then hands the pages back so the spool never sits whole in memory.
    func copy(spool: Int32, _ range: Range<Int>, to fd: Int32, name: String) throws {
        let s = spools[Int(spool)]
        guard let base = s.mapped else { throw StageError("the runs' scratch file was not finished") }
        var done = range.lowerBound
        while done < range.upperBound {
            let n = write(fd, base + done, range.upperBound - done)
            guard n > 0 else { throw InputError(file: name, "cannot be written: \(String(cString: strerror(errno)))") }
            done += n
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let lo = range.lowerBound / page * page, hi = range.upperBound / page * page
        if hi > lo { madvise(UnsafeMutableRawPointer(mutating: base + lo), hi - lo, MADV_DONTNEED) }
    }
}

import Foundation

/// A file mapped read-only into memory: a night's 500 MB of runs are not copied into the
/// process, and the pages of features already decoded are handed back (`release`), so the
/// file never sits whole in the stage's memory. Anything that is not a regular file within the
/// input bound is refused by `FileIO.readBytes`, with its message (missing, a FIFO, too large).
///
/// `@unchecked` because of its buffer pointer: the bytes are never written after `init`, and
/// `release` only tells the kernel that pages may go (safe from any thread).
public final class MappedFile: @unchecked Sendable {
    public let buffer: UnsafeBufferPointer<UInt8>
    private let mapped: Bool

    public init(path: String) throws {
        var st = stat()
        let regular = stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
        guard regular, Int(st.st_size) <= FileIO.maximumInputBytes, st.st_size > 0,
              case let fd = open(path, O_RDONLY | O_CLOEXEC), fd >= 0 else {
            // FileIO throws the right message; a file it reads after all is kept as bytes.
            let bytes = try FileIO.readBytes(path)
            let p = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
            _ = p.initialize(from: bytes)
            buffer = UnsafeBufferPointer(start: p.baseAddress, count: bytes.count)
            mapped = false
            return
        }
        defer { close(fd) }
        let size = Int(st.st_size)
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw InputError(file: path, "cannot be read: \(String(cString: strerror(errno)))")
        }
        buffer = UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: size)
        mapped = true
    }

    /// Gives back the whole pages inside `range` (they are read again from the page cache if
    /// ever touched again, so this is only about memory, never about correctness).
    public func release(_ range: Range<Int>) {
        guard mapped, let base = buffer.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let lo = (range.lowerBound + page - 1) / page * page, hi = range.upperBound / page * page
        if hi > lo { madvise(UnsafeMutableRawPointer(mutating: base + lo), hi - lo, MADV_DONTNEED) }
    }

    deinit {
        guard let base = buffer.baseAddress else { return }
        if mapped { munmap(UnsafeMutableRawPointer(mutating: base), buffer.count) } else { UnsafeMutableRawPointer(mutating: base).deallocate() }
    }
}

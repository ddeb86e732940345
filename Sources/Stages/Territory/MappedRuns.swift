import Foundation
import GeoModel

/// The runs file mapped read-only into memory: a night's 500 MB are not copied into the
/// process, and the pages of runs already decoded are handed back (`release`), so the file
/// never sits whole in the stage's memory. Anything that is not a regular file within the
/// input bound is refused by `FileIO.readBytes`, with its message (missing, a FIFO, too large).
public final class MappedRuns: @unchecked Sendable {
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

/// A range of the features array that did not decode cleanly (see `RunsReader.eachRun`).
struct ChunkFailed: Error {}

extension RunsReader {
    /// A worker's decoding storage (reused from run to run) and its own state.
    final class Scratch<S> {
        var run = Run(index: 0, id: "", userID: "", lon: [], lat: [], time: [], accuracy: [])
        let state: S
        init(_ s: S) { state = s }
    }

    /// What one byte range of the features array gave: its runs' results and its malformed
    /// features, each with its index counted from the range's first feature.
    struct Chunk<R> {
        var start: Int?
        var items: [(local: Int, id: String, value: R)] = []
        var rejected: [RejectedRun] = []
        var features = 0
        /// Where the first feature after the range starts, or just past the array's `]`.
        var next: Int? = nil
        var arrayEnd: Int? = nil
        var failed = false
    }

    /// The night as read: each run's result with its feature index and id, and the features
    /// that were quarantined, both in file order.
    public struct Read<R> {
        public var runs: [(index: Int, id: String, value: R)] = []
        public var rejected: [RejectedRun] = []
        public var features: Int { runs.count + rejected.count }
    }

    /// Decodes every run of the FeatureCollection and hands each to `body` as soon as it is
    /// decoded, on all workers at once; results in file order, with each run's id. A malformed
    /// feature is skipped and listed in `rejected` (a later feature with an id seen before too).
    ///
    /// The features array is cut into byte ranges that workers take in turn. A range starts at
    /// the first `{` after its first byte that looks like a feature's start (`},` before it, a
    /// key after it); it decodes features one after the other and stops at the first that
    /// starts past its end. A range is kept only when its start is exactly where the range
    /// before it stopped — the sequence a single reader from the file's first byte finds — so a
    /// look-alike inside a string is caught and that range decoded again from the right place.
    /// Anything else wrong (a syntax error, an error from `body`) sends the file through the
    /// plain two-pass reader, whose first error is the one reported, whatever the ranges.
    public static func eachRun<S, R>(
        _ buf: UnsafeBufferPointer<UInt8>, file: String, workers: Int, makeState: () -> S,
        released: ((Range<Int>) -> Void)? = nil, _ body: (inout Run, S) throws -> R
    ) throws -> Read<R> {
        var c = Cursor(buf: buf, file: file)
        if buf.count >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF { c.pos = 3 }
        var type: String? = nil
        var read: Read<R>? = nil
        var problem = false
        do { try c.object { c, key in
            switch key {
            case "type": type = try c.string()
            case "features":
                try c.expect(0x5B)
                if try c.peek() == 0x5D { c.pos += 1; read = Read(); return }
                guard let (got, end) = try features(buf, file: file, from: c.pos, workers: workers, makeState: makeState,
                                                    released: released, body) else { throw ChunkFailed() }
                read = got
                c.pos = end
            default: try c.skip()
            }
        } } catch is ChunkFailed { problem = true }
        if !problem {
            c.ws()
            guard c.pos == buf.count else { throw c.syntax("unexpected characters after the FeatureCollection") }
            guard type == "FeatureCollection" else { throw c.fail("is not a GeoJSON FeatureCollection (type is \(type.map { "\"\($0)\"" } ?? "missing"))") }
            guard var all = read else { throw c.fail("the FeatureCollection has no features array") }
            quarantineDuplicates(&all)
            return all
        }
        // Something failed: the plain reader names the file's first problem (syntax) exactly as
        // it always has; when the file is fine the error came from `body`, and one worker redoes
        // the runs in order to throw it for the right run.
        let (runs, rejected) = try parse(buffer: buf, file: file, workers: workers)
        let state = makeState()
        var out = Read<R>()
        out.rejected = rejected
        for var r in runs { out.runs.append((r.index, r.id, try body(&r, state))) }
        return out
    }

    /// A run whose id an earlier run has is quarantined (the first keeps it).
    static func quarantineDuplicates<R>(_ read: inout Read<R>) {
        var seen: [String: Int] = [:]
        var dup: [RejectedRun] = []
        read.runs.removeAll { r in
            if let first = seen[r.id] { dup.append(RejectedRun(index: r.index, id: r.id, reason: duplicate(first))); return true }
            seen[r.id] = r.index
            return false
        }
        if !dup.isEmpty { read.rejected = (read.rejected + dup).sorted { $0.index < $1.index } }
    }

    /// The features from `start` (the first feature's `{`) to the array's end: the runs' results
    /// and the position after `]`; nil when anything failed.
    static func features<S, R>(
        _ buf: UnsafeBufferPointer<UInt8>, file: String, from start: Int, workers: Int, makeState: () -> S,
        released: ((Range<Int>) -> Void)?, _ body: (inout Run, S) throws -> R
    ) throws -> (Read<R>, Int)? {
        let length = buf.count - start
        // Many small ranges: the last one a worker takes ends the phase, so it should be short.
        let size = max(1 << 16, length / max(1, workers * 64))
        let bounds = Array(stride(from: start, to: buf.count, by: size)) + [buf.count]
        let ranges = (0..<bounds.count - 1).map { bounds[$0]..<bounds[$0 + 1] }
        let base = UInt(bitPattern: buf.baseAddress), count = buf.count
        let chunks = try Parallel.map(Array(ranges.enumerated()), workers: workers, makeState: { Scratch(makeState()) }) { item, scratch -> Chunk<R> in
            let (k, range) = item
            let b = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: base), count: count)
            let s = k == 0 ? range.lowerBound : featureStart(b, from: range.lowerBound)
            var chunk = Chunk<R>()
            if let s, s < range.upperBound { chunk = decode(b, file: file, from: s, until: range.upperBound, scratch: scratch, body) }
            released?(range)
            return chunk
        }
        var out = Read<R>()
        var expected = start
        let scratch = Scratch(makeState())
        for (k, range) in ranges.enumerated() {
            if expected >= range.upperBound { continue }  // a long run before took this range's bytes
            var chunk = chunks[k]
            if chunk.start != expected {
                chunk = decode(buf, file: file, from: expected, until: range.upperBound, scratch: scratch, body)
            }
            if chunk.failed { return nil }
            let offset = out.features
            out.runs += chunk.items.map { (offset + $0.local, $0.id, $0.value) }
            out.rejected += chunk.rejected.map { var r = $0; r.index += offset; return r }
            if let end = chunk.arrayEnd { return (out, end) }
            guard let next = chunk.next else { return nil }
            expected = next
        }
        return nil
    }

    /// The first position ≥ `from` that looks like a feature's start: `{`, then a key, with
    /// `},` before it (white space allowed between).
    static func featureStart(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        while i < b.count {
            guard let p = memchr(b.baseAddress! + i, 0x7B, b.count - i) else { return nil }
            let j = UnsafeRawPointer(p) - UnsafeRawPointer(b.baseAddress!)
            i = j + 1
            func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }
            var a = j + 1
            while a < b.count, isSpace(b[a]) { a += 1 }
            guard a < b.count, b[a] == 0x22 else { continue }
            var q = j - 1
            while q >= 0, isSpace(b[q]) { q -= 1 }
            guard q >= 0, b[q] == 0x2C else { continue }
            q -= 1
            while q >= 0, isSpace(b[q]) { q -= 1 }
            guard q >= 0, b[q] == 0x7D else { continue }
            return j
        }
        return nil
    }

    /// Decodes features from `start` while they start before `limit`. The indexes it gives the
    /// runs count from 0 in this range: right only for the first range, so any failure here is
    /// only a signal (the caller finds the real error with the plain reader).
    static func decode<S, R>(_ b: UnsafeBufferPointer<UInt8>, file: String, from start: Int, until limit: Int,
                             scratch: Scratch<S>, _ body: (inout Run, S) throws -> R) -> Chunk<R> {
        var c = Cursor(buf: b, file: file)
        c.pos = start
        var chunk = Chunk<R>(start: start)
        var local = 0
        while true {
            guard c.pos < b.count, b[c.pos] == 0x7B else { chunk.failed = true; return chunk }
            let featureStart = c.pos
            do {
                try c.feature(index: local, into: &scratch.run)
                chunk.items.append((local, scratch.run.id, try body(&scratch.run, scratch.state)))
            } catch let m as MalformedRun {
                // Quarantined; the reader goes on after the feature's closing brace.
                c.pos = featureStart
                do { try c.skip() } catch { chunk.failed = true; return chunk }
                chunk.rejected.append(m.rejected(index: local))
            } catch {
                chunk.failed = true; return chunk
            }
            local += 1
            chunk.features = local
            c.ws()
            guard c.pos < b.count else { chunk.failed = true; return chunk }
            switch b[c.pos] {
            case 0x2C:
                c.pos += 1
                c.ws()
                if c.pos >= limit { chunk.next = c.pos; return chunk }
            case 0x5D:
                chunk.arrayEnd = c.pos + 1; return chunk
            default:
                chunk.failed = true; return chunk
            }
        }
    }
}

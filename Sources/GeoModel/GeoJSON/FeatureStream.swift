import Foundation
import Parallelism

/// The streaming GeoJSON reader: the features of a FeatureCollection in bytes (a
/// `MappedFile`'s, typically) decoded in parallel by a typed decoder the caller gives — a
/// closure that reads one feature with a `JSONCursor` straight into its own type (a run's
/// arrays of numbers, a polygon's positions). A feature the decoder refuses with
/// `MalformedFeature` is quarantined (`Read.rejected`), the others are read on; a file that is
/// not JSON or not a FeatureCollection stops the reading with the file, line and problem.
///
/// Two readers, one result: `read` finds every feature first (one pass), then decodes them in
/// parallel; `each` decodes while it finds them, byte range by byte range on all workers, and
/// can hand each range's pages back (`released`) — for files too big to hold.
public enum FeatureStream {
    /// A feature the decoder refused: its position, its id when known, and why.
    public struct Rejected: Sendable, Equatable {
        /// 0-based position of the feature in its file.
        public var index: Int
        public var id: String?
        public var reason: String
        public init(index: Int, id: String?, reason: String) { self.index = index; self.id = id; self.reason = reason }
        /// The error a reader that takes no rejects gives for it (file, feature, id, problem).
        public func error(file: String) -> InputError { InputError(file: file, feature: FeatureRef(index: index, name: nil, id: id), reason) }
    }

    /// What was read: each decoded feature with its index, and the rejected ones, in file order.
    public struct Read<R> {
        public var features: [(index: Int, value: R)] = []
        public var rejected: [Rejected] = []
        public var count: Int { features.count + rejected.count }
        public init() {}
    }

    static func rejected(_ m: MalformedFeature, index: Int) -> Rejected {
        Rejected(index: index, id: m.error.feature?.id, reason: m.error.problem)
    }

    /// The plain reader: one pass finds the features, a second decodes them in parallel.
    /// `decode` is called with the cursor on the feature's `{` and the feature's index, and
    /// must consume the feature.
    public static func read<R: Sendable>(_ buf: UnsafeBufferPointer<UInt8>, file: String, workers: Int = Parallel.defaultWorkers,
                               _ decode: @Sendable (inout JSONCursor, Int) throws -> R) throws -> Read<R> {
        try read(buf, file: file, workers: workers, makeState: { () }) { c, i, _ in try decode(&c, i) }
    }

    /// `read` with a state per worker, made once by `makeState` (as `each` gives its decoder).
    static func read<S, R: Sendable>(_ buf: UnsafeBufferPointer<UInt8>, file: String, workers: Int,
                                     makeState: @Sendable () -> S, _ decode: @Sendable (inout JSONCursor, Int, S) throws -> R) throws -> Read<R> {
        var ranges: [Range<Int>] = []
        try collection(buf, file: file) { c in
            try c.array { c in
                let first = try c.peek(), s = c.pos
                try c.skip()  // its syntax first, as a tree of the document would check it
                guard first == 0x7B else {
                    throw InputError(file: file, feature: FeatureRef(index: ranges.count, name: nil), "is a JSON \(kind(first)), not a Feature object")
                }
                ranges.append(s..<c.pos)
            }
        }
        let base = UInt(bitPattern: buf.baseAddress), count = buf.count
        let decoded = try Parallel.map(Array(ranges.enumerated()), workers: workers, makeState: makeState) { item, state -> Result<R, MalformedFeature> in
            let b = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: base), count: count)
            var fc = JSONCursor(buf: b, file: file)
            fc.pos = item.element.lowerBound
            fc.depth = 2
            fc.featureIndex = item.offset
            do { return .success(try decode(&fc, item.offset, state)) } catch let m as MalformedFeature { return .failure(m) }
        }
        var out = Read<R>()
        for (i, d) in decoded.enumerated() {
            switch d {
            case .success(let v): out.features.append((i, v))
            case .failure(let m): out.rejected.append(rejected(m, index: i))
            }
        }
        return out
    }

    /// Walks a FeatureCollection document (its byte-order mark, its top-level object and what
    /// follows it): `features` is called on the features array's `[` and must consume the array.
    /// Other members are skipped (their syntax checked). The errors name what is not a
    /// FeatureCollection.
    static func collection(_ buf: UnsafeBufferPointer<UInt8>, file: String, features: (inout JSONCursor) throws -> Void) throws {
        var c = JSONCursor(buf: buf, file: file)
        c.skipByteOrderMark()
        let first = try c.peek()
        guard first == 0x7B else { throw c.fail("the top level is a JSON \(kind(first)), not a GeoJSON FeatureCollection object") }
        var type: String? = nil
        var found = false
        try c.object { c, key in
            switch key {
            // The first "type" counts, as in a tree of the document (`JSONObject`'s lookup).
            case "type": if type == nil, try c.peek() == 0x22 { type = try c.string() } else { try c.skip() }
            case "features":
                let k = try c.peek()
                guard k == 0x5B else { throw c.fail("\"features\" is a JSON \(kind(k)), not an array") }
                guard !found else { throw c.fail("the FeatureCollection has a second \"features\" array") }
                found = true
                try features(&c)
            default: try c.skip()
            }
        }
        c.ws()
        guard c.pos == buf.count else { throw c.syntax("unexpected characters after the top-level value") }
        guard let type else { throw c.fail("is not a GeoJSON FeatureCollection: the top-level object has no \"type\" (expected \"FeatureCollection\")") }
        guard type == "FeatureCollection" else { throw c.fail("is not a GeoJSON FeatureCollection: the top-level type is \"\(type)\", expected \"FeatureCollection\"") }
        guard found else { throw c.fail("the FeatureCollection has no features array") }
    }

    /// The JSON kind of a value by its first byte, for messages.
    static func kind(_ first: UInt8) -> String {
        switch first {
        case 0x7B: return "object"
        case 0x5B: return "array"
        case 0x22: return "string"
        case 0x74, 0x66: return "boolean"
        case 0x6E: return "null"
        default: return "number"
        }
    }

    /// A range of the features array that did not decode cleanly.
    struct ChunkFailed: Error {}

    /// What one byte range of the features array gave, indexes counted from its first feature.
    struct Chunk<R: Sendable>: Sendable {
        var start: Int?
        var items: [(local: Int, value: R)] = []
        var rejected: [Rejected] = []
        var features = 0
        /// Where the first feature after the range starts, or just past the array's `]`.
        var next: Int? = nil
        var arrayEnd: Int? = nil
        var failed = false
    }

    /// The streaming reader: decodes every feature and hands each to `decode` as soon as it is
    /// found, on all workers at once (each with its own `state`, made once by `makeState`);
    /// results in file order. The result is `read`'s, error for error.
    ///
    /// The features array is cut into byte ranges that workers take in turn. A range starts at
    /// the first `{` after its first byte that looks like a feature's start (`},` before it, a
    /// key after it); it decodes features one after the other and stops at the first that
    /// starts past its end. A range is kept only when its start is exactly where the range
    /// before it stopped — the sequence a single reader from the file's first byte finds — so a
    /// look-alike inside a string is caught and that range decoded again from the right place.
    /// Anything else wrong (a syntax error, another error from `decode`) sends the file through
    /// `read`, whose first error is the one reported, whatever the ranges.
    public static func each<S, R: Sendable>(_ buf: UnsafeBufferPointer<UInt8>, file: String, workers: Int = Parallel.defaultWorkers,
                                  makeState: @Sendable () -> S, released: (@Sendable (Range<Int>) -> Void)? = nil,
                                  _ decode: @Sendable (inout JSONCursor, Int, S) throws -> R) throws -> Read<R> {
        var read: Read<R>? = nil
        do {
            try collection(buf, file: file) { c in
                let (got, end) = try featuresArray(buf, file: file, from: c.pos, workers: workers, makeState: makeState,
                                                   released: released, decode)
                read = got
                c.pos = end
            }
            return read!
        } catch is ChunkFailed {}
        // Something failed: the plain reader names the file's first problem (syntax) exactly; when
        // the file is fine the error came from `decode`, and one worker throws it for the right feature.
        return try FeatureStream.read(buf, file: file, workers: 1, makeState: makeState, decode)
    }

    /// The features array whose `[` is at `start` (or after white space from it), decoded as
    /// `each` does, and the position after its `]`. Throws `ChunkFailed` when a range did not
    /// decode cleanly (the caller reads the file again to name the first problem).
    static func featuresArray<S, R: Sendable>(_ buf: UnsafeBufferPointer<UInt8>, file: String, from start: Int, workers: Int = Parallel.defaultWorkers,
                                    makeState: @Sendable () -> S, released: (@Sendable (Range<Int>) -> Void)? = nil,
                                    _ decode: @Sendable (inout JSONCursor, Int, S) throws -> R) throws -> (Read<R>, Int) {
        var c = JSONCursor(buf: buf, file: file)
        c.pos = start
        c.depth = 1
        try c.expect(0x5B)
        if try c.peek() == 0x5D { return (Read(), c.pos + 1) }
        guard let got = try features(buf, file: file, from: c.pos, workers: workers, makeState: makeState, released: released, decode) else {
            throw ChunkFailed()
        }
        return got
    }

    /// The features from `start` (the first feature's `{`) to the array's end, and the position
    /// after `]`; nil when anything failed.
    static func features<S, R: Sendable>(_ buf: UnsafeBufferPointer<UInt8>, file: String, from start: Int, workers: Int, makeState: @Sendable () -> S,
                               released: (@Sendable (Range<Int>) -> Void)?, _ decode: @Sendable (inout JSONCursor, Int, S) throws -> R) throws -> (Read<R>, Int)? {
        let length = buf.count - start
        // Many small ranges: the last one a worker takes ends the phase, so it should be short.
        let size = max(1 << 16, length / max(1, workers * 64))
        let bounds = Array(stride(from: start, to: buf.count, by: size)) + [buf.count]
        let ranges = (0..<bounds.count - 1).map { bounds[$0]..<bounds[$0 + 1] }
        let base = UInt(bitPattern: buf.baseAddress), count = buf.count
        let chunks = try Parallel.map(Array(ranges.enumerated()), workers: workers, makeState: makeState) { item, state -> Chunk<R> in
            let (k, range) = item
            let b = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: base), count: count)
            let s = k == 0 ? range.lowerBound : featureStart(b, from: range.lowerBound)
            var chunk = Chunk<R>()
            if let s, s < range.upperBound { chunk = decodeRange(b, file: file, from: s, until: range.upperBound, state: state, decode) }
            released?(range)
            return chunk
        }
        var out = Read<R>()
        var expected = start
        let state = makeState()
        for (k, range) in ranges.enumerated() {
            if expected >= range.upperBound { continue }  // a long feature before took this range's bytes
            var chunk = chunks[k]
            if chunk.start != expected {
                chunk = decodeRange(buf, file: file, from: expected, until: range.upperBound, state: state, decode)
            }
            if chunk.failed { return nil }
            let offset = out.count
            out.features += chunk.items.map { (offset + $0.local, $0.value) }
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

    /// Decodes features from `start` while they start before `limit`. Indexes count from 0 in
    /// this range: right only for the first range, so any failure here is only a signal (the
    /// caller finds the real error with the plain reader).
    static func decodeRange<S, R: Sendable>(_ b: UnsafeBufferPointer<UInt8>, file: String, from start: Int, until limit: Int,
                                  state: S, _ decode: (inout JSONCursor, Int, S) throws -> R) -> Chunk<R> {
        var c = JSONCursor(buf: b, file: file)
        c.pos = start
        var chunk = Chunk<R>(start: start)
        var local = 0
        while true {
            guard c.pos < b.count, b[c.pos] == 0x7B else { chunk.failed = true; return chunk }
            let featureStart = c.pos
            c.depth = 2
            c.featureIndex = local
            c.featureID = nil
            do {
                chunk.items.append((local, try decode(&c, local, state)))
            } catch let m as MalformedFeature {
                // Quarantined; the reader goes on after the feature's closing brace.
                c.pos = featureStart
                do { try c.skip() } catch { chunk.failed = true; return chunk }
                chunk.rejected.append(rejected(m, index: local))
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

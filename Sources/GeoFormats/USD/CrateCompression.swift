/// The two compressions of USD's binary crate format (.usdc), written in Swift so the
/// pipeline needs no C library for them:
///
/// - `LZ4Block` + `fastCompress`: what OpenUSD calls TfFastCompression, one byte holding the
///   number of chunks (0: one chunk) followed by an LZ4 *block* (not the LZ4 frame format).
/// - `compressIntegers`: Sdf's integer coding (deltas to the previous value, the most common
///   delta stored once, a 2-bit code per value telling whether it is that common delta or an
///   8/16/32-bit signed delta), then TfFastCompression of the coded bytes.
///
/// Both are deterministic: the same input always gives the same bytes.
enum CrateCompression {
    /// TfFastCompression of `input`: chunk count 0 then one LZ4 block. OpenUSD switches to
    /// several chunks only above LZ4_MAX_INPUT_SIZE (about 2 GB), which a globe never reaches.
    static func fastCompress(_ input: [UInt8]) -> [UInt8] {
        precondition(input.count < 0x7E00_0000, "TfFastCompression chunks are limited to LZ4_MAX_INPUT_SIZE")
        var out: [UInt8] = [0]
        LZ4Block.compress(input, into: &out)
        return out
    }

    /// Sdf_IntegerCompression of 32-bit integers (signed or unsigned bit patterns).
    static func compressIntegers(_ values: [Int32]) -> [UInt8] {
        fastCompress(encodeIntegers(values))
    }

    /// The integer coding before LZ4 (Sdf's `_EncodeIntegers`).
    static func encodeIntegers(_ values: [Int32]) -> [UInt8] {
        let n = values.count
        guard n > 0 else { return [] }
        // The most common delta; ties go to the larger value, as in OpenUSD, so that the bytes
        // match what its own writer would produce. Deltas are counted in an array over their
        // range when it is small (indexes into nearby vertices), else in a dictionary.
        var lo = Int32.max, hi = Int32.min
        values.withUnsafeBufferPointer { v in
            var prev: Int32 = 0
            for x in v { let d = x &- prev; prev = x; lo = min(lo, d); hi = max(hi, d) }
        }
        var common: Int32 = 0, commonCount = 0
        let span = Int(hi) - Int(lo) + 1
        if span <= 4 * n + 4096 {
            var counts = [Int](repeating: 0, count: span)
            counts.withUnsafeMutableBufferPointer { c in
                values.withUnsafeBufferPointer { v in
                    var prev: Int32 = 0
                    for x in v { c[Int(x &- prev) - Int(lo)] += 1; prev = x }
                }
                for i in 0..<span where c[i] >= commonCount && c[i] > 0 {   // ascending: ties keep the larger
                    common = Int32(i + Int(lo)); commonCount = c[i]
                }
            }
        } else {
            var counts: [Int32: Int] = [:]
            var prev: Int32 = 0
            for x in values { counts[x &- prev, default: 0] += 1; prev = x }
            for (d, c) in counts where c > commonCount || (c == commonCount && d > common) { common = d; commonCount = c }
        }

        let codeBytes = (n * 2 + 7) / 8
        var out = [UInt8](repeating: 0, count: 4 + codeBytes + 4 * n)
        let used = out.withUnsafeMutableBufferPointer { o -> Int in
            let c = UInt32(bitPattern: common)
            for k in 0..<4 { o[k] = UInt8((c >> (8 * UInt32(k))) & 0xFF) }
            var vi = 4 + codeBytes
            var prev: Int32 = 0
            values.withUnsafeBufferPointer { v in
                for i in 0..<n {
                    let d = v[i] &- prev
                    prev = v[i]
                    let code: UInt8
                    if d == common {
                        code = 0
                    } else if d >= -128 && d <= 127 {
                        code = 1; o[vi] = UInt8(bitPattern: Int8(d)); vi += 1
                    } else if d >= -32768 && d <= 32767 {
                        code = 2
                        let u = UInt16(bitPattern: Int16(d))
                        o[vi] = UInt8(u & 0xFF); o[vi + 1] = UInt8(u >> 8); vi += 2
                    } else {
                        code = 3
                        let u = UInt32(bitPattern: d)
                        for k in 0..<4 { o[vi + k] = UInt8((u >> (8 * UInt32(k))) & 0xFF) }
                        vi += 4
                    }
                    o[4 + i / 4] |= code << (2 * UInt8(i % 4))
                }
            }
            return vi
        }
        out.removeLast(out.count - used)
        return out
    }
}

/// An LZ4 block compressor (greedy, one hash table of 4-byte sequences), producing the block
/// format that LZ4_decompress_safe reads. It keeps LZ4's end-of-block rules: the last 5 bytes
/// are literals and no match starts within the last 12 bytes.
enum LZ4Block {
    static let minMatch = 4, lastLiterals = 5, matchFindLimit = 12, maxOffset = 65535
    static let hashLog = 16

    /// The worst case of the block format: every byte a literal.
    static func bound(_ n: Int) -> Int { n + n / 255 + 16 }

    static func compress(_ input: [UInt8], into out: inout [UInt8]) {
        let start = out.count
        out += [UInt8](repeating: 0, count: bound(input.count))
        let written = input.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                compress(src, into: UnsafeMutableBufferPointer(rebasing: dst[start...]))
            }
        }
        out.removeLast(out.count - start - written)
    }

    /// Compresses `src` into `dst` (at least `bound(src.count)` bytes); returns the bytes written.
    static func compress(_ src: UnsafeBufferPointer<UInt8>, into dst: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let n = src.count
        var o = 0, anchor = 0
        func length(_ value: Int) {
            var v = value
            while v >= 255 { dst[o] = 255; o += 1; v -= 255 }
            dst[o] = UInt8(v); o += 1
        }
        func sequence(literalsTo end: Int, offset: Int, matchLength: Int) {
            let lit = end - anchor
            let m = matchLength > 0 ? matchLength - minMatch : 0
            dst[o] = UInt8(min(lit, 15) << 4 | min(m, 15)); o += 1
            if lit >= 15 { length(lit - 15) }
            if lit > 0 {
                UnsafeMutableRawPointer(dst.baseAddress! + o).copyMemory(from: src.baseAddress! + anchor, byteCount: lit)
                o += lit
            }
            guard matchLength > 0 else { return }
            dst[o] = UInt8(offset & 0xFF); dst[o + 1] = UInt8(offset >> 8); o += 2
            if m >= 15 { length(m - 15) }
        }
        if n > matchFindLimit {
            // A table no larger than the input needs (it is cleared for every call).
            var bits = 8
            while bits < hashLog && 1 << bits < n { bits += 1 }
            let shift = UInt32(32 - bits)
            let table = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 1 << bits)
            defer { table.deallocate() }
            table.initialize(repeating: -1)
            let raw = UnsafeRawPointer(src.baseAddress!)
            let matchStartLimit = n - matchFindLimit   // a match starts before this
            let matchEndLimit = n - lastLiterals       // and ends at or before this
            var i = 0
            while i < matchStartLimit {
                let seq = raw.loadUnaligned(fromByteOffset: i, as: UInt32.self)
                let h = Int((UInt32(littleEndian: seq) &* 2_654_435_761) >> shift)
                let ref = Int(table[h])
                table[h] = Int32(i)
                if ref >= 0 && i - ref <= maxOffset && raw.loadUnaligned(fromByteOffset: ref, as: UInt32.self) == seq {
                    var len = minMatch
                    while i + len < matchEndLimit && src[ref + len] == src[i + len] { len += 1 }
                    sequence(literalsTo: i, offset: i - ref, matchLength: len)
                    i += len
                    anchor = i
                } else {
                    i += 1
                }
            }
        }
        // The last sequence: literals only.
        sequence(literalsTo: n, offset: 0, matchLength: 0)
        return o
    }

    /// A reference decoder of the block format (for tests; the pipeline only writes).
    static func decompress(_ block: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var i = 0
        while i < block.count {
            let token = Int(block[i]); i += 1
            var lit = token >> 4
            if lit == 15 {
                while true { guard i < block.count else { return nil }; let b = Int(block[i]); i += 1; lit += b; if b != 255 { break } }
            }
            guard i + lit <= block.count else { return nil }
            out.append(contentsOf: block[i..<(i + lit)]); i += lit
            if i == block.count { return out }
            guard i + 2 <= block.count else { return nil }
            let offset = Int(block[i]) | Int(block[i + 1]) << 8; i += 2
            var len = token & 15
            if len == 15 {
                while true { guard i < block.count else { return nil }; let b = Int(block[i]); i += 1; len += b; if b != 255 { break } }
            }
            len += minMatch
            guard offset >= 1 && offset <= out.count else { return nil }
            let from = out.count - offset
            for k in 0..<len { out.append(out[from + k]) }
        }
        return out
    }
}

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
        // match what its own writer would produce. Deltas in ±2^15 are counted in an array
        // (the common case: indexes into nearby vertices), the rest in a dictionary.
        let window = 1 << 15
        var small = [Int](repeating: 0, count: 2 * window)
        var large: [Int32: Int] = [:]
        values.withUnsafeBufferPointer { v in
            small.withUnsafeMutableBufferPointer { counts in
                var prev: Int32 = 0
                for x in v {
                    let d = x &- prev
                    prev = x
                    if d > -Int32(window) && d < Int32(window) { counts[Int(d) + window] += 1 } else { large[d, default: 0] += 1 }
                }
            }
        }
        var common: Int32 = 0, commonCount = 0
        for (i, c) in small.enumerated() where c > 0 && c >= commonCount {
            common = Int32(i - window); commonCount = c   // ascending, so ties keep the larger
        }
        for (d, c) in large where c > commonCount || (c == commonCount && d > common) { common = d; commonCount = c }

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

    static func appendLE<T: FixedWidthInteger>(_ out: inout [UInt8], _ v: T) {
        var x = v.littleEndian
        withUnsafeBytes(of: &x) { out.append(contentsOf: $0) }
    }
}

/// An LZ4 block compressor (greedy, one hash table of 4-byte sequences), producing the block
/// format that LZ4_decompress_safe reads. It keeps LZ4's end-of-block rules: the last 5 bytes
/// are literals and no match starts within the last 12 bytes.
enum LZ4Block {
    static let minMatch = 4, lastLiterals = 5, matchFindLimit = 12, maxOffset = 65535
    static let hashLog = 16

    static func compress(_ input: [UInt8], into out: inout [UInt8]) {
        let n = input.count
        out.reserveCapacity(out.count + n / 2 + 16)
        var anchor = 0
        input.withUnsafeBufferPointer { src in
            guard n > matchFindLimit else { return }
            var table = [Int32](repeating: -1, count: 1 << hashLog)
            @inline(__always) func read32(_ i: Int) -> UInt32 {
                UInt32(src[i]) | UInt32(src[i + 1]) << 8 | UInt32(src[i + 2]) << 16 | UInt32(src[i + 3]) << 24
            }
            @inline(__always) func hash(_ v: UInt32) -> Int { Int((v &* 2_654_435_761) >> UInt32(32 - hashLog)) }
            let matchStartLimit = n - matchFindLimit   // a match starts before this
            let matchEndLimit = n - lastLiterals       // and ends at or before this
            var i = 0
            while i < matchStartLimit {
                let seq = read32(i)
                let h = hash(seq)
                let ref = Int(table[h])
                table[h] = Int32(i)
                if ref >= 0 && i - ref <= maxOffset && read32(ref) == seq {
                    var len = minMatch
                    while i + len < matchEndLimit && src[ref + len] == src[i + len] { len += 1 }
                    emit(src, literalsFrom: anchor, to: i, offset: i - ref, matchLength: len, into: &out)
                    i += len
                    anchor = i
                } else {
                    i += 1
                }
            }
        }
        // The last sequence: literals only.
        input.withUnsafeBufferPointer { src in
            emit(src, literalsFrom: anchor, to: n, offset: 0, matchLength: 0, into: &out)
        }
    }

    @inline(__always)
    static func emit(_ src: UnsafeBufferPointer<UInt8>, literalsFrom start: Int, to end: Int, offset: Int, matchLength: Int,
                     into out: inout [UInt8]) {
        let lit = end - start
        let m = matchLength > 0 ? matchLength - minMatch : 0
        out.append(UInt8(min(lit, 15) << 4 | min(m, 15)))
        if lit >= 15 { appendLength(lit - 15, &out) }
        out.append(contentsOf: src[start..<end])
        guard matchLength > 0 else { return }
        out.append(UInt8(offset & 0xFF)); out.append(UInt8(offset >> 8))
        if m >= 15 { appendLength(m - 15, &out) }
    }

    @inline(__always)
    static func appendLength(_ value: Int, _ out: inout [UInt8]) {
        var v = value
        while v >= 255 { out.append(255); v -= 255 }
        out.append(UInt8(v))
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

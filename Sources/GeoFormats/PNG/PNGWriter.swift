import Foundation
import GeoCompression
import GeoModel

/// An 8-bit RGB picture, rows top to bottom, 3 bytes a pixel.
public struct RGBImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3)
        self.width = width; self.height = height; self.pixels = pixels
    }
    public subscript(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let i = 3 * (y * width + x)
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}

/// Writes PNG (8-bit RGB, non-interlaced): IHDR, one IDAT of zlib (deflate) data, IEND.
/// Each row gets the filter (None, Sub, Up or Paeth) with the smallest sum of absolute
/// differences, the usual heuristic; the output is a pure function of the pixels.
public enum PNGWriter {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func encode(_ img: RGBImage, level: Int32 = 6) throws -> [UInt8] {
        let filtered = filter(img)
        let z: [UInt8]
        do { z = try Zlib.compress(filtered, level: level) } catch { throw StageError("\(error)") }

        var out = signature
        out.reserveCapacity(z.count + 64)
        var ihdr: [UInt8] = []
        be32(&ihdr, img.width); be32(&ihdr, img.height)
        ihdr += [8, 2, 0, 0, 0]   // bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace
        chunk(&out, "IHDR", ihdr)
        chunk(&out, "IDAT", z)
        chunk(&out, "IEND", [])
        return out
    }

    static func be32(_ out: inout [UInt8], _ v: Int) {
        let x = UInt32(v)
        out += [UInt8(x >> 24), UInt8((x >> 16) & 0xFF), UInt8((x >> 8) & 0xFF), UInt8(x & 0xFF)]
    }

    static func chunk(_ out: inout [UInt8], _ type: String, _ body: [UInt8]) {
        be32(&out, body.count)
        let start = out.count
        out += Array(type.utf8)
        out += body
        let crc = Zlib.crc32(out[start...])
        be32(&out, Int(crc))
    }

    /// The scanlines with their filter-type bytes. One pass over a row sums the four
    /// filters' costs without storing them; only the chosen filter is then written (the row
    /// above the first is zeros, as the PNG standard reads it).
    static func filter(_ img: RGBImage) -> [UInt8] {
        let stride = img.width * 3
        var out = [UInt8](repeating: 0, count: (stride + 1) * img.height)
        guard stride > 0 else { return out }
        let zeros = [UInt8](repeating: 0, count: stride)
        // |v| of the byte read as a signed difference: min(v, 256 − v).
        @inline(__always) func cost(_ v: UInt8) -> Int {
            let s = Int(Int8(bitPattern: v))
            return (s ^ (s >> 63)) &- (s >> 63)
        }
        img.pixels.withUnsafeBufferPointer { px in
        zeros.withUnsafeBufferPointer { zero in
        out.withUnsafeMutableBufferPointer { o in
            let left = min(3, stride)
            for y in 0..<img.height {
                let row = px.baseAddress! + y * stride
                let prev = y > 0 ? row - stride : zero.baseAddress!
                var c0 = 0, c1 = 0, c2 = 0, c3 = 0
                for i in 0..<left {
                    // No pixel to the left: Sub is None, Paeth is Up.
                    let x = row[i], u = x &- prev[i]
                    c0 &+= cost(x); c1 &+= cost(x); c2 &+= cost(u); c3 &+= cost(u)
                }
                for i in left..<stride {
                    let x = row[i], a = row[i - 3], b = prev[i]
                    c0 &+= cost(x)
                    c1 &+= cost(x &- a)
                    c2 &+= cost(x &- b)
                    c3 &+= cost(x &- paeth(a, b, prev[i - 3]))
                }
                // The smallest sum, the first filter on a tie.
                var best = 0, bestCost = c0
                if c1 < bestCost { best = 1; bestCost = c1 }
                if c2 < bestCost { best = 2; bestCost = c2 }
                if c3 < bestCost { best = 3 }
                let dst = o.baseAddress! + y * (stride + 1)
                dst[0] = best == 3 ? 4 : UInt8(best)   // PNG filter 4 is Paeth
                let d = dst + 1
                switch best {
                case 0:
                    d.update(from: row, count: stride)
                case 1:
                    for i in 0..<left { d[i] = row[i] }
                    for i in left..<stride { d[i] = row[i] &- row[i - 3] }
                case 2:
                    for i in 0..<stride { d[i] = row[i] &- prev[i] }
                default:
                    for i in 0..<left { d[i] = row[i] &- prev[i] }
                    for i in left..<stride { d[i] = row[i] &- paeth(row[i - 3], prev[i], prev[i - 3]) }
                }
            }
        }
        }
        }
        return out
    }

    @inline(__always) static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        // p = a + b − c; pa = |p − a| = |b − c|, pb = |a − c|, pc = |a + b − 2c|.
        @inline(__always) func magnitude(_ x: Int) -> Int { (x ^ (x >> 63)) &- (x >> 63) }
        let ia = Int(a), ib = Int(b), ic = Int(c)
        let pa = magnitude(ib &- ic), pb = magnitude(ia &- ic), pc = magnitude(ia &+ ib &- 2 &* ic)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Encodes and writes atomically.
    public static func write(_ img: RGBImage, to path: String) throws {
        try FileIO.writeAtomically(try encode(img), to: path)
    }
}

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

    /// The scanlines with their filter-type bytes. Each filter has its own loop over the row
    /// (no per-byte switch; the row above the first is zeros, as the PNG standard reads it).
    static func filter(_ img: RGBImage) -> [UInt8] {
        let stride = img.width * 3
        var out = [UInt8](repeating: 0, count: (stride + 1) * img.height)
        guard stride > 0 else { return out }
        var candidates = [UInt8](repeating: 0, count: 4 * stride)
        let zeros = [UInt8](repeating: 0, count: stride)
        @inline(__always) func cost(_ v: UInt8) -> Int { v < 128 ? Int(v) : 256 - Int(v) }
        img.pixels.withUnsafeBufferPointer { px in
        zeros.withUnsafeBufferPointer { zero in
        candidates.withUnsafeMutableBufferPointer { cand in
        out.withUnsafeMutableBufferPointer { o in
            let left = min(3, stride)
            for y in 0..<img.height {
                let row = px.baseAddress! + y * stride
                let prev = y > 0 ? row - stride : zero.baseAddress!
                let none = cand.baseAddress!, sub = none + stride, up = sub + stride, pae = up + stride
                var costs = (0, 0, 0, 0)
                for i in 0..<stride { let v = row[i]; none[i] = v; costs.0 += cost(v) }
                for i in 0..<left { let v = row[i]; sub[i] = v; costs.1 += cost(v) }
                for i in left..<stride { let v = row[i] &- row[i - 3]; sub[i] = v; costs.1 += cost(v) }
                for i in 0..<stride { let v = row[i] &- prev[i]; up[i] = v; costs.2 += cost(v) }
                for i in 0..<left { let v = row[i] &- paeth(0, prev[i], 0); pae[i] = v; costs.3 += cost(v) }
                for i in left..<stride { let v = row[i] &- paeth(row[i - 3], prev[i], prev[i - 3]); pae[i] = v; costs.3 += cost(v) }
                // The smallest sum, the first filter on a tie.
                var best = 0, bestCost = costs.0
                if costs.1 < bestCost { best = 1; bestCost = costs.1 }
                if costs.2 < bestCost { best = 2; bestCost = costs.2 }
                if costs.3 < bestCost { best = 3 }
                o[y * (stride + 1)] = best == 3 ? 4 : UInt8(best)   // PNG filter 4 is Paeth
                (o.baseAddress! + y * (stride + 1) + 1).update(from: none + best * stride, count: stride)
            }
        }
        }
        }
        }
        return out
    }

    @inline(__always) static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Encodes and writes atomically.
    public static func write(_ img: RGBImage, to path: String) throws {
        try FileIO.writeAtomically(try encode(img), to: path)
    }
}

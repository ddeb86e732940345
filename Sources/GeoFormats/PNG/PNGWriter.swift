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

    /// The scanlines with their filter-type bytes.
    static func filter(_ img: RGBImage) -> [UInt8] {
        let stride = img.width * 3
        var out = [UInt8](repeating: 0, count: (stride + 1) * img.height)
        var candidate = [[UInt8]](repeating: [UInt8](repeating: 0, count: stride), count: 4)
        img.pixels.withUnsafeBufferPointer { px in
            for y in 0..<img.height {
                let row = px.baseAddress! + y * stride
                let prev: UnsafePointer<UInt8>? = y > 0 ? row - stride : nil
                var best = 0, bestCost = Int.max
                for f in 0..<4 {
                    var cost = 0
                    candidate[f].withUnsafeMutableBufferPointer { c in
                        for i in 0..<stride {
                            let x = row[i]
                            let a: UInt8 = i >= 3 ? row[i - 3] : 0
                            let b: UInt8 = prev?[i] ?? 0
                            let v: UInt8
                            switch f {
                            case 0: v = x
                            case 1: v = x &- a
                            case 2: v = x &- b
                            default:
                                let cc: UInt8 = i >= 3 ? (prev?[i - 3] ?? 0) : 0
                                v = x &- paeth(a, b, cc)
                            }
                            c[i] = v
                            cost += v < 128 ? Int(v) : 256 - Int(v)
                        }
                    }
                    if cost < bestCost { bestCost = cost; best = f }
                }
                let filterType: UInt8 = best == 3 ? 4 : UInt8(best)   // PNG filter 4 is Paeth
                out[y * (stride + 1)] = filterType
                candidate[best].withUnsafeBufferPointer { c in
                    out.withUnsafeMutableBufferPointer { o in
                        (o.baseAddress! + y * (stride + 1) + 1).update(from: c.baseAddress!, count: stride)
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

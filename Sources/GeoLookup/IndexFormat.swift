// The lookup index file ("GEOLOOK1"): one binary file the pipeline writes (`make lookup`,
// dist/lookup/lookup.bin) and the apps read with `GeoLookup(contentsOf:)`.
//
// All integers little-endian, every section starts on a 4-byte boundary.
//
//   header, 64 bytes
//     0   8 bytes  magic "GEOLOOK1"
//     8   u32      total file length in bytes
//     12  u32      C, number of countries
//     16  u32      N, number of quadtree nodes (the first 64,800 are the 1° roots)
//     20  u32      W, number of 16-bit words of leaf data
//     24  u32      K, number of cities
//     28  u32      S, number of bytes of string data
//     32  f64      coast buffer in km (22.224, 12 nautical miles)
//     40  u32      checksum of every byte after the header (see `checksum`)
//     44  20 bytes zero
//   countries    C × (u32 offset, u32 length) of the ISO code in the strings, sorted by code
//   cities       K × 20 bytes: i32 lat, i32 lon (micro-degrees), u32 population,
//                u32 name offset, u16 name length, u16 country (index, 0xFFFF = none);
//                sorted by (city cell, -population, name)
//   city cells   16,201 × u32: cities of 2° cell c (row-major from 90°S, 180°W; 180 × 90
//                cells) are cities[start[c] ..< start[c+1]]
//   nodes        N × u32, see `Node`
//   leaf words   W × u16 (+ 2 bytes of padding when W is odd), see `LeafLayout`
//   strings      S bytes of UTF-8
//
// Nodes: roots are the 1° cells, row-major from (90°S, 180°W): root(row, col) covers
// lat [-90+row, -89+row), lon [-180+col, -179+col). A node's u32 has a 2-bit kind:
//   0b00 internal: bits 0–29 index the first of 4 children (SW, SE, NW, NE; a child
//        covers the half-open quarter [lo, mid) or [mid, hi) on each axis), always
//        greater than the node's own index;
//   0b01 uniform: bits 0–29 the answer for every point in the cell, a country index or
//        0x3FFF_FFFF for none (open sea farther than the buffer from any coast);
//   0b10 leaf with border pieces: bits 0–29 the offset of the leaf in the leaf words;
//   0b11 sea near several coasts: every point is at sea, the answer is the nearest
//        coast's country within the buffer, found by distance at query time.
//
// A leaf (all u16 words), in the cell's local coordinates: u = (lon − lon0) / width ·
// 65535, v = (lat − lat0) / height · 65535, rounded:
//   k | seaMode << 8          k ≤ 16 countries involved in the cell; seaMode 0 = open sea,
//                             1 = all sea points belong to `seaOwner`, 2 = nearest coast
//   seaOwner                  country index (for seaMode 1)
//   refU, refV                a reference point at least a few units from every piece
//   k × country index         ascending
//   insideMask                bit i set ⇔ the reference point lies in country i of the list
//   pieceCount
//   pieceCount × { ownerMask, vertexCount, vertexCount × (u, v) }
//                             polylines of border edges clipped to the cell; ownerMask has
//                             the bit of each country whose boundary the edges are (two for a
//                             shared border, one for a coast)
// Membership of a point p: walk from the reference point to p; each crossed edge flips the
// bits of its owners; p lies in the countries whose bit is set in insideMask ^ flips.
import Foundation

enum IndexFormat {
    static let magic: [UInt8] = Array("GEOLOOK1".utf8)
    static let headerSize = 64
    static let rootColumns = 360
    static let rootRows = 180
    static let rootCount = rootColumns * rootRows
    static let cityCellDegrees = 2.0
    static let cityColumns = 180
    static let cityRows = 90
    static let cityCellCount = cityColumns * cityRows
    static let cityRecordSize = 20
    static let localScale = 65535.0
    static let maxCountriesPerLeaf = 16

    static let kindShift: UInt32 = 30
    static let payloadMask: UInt32 = 0x3FFF_FFFF
    static let kindInternal: UInt32 = 0
    static let kindUniform: UInt32 = 1
    static let kindLeaf: UInt32 = 2
    static let kindSeaDistance: UInt32 = 3
    static let noCountry: UInt32 = 0x3FFF_FFFF
    static let noCountry16: UInt16 = 0xFFFF

    static let seaOpen: UInt16 = 0
    static let seaOwned: UInt16 = 1
    static let seaNearest: UInt16 = 2

    /// FNV-1a over little-endian 64-bit words (the last word zero-padded), folded to 32
    /// bits: a fraction of a millisecond for 5 MB, and any corrupt byte changes it.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        let n = bytes.count, words = n / 8
        for i in 0..<words {
            h = (h ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))) &* 0x0000_0100_0000_01B3
        }
        var last: UInt64 = 0
        for i in (8 * words)..<n { last |= UInt64(bytes[i]) << UInt64(8 * (i - 8 * words)) }
        h = (h ^ last ^ UInt64(n)) &* 0x0000_0100_0000_01B3
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }
}

/// Why an index file could not be read.
public struct LookupIndexError: Error, CustomStringConvertible, Equatable {
    /// Which input the problem is in, so a caller can name the right file.
    public enum Input: Sendable, Equatable { case countries, cities }
    public let message: String
    public let input: Input
    public init(_ message: String, in input: Input = .countries) { self.message = message; self.input = input }
    public var description: String { message }
}

/// A little-endian byte writer, used by the builder.
struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes.append(UInt8(v & 0xFF)); bytes.append(UInt8(v >> 8)) }
    mutating func u32(_ v: UInt32) { for s in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((v >> UInt32(s)) & 0xFF)) } }
    mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    mutating func f64(_ v: Double) { let b = v.bitPattern; for s in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8((b >> UInt64(s)) & 0xFF)) } }
    mutating func align4() { while bytes.count % 4 != 0 { bytes.append(0) } }
    mutating func put(u32 v: UInt32, at offset: Int) {
        for i in 0..<4 { bytes[offset + i] = UInt8((v >> UInt32(8 * i)) & 0xFF) }
    }
}

/// Little-endian reads from raw bytes, bounds-checked by the caller.
extension UnsafeRawBufferPointer {
    func u16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 {
        UInt32(self[at]) | UInt32(self[at + 1]) << 8 | UInt32(self[at + 2]) << 16 | UInt32(self[at + 3]) << 24
    }
    func i32(_ at: Int) -> Int32 { Int32(bitPattern: u32(at)) }
    func f64(_ at: Int) -> Double {
        var b: UInt64 = 0
        for i in 0..<8 { b |= UInt64(self[at + i]) << UInt64(8 * i) }
        return Double(bitPattern: b)
    }
}

// One row of PostgreSQL's binary COPY format (`copy … from stdin with (format binary)`, "COPY"
// in the PostgreSQL manual; GeoPostgres's copyIn frames the rows with the signature and the end
// mark): a field count, then each field as its byte length and the type's binary form, integers
// big-endian. Geometry fields carry extended WKB, which PostGIS's binary input reads directly:
// no hex or text to parse, half the bytes of hex.

import Foundation

/// One tuple of a binary COPY, built field by field in the table's column order.
public struct CopyBinaryRow {
    /// timestamptz counts microseconds from 2000-01-01T00:00:00Z.
    static let postgresEpochMicroseconds: Int64 = 946_684_800 * 1_000_000
    public private(set) var bytes: [UInt8] = []

    public init(fields: Int, reserve: Int = 128) {
        bytes.reserveCapacity(reserve)
        bigEndian(UInt16(fields))
    }

    @inline(__always) mutating func bigEndian<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func null() { bigEndian(Int32(-1)) }

    /// A uuid from its canonical text (8-4-4-4-12 hex digits, either case).
    public mutating func uuid(_ text: String) {
        bigEndian(Int32(16))
        var high: UInt8? = nil
        for c in text.utf8 {
            let v: UInt8
            switch c {
            case 0x30...0x39: v = c - 0x30
            case 0x61...0x66: v = c - 0x61 + 10
            case 0x41...0x46: v = c - 0x41 + 10
            default: continue   // the dashes
            }
            if let h = high { bytes.append(h << 4 | v); high = nil } else { high = v }
        }
    }

    /// A timestamptz, given in microseconds since 1970-01-01T00:00:00Z.
    public mutating func timestamp(microsecondsSince1970 t: Int64) {
        bigEndian(Int32(8)); bigEndian(t - Self.postgresEpochMicroseconds)
    }

    public mutating func float8(_ d: Double) { bigEndian(Int32(8)); bigEndian(d.bitPattern) }

    public mutating func bool(_ b: Bool) { bigEndian(Int32(1)); bytes.append(b ? 1 : 0) }

    /// A field whose bytes `body` appends (an extended WKB geometry, say); its length is
    /// written in front once they are known. Returns the field's range in `bytes`, length included.
    @discardableResult
    public mutating func field(_ body: (inout EWKBWriter) -> Void) -> Range<Int> {
        let start = bytes.count
        bigEndian(Int32(0))
        var w = EWKBWriter(out: bytes)
        bytes = []
        body(&w)
        bytes = w.out
        let length = UInt32(bytes.count - start - 4).bigEndian
        withUnsafeBytes(of: length) { for k in 0..<4 { bytes[start + k] = $0[k] } }
        return start..<bytes.count
    }
}

/// Extended WKB (little-endian, with an SRID), as PostGIS's binary input reads a geometry.
public struct EWKBWriter {
    public var out: [UInt8]

    public init(out: [UInt8]) { self.out = out }

    @inline(__always) public mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
    @inline(__always) public mutating func f64(_ d: Double) { withUnsafeBytes(of: d.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
    /// Byte order (1: little-endian), the geometry type with the SRID flag, the SRID.
    public mutating func header(type: UInt32, srid: UInt32 = 4326) { out.append(1); u32(type | 0x2000_0000); u32(srid) }

    /// WKB geometry types.
    public static let lineString: UInt32 = 2, polygon: UInt32 = 3
}

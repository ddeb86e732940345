import CZlib

/// The zlib calls the formats need (PNG's deflate stream and chunk CRCs, zip CRCs), behind
/// Swift types so that no other target imports the C module.
public enum Zlib {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var status: Int32
        public var description: String { "zlib compress2 failed with status \(status)" }
    }

    /// A zlib stream (RFC 1950) of `bytes` at `level` (0–9), as `compress2` writes it.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) throws -> [UInt8] {
        var bound = compressBound(uLong(bytes.count))
        var z = [UInt8](repeating: 0, count: Int(bound))
        let status = bytes.withUnsafeBufferPointer { src in
            z.withUnsafeMutableBufferPointer { dst in
                compress2(dst.baseAddress, &bound, src.baseAddress, uLong(src.count), level)
            }
        }
        guard status == Z_OK else { throw Failure(status: status) }
        z.removeSubrange(Int(bound)...)
        return z
    }

    /// CRC-32 (ISO 3309, as PNG and zip use it) of `bytes`, continuing from `crc`.
    public static func crc32<C: Collection>(_ bytes: C, continuing crc: UInt32 = 0) -> UInt32 where C.Element == UInt8 {
        if let r = bytes.withContiguousStorageIfAvailable({ p in CZlib.crc32(uLong(crc), p.baseAddress, uInt(p.count)) }) {
            return UInt32(truncatingIfNeeded: r)
        }
        let a = Array(bytes)
        return a.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: CZlib.crc32(uLong(crc), $0.baseAddress, uInt($0.count))) }
    }
}

import GeoCompression

/// A USDZ package: a zip archive with the rules of Pixar's "Usdz file format specification":
/// no compression (method 0, stored), no encryption, every file's data starting at a multiple
/// of 64 bytes from the start of the archive (so a reader can map it in place), and the root
/// layer as the first file. The padding goes in the local header's extra field (id 0x1986,
/// as OpenUSD's own writer does); the central directory repeats no extra field. Times are fixed
/// (1980-01-01 00:00, the zip epoch) so the same files always give the same bytes.
public enum USDZPackage {
    public static let alignment = 64
    static let paddingExtraID: UInt16 = 0x1986

    public struct PackageError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The archive holding `files` in the given order (the first is the root layer).
    public static func archive(_ files: [(name: String, data: [UInt8])]) throws -> [UInt8] {
        Array(try archiveParts(files).joined())
    }

    /// The same package in parts (each file's data is its own part, not copied), for writing
    /// with `FileIO.writeAtomically(parts:)`.
    public static func archiveParts(_ files: [(name: String, data: [UInt8])]) throws -> [[UInt8]] {
        guard let first = files.first else { throw PackageError(description: "a usdz package needs at least its root layer") }
        let layerExtensions = [".usdc", ".usda", ".usd"]
        guard layerExtensions.contains(where: { first.name.hasSuffix($0) }) else {
            throw PackageError(description: "the first file of a usdz package must be a USD layer, not \(first.name)")
        }
        var seen = Set<String>()
        for f in files {
            guard !f.name.isEmpty, f.name.utf8.count < 0xFFFF, !f.name.hasPrefix("/"), !f.name.contains("\\"),
                  !f.name.split(separator: "/").contains("..") else {
                throw PackageError(description: "usdz file name \"\(f.name)\" is not a relative path inside the package")
            }
            guard seen.insert(f.name).inserted else { throw PackageError(description: "usdz file name \"\(f.name)\" appears twice") }
            guard f.data.count < 0xFFFF_FFFF else { throw PackageError(description: "\(f.name) is too large for a zip without zip64") }
        }

        var parts: [[UInt8]] = []
        var out: [UInt8] = []       // the part being written (headers); file data are parts of their own
        var written = 0             // bytes in `parts`
        var central: [UInt8] = []
        func u16(_ v: UInt16, _ b: inout [UInt8]) { b.appendLE(v) }
        func u32(_ v: UInt32, _ b: inout [UInt8]) { b.appendLE(v) }
        let dosTime: UInt16 = 0, dosDate: UInt16 = (0 << 9) | (1 << 5) | 1   // 1980-01-01 00:00

        for f in files {
            let name = Array(f.name.utf8)
            let offset = written + out.count
            // Data starts after the 30-byte header, the name and the extra field; pad the extra
            // field so that it starts on a 64-byte boundary. An extra field needs 4 bytes of
            // header, so a gap of 1–3 bytes is widened by one alignment step.
            var pad = (alignment - (offset + 30 + name.count) % alignment) % alignment
            if pad > 0 && pad < 4 { pad += alignment }
            var extra: [UInt8] = []
            if pad > 0 {
                u16(paddingExtraID, &extra); u16(UInt16(pad - 4), &extra)
                extra += [UInt8](repeating: 0, count: pad - 4)
            }
            let crc = Zlib.crc32(f.data)
            let size = UInt32(f.data.count)
            u32(0x0403_4B50, &out)          // local file header
            u16(20, &out)                   // version needed: 2.0
            u16(0, &out)                    // flags
            u16(0, &out)                    // method: stored
            u16(dosTime, &out); u16(dosDate, &out)
            u32(crc, &out); u32(size, &out); u32(size, &out)
            u16(UInt16(name.count), &out); u16(UInt16(extra.count), &out)
            out += name; out += extra
            precondition((written + out.count) % alignment == 0)
            written += out.count + f.data.count
            parts.append(out); parts.append(f.data)
            out = []

            u32(0x0201_4B50, &central)      // central directory header
            u16(20, &central)               // version made by: 2.0, MS-DOS attributes
            u16(20, &central)
            u16(0, &central); u16(0, &central)
            u16(dosTime, &central); u16(dosDate, &central)
            u32(crc, &central); u32(size, &central); u32(size, &central)
            u16(UInt16(name.count), &central)
            u16(0, &central)                // extra
            u16(0, &central)                // comment
            u16(0, &central)                // disk number
            u16(0, &central)                // internal attributes
            u32(0, &central)                // external attributes
            u32(UInt32(offset), &central)
            central += name
        }
        let cdOffset = written + out.count
        out += central
        u32(0x0605_4B50, &out)              // end of central directory
        u16(0, &out); u16(0, &out)
        u16(UInt16(files.count), &out); u16(UInt16(files.count), &out)
        u32(UInt32(central.count), &out); u32(UInt32(cdOffset), &out)
        u16(0, &out)
        parts.append(out)
        return parts
    }
}

import Foundation
import GeoFormats
import Testing

/// The binary COPY tuple and its extended WKB, against the bytes PostgreSQL and PostGIS use.
@Suite struct CopyBinaryTests {
    static func hex(_ b: some Collection<UInt8>) -> String { b.map { String(format: "%02X", $0) }.joined() }

    /// PostGIS's own EWKB of SRID=4326;LINESTRING(1 2,3 4) (ST_AsEWKB, as hex).
    @Test func ewkbIsWhatPostGISWrites() {
        var w = EWKBWriter(out: [])
        w.header(type: EWKBWriter.lineString); w.u32(2)
        for d in [1.0, 2.0, 3.0, 4.0] { w.f64(d) }
        #expect(Self.hex(w.out) == "0102000020E610000002000000000000000000F03F000000000000004000000000000008400000000000001040")
    }

    /// Each field as PostgreSQL's binary send functions write it: uuid 16 bytes, timestamptz
    /// microseconds since 2000 (big-endian), float8 and bool, NULL as length -1; a geometry
    /// field's length is filled in after its bytes.
    @Test func fieldsAreThePostgresBinaryForms() {
        var row = CopyBinaryRow(fields: 6)
        row.uuid("0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")
        row.timestamp(microsecondsSince1970: 946_684_800_000_001)   // 2000-01-01T00:00:00.000001Z
        row.float8(1.5)
        row.bool(true)
        row.null()
        let range = row.field { w in w.out.append(contentsOf: [7, 8, 9]) }
        #expect(Self.hex(row.bytes) == "0006"
                 + "00000010" + "0F1E2D3C4B5A69788796A5B4C3D2E1F0"
                 + "00000008" + "0000000000000001"
                 + "00000008" + "3FF8000000000000"
                 + "00000001" + "01"
                 + "FFFFFFFF"
                 + "00000003" + "070809")
        #expect(range == row.bytes.count - 7..<row.bytes.count)
    }

    /// Times before 2000 and before 1970 are negative counts: two's complement, big-endian, as
    /// timestamptz_send writes them (the hex is timestamptz_send of those times in PostgreSQL 15).
    @Test func timesBefore2000AreNegative() {
        var row = CopyBinaryRow(fields: 2)
        row.timestamp(microsecondsSince1970: -1)                          // 1969-12-31T23:59:59.999999Z
        row.timestamp(microsecondsSince1970: -946_684_800_000_000 + 123_456)   // 1940-01-02T00:00:00.123456Z
        #expect(Self.hex(row.bytes) == "0002" + "00000008" + "FFFCA2FEC4C81FFF" + "00000008" + "FFF945FD89922240")
    }
}

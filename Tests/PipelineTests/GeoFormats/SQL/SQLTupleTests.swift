import Testing
@testable import GeoFormats

/// Rows of the seeds read back as written (the release compares two seeds this way).
@Suite struct SQLTupleTests {
    @Test func readsWhatTheWritersPrint() throws {
        let row = "  ('8f7c'::uuid, date '2026-01-01', true, false, false, 'FR'),  -- country: France"
        #expect(SQL.tuple(Substring(row)) == ["8f7c", "2026-01-01", "true", "false", "false", "FR"])
        let escaped = try SQL.literal("O'Brien \\ Co")
        let city = "(42, \(escaped), null, 'IE', 1, 2.5, -6.25)"
        #expect(SQL.tuple(Substring(city)) == ["42", "O'Brien \\ Co", nil, "IE", "1", "2.5", "-6.25"])
        #expect(SQL.tuple("insert into t values") == nil)
        #expect(SQL.tuple("('unterminated") == nil)
    }
}

import Foundation
import Testing
@testable import GeoModel
@testable import IngestStage

/// The curated tables the ingest stage reads (DataTables).
@Suite struct DataTablesTests {
    @Test func countrySetReadsTheSameWithCRLF() throws {
        let dir = temporaryDirectory()
        let set = writeFile(dir, "set.txt", "AD\r\nZA\r\n")
        #expect(try DataTables.loadCountrySet(set) == ["AD", "ZA"])
    }
}

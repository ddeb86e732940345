import Foundation
import Testing
@testable import GeoLookup

/// The query loop of geo-lookup: one answer line per input line, a bad line stopping the
/// batch only after the lines before it were answered.
@Suite struct QueryTests {
    @Test func batchAnswersTheGoodLinesBeforeABadOne() throws {
        let g = try GeoLookup(data: Data(IndexFormatTests.bytes))
        var written: [UInt8] = []
        let input = Array("40.2,10.2\n 40.2 , 10.4\r\n40.2;10.4\n40.4,10.2\n".utf8)
        #expect { try g.answerBatch(input, cityWithinKm: 25) { written += $0 } } throws: { e in
            guard let q = e as? QueryLineError else { return false }
            return q.line == 3 && q.message == "line 3: expected lat,lon, got \"40.2;10.4\""
        }
        #expect(String(decoding: written, as: UTF8.self) == "40.2,10.2,AA,\"Town, the\"\n40.2,10.4,BB,\"Town, the\"\n")
        written = []
        try g.answerBatch(Array("40.4,10.2\n".utf8), cityWithinKm: 1) { written += $0 }
        #expect(String(decoding: written, as: UTF8.self) == "40.4,10.2,CC,\n")
        #expect(throws: QueryLineError.self) { try g.answerBatch(Array("91,0\n".utf8), cityWithinKm: 1) { _ in } }
    }
}

import H3
import Testing
@testable import TerritoryGame

/// The coarse cells the night writes boundaries for (ZoomMigration's territory_zoom_shape): every
/// parent at resolutions 0–8, once, keyed by the index's bits as PostgreSQL's bigint.
@Suite struct ZoomShapesTests {
    @Test func parentsAreH3sAtEveryCoarseResolutionOnce() throws {
        let a = try H3.latLngToCell(LatLng(latDegrees: 51.5072, lngDegrees: -0.1276), res: 9).value
        let b = try H3.latLngToCell(LatLng(latDegrees: 51.5074, lngDegrees: -0.1280), res: 9).value
        let parents = TerritoryGame.zoomParents(of: [a, b, a])
        let want = Set((0...8).flatMap { r in [a, b].map { try! H3.cellToParent(H3Index($0), res: r).value } })
        #expect(parents == want.sorted())
        #expect(Set(parents.map { H3.getResolution(H3Index($0)) }) == Set(0...8))
    }

    @Test func shapeRowIsTheBigintKeyAndTheStoredBoundary() throws {
        let cell = try H3.cellToParent(H3.latLngToCell(LatLng(latDegrees: -16.8, lngDegrees: 179.99), res: 9), res: 5).value
        let row = String(decoding: try TerritoryGame.zoomShapeCopyRow(cell), as: UTF8.self)
        let fields = row.dropLast().split(separator: "\t")
        #expect(row.hasSuffix("\n") && fields.count == 2)
        #expect(Int64(fields[0]) == Int64(bitPattern: cell))
        #expect(fields[1].hasPrefix("SRID=4326;POLYGON(("))
    }
}

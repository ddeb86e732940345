// Fast unit facts of the H3 library. The exhaustive comparison with Uber's h3 (PyPI h3 4.5.0)
// is scripts/checks/check_h3.py; the expected values here were produced by that library.
import Foundation
import Testing
@testable import H3

@Suite struct H3IndexingTests {
    @Test func knownCells() throws {
        let cases: [(Double, Double, Int, String)] = [
            (37.7749, -122.4194, 9, "89283082803ffff"),
            (51.5074, -0.1278, 9, "89195da49b7ffff"),
            (-33.8688, 151.2093, 15, "8fbe0e35cbad0a8"),
            (90, 0, 0, "8001fffffffffff"),
            (0, 180, 5, "857eb573fffffff"),
        ]
        for (lat, lng, res, id) in cases {
            let h = try H3.latLngToCell(LatLng(latDegrees: lat, lngDegrees: lng), res: res)
            #expect(h.description == id, "(\(lat), \(lng)) res \(res)")
        }
    }

    @Test func centreIsInsideItsCell() throws {
        let h = H3Index(string: "8928308280fffff")!
        let c = try H3.cellToLatLng(h)
        #expect(abs(c.latDegrees - 37.776702349435695) < 1e-12)
        #expect(abs(c.lngDegrees - -122.41845932318309) < 1e-12)
        #expect(try H3.latLngToCell(c, res: 9) == h)
    }

    @Test func boundaryVertexCounts() throws {
        #expect(try H3.cellToBoundary(H3Index(string: "8928308280fffff")!).count == 6)
        #expect(try H3.cellToBoundary(H3Index(string: "820807fffffffff")!).count == 5)   // Class II pentagon
        #expect(try H3.cellToBoundary(H3Index(string: "81083ffffffffff")!).count == 10)  // Class III pentagon
        #expect(try H3.cellToBoundary(H3Index(string: "8119bffffffffff")!).count == 7)   // crosses a face edge
    }

    @Test func inspection() throws {
        let h = H3Index(string: "8928308280fffff")!
        #expect(H3.getResolution(h) == 9)
        #expect(H3.getBaseCellNumber(h) == 20)
        #expect(H3.isResClassIII(h))
        #expect(!H3.isPentagon(h))
        #expect(H3.isPentagon(H3Index(string: "830800fffffffff")!))
        #expect(try H3.pentagons(res: 0).count == 12)
        #expect(H3.res0Cells().count == 122)
    }
}

@Suite struct H3ValidityTests {
    @Test func validity() {
        #expect(H3.isValidCell(H3Index(string: "8f28308280f18f2")!))
        #expect(!H3.isValidCell(H3Index(string: "8e28308280f18f2")!))  // digits after res are not 7
        #expect(!H3.isValidCell(H3Index(0)))
        #expect(!H3.isValidCell(H3Index(string: "81083ffffffffff")!.flippingFirstDigit(to: 1)))  // deleted k subsequence
    }

    @Test func strings() {
        #expect(H3Index(string: "xyz") == nil)
        #expect(H3Index(string: "") == nil)
        #expect(H3Index(string: "8928308280fffff0") != nil)
        #expect(H3Index(string: "8928308280fffff00") == nil)
        #expect(H3Index(string: "8928308280FFFFF")?.description == "8928308280fffff")
    }

    @Test func errors() {
        #expect(throws: H3Error.invalidResolution(16)) { try H3.latLngToCell(LatLng(lat: 0, lng: 0), res: 16) }
        #expect(throws: H3Error.self) { try H3.latLngToCell(LatLng(lat: .nan, lng: 0), res: 5) }
        #expect(throws: H3Error.invalidCell("0")) { try H3.cellToBoundary(H3Index(0)) }
        #expect(H3Error.invalidResolution(16).description == "invalid resolution 16 (must be 0...15)")
        #expect(H3Error.invalidCell("xyz").description == "invalid cell id \"xyz\"")
    }
}

@Suite struct H3HierarchyTests {
    @Test func parentsAndChildren() throws {
        let h = H3Index(string: "8928308280fffff")!
        #expect(try H3.cellToParent(h, res: 5).description == "85283083fffffff")
        let kids = try H3.cellToChildren(h, res: 10)
        #expect(kids.count == 7)
        #expect(try kids.allSatisfy { try H3.cellToParent($0, res: 9) == h })
        #expect(try H3.cellToChildren(H3Index(string: "830800fffffffff")!, res: 5).count == 41)  // pentagon
        #expect(throws: H3Error.self) { try H3.cellToParent(h, res: 10) }
    }

    @Test func disksAndDistances() throws {
        let h = H3Index(string: "8928308280fffff")!
        #expect(try H3.gridDisk(h, k: 2).count == 19)
        #expect(try H3.gridDisk(H3Index(string: "85080003fffffff")!, k: 1).count == 6)  // pentagon
        #expect(try H3.gridDistance(h, H3Index(string: "89283082b9bffff")!) == 3)
        for c in try H3.gridDisk(h, k: 4) { #expect(try H3.gridDistance(h, c) <= 4) }
    }
}

@Suite struct H3AreaAndPolygonTests {
    @Test func areasCoverTheSphere() throws {
        let total = try H3.res0Cells().reduce(0.0) { $0 + (try H3.cellAreaKm2($1)) }
        #expect(abs(total - 510065621.72408795) / total < 1e-9)
        #expect(try H3.getHexagonAreaAvgKm2(res: 9) == 1.053325134272067e-01)
        #expect(try H3.getHexagonEdgeLengthAvgKm(res: 0) == 1281.256011)
    }

    @Test func polygonToCells() throws {
        let poly = GeoPolygon(outer: [
            LatLng(latDegrees: 37.813318999983238, lngDegrees: -122.4089866999972145),
            LatLng(latDegrees: 37.7198061999978478, lngDegrees: -122.3544736999993603),
            LatLng(latDegrees: 37.8151571999998453, lngDegrees: -122.4798767000009008),
        ])
        let cells = try H3.polygonToCells(poly, res: 9)
        #expect(cells.count == 292)
        #expect(cells.first?.description == "89283080c87ffff")
        #expect(cells.last?.description == "892830876dbffff")
        #expect(cells == cells.sorted())
        for c in cells.prefix(20) {
            #expect(try pointInsidePolygon(poly, [BBox(loop: poly.outer)], H3.cellToLatLng(c)))
        }
    }
}

extension H3Index {
    /// The same index with its resolution-1 digit replaced (for invalid-index tests).
    func flippingFirstDigit(to d: Int) -> H3Index {
        var v = value
        v.setH3Digit(1, d)
        return H3Index(v)
    }
}

/// H3.mapRing: the ring the game's app draws a cell with, from its id (expected vertices from
/// h3-py 4.5.0's cell_to_boundary; scripts/checks/check_h3.py compares 20,000 more).
@Suite struct H3MapRingTests {
    func close(_ a: (lng: Double, lat: Double), _ lng: Double, _ lat: Double) -> Bool {
        abs(a.lng - lng) < 1e-9 && abs(a.lat - lat) < 1e-9
    }

    @Test func aCellIsItsBoundaryClosed() throws {
        let ring = try #require(H3.mapRing("89195da49b7ffff"))
        #expect(ring.count == 7)
        #expect(close(ring[0], -0.12614314524097162, 51.509588603579616))
        #expect(close(ring[3], -0.12527582597826778, 51.50609438318915))
        #expect(ring[6] == ring[0])
    }

    @Test func aCellAcross180HasContinuousLongitudes() throws {
        let ring = try #require(H3.mapRing("857eb573fffffff"))
        #expect(ring.count == 7)
        #expect(close(ring[0], 179.9311699415158, 0.10178403682547113))
        #expect(close(ring[3], -179.95943104153602 + 360, -0.019774497642392246))
        #expect(close(ring[5], -179.99945740117042 + 360, 0.11752492772523762))
        #expect(zip(ring, ring.dropFirst()).allSatisfy { abs($1.lng - $0.lng) < 180 })
    }

    @Test func aCellAroundAPoleIsClosedOverIt() throws {
        let ring = try #require(H3.mapRing("8001fffffffffff"))
        #expect(ring.count == 6 + 3 + 1)
        #expect(close(ring[0], 31.831280499087395, 68.92995788193983))
        #expect(close(ring[4], -34.75841798028467 + 360, 81.27137179020501))
        #expect(close(ring[6], 31.831280499087395 + 360, 68.92995788193983))
        #expect(ring[7].lat == 90 && ring[8].lat == 90 && ring[8].lng == ring[0].lng && ring[7].lng == ring[6].lng)
        let south = try #require(H3.mapRing("80f3fffffffffff"))
        #expect(south[7].lat == -90 && south[8].lat == -90)
    }

    @Test func notACell() {
        #expect(H3.mapRing("xyz") == nil)
        #expect(H3.mapRing("8e28308280f18f2") == nil)
    }
}

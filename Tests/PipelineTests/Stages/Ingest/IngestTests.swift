import Foundation
import Testing
@testable import GeoModel
import Geodesy
@testable import IngestStage

/// The ingest stage on real Natural Earth slices.
@Suite struct IngestTests {
    /// Runs ingest on a slice of units with a small country set.
    func ingest(_ file: String, _ units: Set<String>, set codes: [String], all: Bool = false) throws -> [String: Feature] {
        let dir = temporaryDirectory()
        var o = IngestStage.Options.standard(dataDir: Repo.path("data"), units: try Slices.file(file, units, in: dir))
        o.countrySetPath = writeFile(dir, "set.txt", codes.joined(separator: "\n") + "\n")
        o.allUnits = all
        let (features, _) = try IngestStage.build(o, log: StageLog(stage: "test", quiet: true))
        #expect(features.map { $0.id! } == features.map { $0.id! }.sorted())
        return Dictionary(uniqueKeysWithValues: features.map { ($0.id!, $0) })
    }

    @Test func lesothoIsAHoleInSouthAfrica() throws {
        let out = try ingest(Repo.units10m, ["ZAF", "LSO"], set: ["LS", "ZA"])
        let za = out["ZA"]!.geometry.polygons, ls = out["LS"]!.geometry.polygons
        #expect(ls.count == 1)
        let inner = ls[0].exterior[0]
        // The main part of South Africa has exactly one hole, and Lesotho's border is that hole.
        let main = za.max { abs(RingMath.signedArea($0.exterior)) < abs(RingMath.signedArea($1.exterior)) }!
        #expect(main.rings.count == 2)
        #expect(Set(main.rings[1]) == Set(ls[0].exterior))
        #expect(RingMath.contains(main.exterior, Point(27.5, -29.5)))
        #expect(!RingMath.contains(main, Point(27.5, -29.5)))
        #expect(RingMath.contains(ls[0], Point(27.5, -29.5)))
        _ = inner
        // RFC 7946 winding: outer counter-clockwise, hole clockwise.
        #expect(RingMath.isCounterClockwise(main.exterior) && !RingMath.isCounterClockwise(main.rings[1]))
        #expect(out["ZA"]!.string("capital") == "Pretoria")
        #expect(out["LS"]!.string("capital") == "Maseru")
    }

    @Test func franceAndFrenchGuianaAreSeparateMapUnits() throws {
        let out = try ingest(Repo.units10m, ["FXX", "GUF", "CLP"], set: ["FR", "GF"])
        let fr = out["FR"]!, gf = out["GF"]!
        #expect(fr.string("name") == "France")
        #expect(gf.string("name") == "French Guiana")
        #expect(gf.string("continent") == "South America")
        #expect(fr.string("continent") == "Europe")
        #expect(gf.string("capital") == "Cayenne")
        // Metropolitan France (and Clipperton) stays north of the equator, away from Guiana.
        let box = fr.geometry.boundingBox!
        #expect(box.minY > 10 && box.maxY < 52)
        #expect(!(gf.properties["aliases"]!.arrayValue!.contains(.string("France"))))
    }

    @Test func cyprusRemapsDissolveIntoOnePolygon() throws {
        let out = try ingest(Repo.units10m, ["CYP", "CYN", "CNM", "ESB", "WSB"], set: ["CY"])
        let cy = out["CY"]!
        #expect(cy.properties["neUnits"] == .array(["CNM", "CYN", "CYP", "ESB", "WSB"].map { .string($0) }))
        // Coverage union leaves no internal border: one island, one ring.
        guard case .polygon(let p) = cy.geometry else { Issue.record("CY is \(cy.geometry.typeName)"); return }
        #expect(p.rings.count == 1)
        #expect(cy.string("capital") == "Nicosia")
    }

    @Test func norwayAndKosovoHaveIdsDespiteMinus99() throws {
        let out = try ingest(Repo.units10m, ["NOW", "NJM", "NSV", "KOS"], set: ["NO", "XK"])
        #expect(out["NO"]!.properties["neUnits"] == .array(["NJM", "NOW", "NSV"].map { .string($0) }))
        #expect(out["XK"]!.string("capital") == "Pristina")
        #expect(out["XK"]!.string("continent") == "Europe")
        // Svalbard reaches 80°N.
        #expect(out["NO"]!.geometry.boundingBox!.maxY > 80)
    }

    @Test func aliasesLetAQuizAcceptOtherNames() throws {
        let out = try ingest(Repo.units10m, ["CIV"], set: ["CI"])
        let aliases = out["CI"]!.properties["aliases"]!.arrayValue!.compactMap(\.stringValue)
        #expect(out["CI"]!.string("name") == "Côte d'Ivoire")
        #expect(aliases.contains("Ivory Coast"))
        #expect(Set(aliases.map { $0.lowercased() }).count == aliases.count)
    }

    @Test func wholeWorldAt110mHasTheAppSetWithPointsForMicrostates() throws {
        var o = IngestStage.Options.standard(dataDir: Repo.path("data"), units: Repo.countries110m)
        o.pointsFromPath = Repo.units50m
        let (features, report) = try IngestStage.build(o, log: StageLog(stage: "test", quiet: true))
        let codes = try DataTables.loadCountrySet(Repo.path("data/app_country_codes.txt"))
        #expect(features.map { $0.id! } == codes.sorted())
        #expect(report.pointsFromCapital.count == 31)
        let withoutCapital = features.filter { $0.properties["capital"] == nil }.map { $0.id! }
        #expect(withoutCapital == ["AQ", "TF"])
        for f in features {
            #expect(["Africa", "Asia", "Europe", "North America", "South America", "Oceania", "Antarctica"].contains(f.string("continent") ?? ""), "\(f.id!)")
        }
    }
}

/// Bad input: every error names the file, the feature and the problem.
@Suite struct IngestBadInputTests {
    func run(units text: String, set codes: [String] = ["ZZ"]) throws {
        let dir = temporaryDirectory()
        var o = IngestStage.Options.standard(dataDir: Repo.path("data"), units: writeFile(dir, "bad.geojson", text))
        o.countrySetPath = writeFile(dir, "set.txt", codes.joined(separator: "\n"))
        _ = try IngestStage.build(o, log: StageLog(stage: "test", quiet: true))
    }

    func unit(_ name: String, su: String, iso: String, sov: String? = nil, geometry: String) -> String {
        """
        {"type":"Feature","properties":{"NAME":"\(name)","SU_A3":"\(su)","SOV_A3":"\(sov ?? su)","ISO_A2_EH":"\(iso)","NAME_LONG":"\(name)","CONTINENT":"Europe"},"geometry":\(geometry)}
        """
    }
    let square = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}"#
    func collection(_ features: String...) -> String { #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}" }


    @Test func malformedJSON() {
        expectError(["bad.geojson", "invalid JSON at line 1"]) { try run(units: #"{"type":"FeatureCollection","features":[{"type":"Feature""#) }
    }

    @Test func wrongGeometryType() {
        expectError(["bad.geojson", "feature #0 \"Atlantis\"", "LineString"]) {
            try run(units: collection(unit("Atlantis", su: "ATL", iso: "ZZ", geometry: #"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#)))
        }
    }

    @Test func missingGeometryType() {
        expectError(["feature #0 \"Atlantis\"", "no \"type\""]) {
            try run(units: collection(unit("Atlantis", su: "ATL", iso: "ZZ", geometry: #"{"coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#)))
        }
    }

    @Test func ringWithTooFewPositions() {
        expectError(["feature #0 \"Atlantis\"", "ring 0 has 3 positions"]) {
            try run(units: collection(unit("Atlantis", su: "ATL", iso: "ZZ", geometry: #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}"#)))
        }
    }

    @Test func unclosedRing() {
        expectError(["feature #0 \"Atlantis\"", "not closed"]) {
            try run(units: collection(unit("Atlantis", su: "ATL", iso: "ZZ", geometry: #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}"#)))
        }
    }

    @Test func nanCoordinate() {
        expectError(["feature #1 \"Nanland\"", "not a finite number"]) {
            try run(units: collection(unit("Atlantis", su: "ATL", iso: "ZZ", geometry: square),
                                      unit("Nanland", su: "NAN", iso: "ZY", geometry: #"{"type":"Polygon","coordinates":[[[0,0],[NaN,0],[1,1],[0,0]]]}"#)))
        }
    }

    @Test func outOfRangeCoordinate() {
        expectError(["feature #0 \"Atlantis\"", "outside longitude"]) {
            try run(units: collection(unit("Atlantis", su: "ATL", iso: "ZZ", geometry: #"{"type":"Polygon","coordinates":[[[0,0],[200,0],[1,1],[0,0]]]}"#)))
        }
    }

    @Test func twoUnitsOfDifferentSovereignsOnOneId() {
        expectError(["feature #1 \"Lemuria\"", "maps to ZZ", "sovereign LEM"]) {
            try run(units: collection(unit("Atlantis", su: "ATL", iso: "ZZ", geometry: square),
                                      unit("Lemuria", su: "LEM", iso: "ZZ", geometry: square)))
        }
    }

    @Test func sameUnitTwice() {
        expectError(["feature #1 \"Atlantis\"", "repeats SU_A3 ATL"]) {
            try run(units: collection(unit("Atlantis", su: "ATL", iso: "ZZ", geometry: square),
                                      unit("Atlantis", su: "ATL", iso: "ZZ", geometry: square)))
        }
    }

    @Test func codeOfTheSetThatNoUnitProvides() {
        expectError(["bad.geojson", "no unit provides the code ZY"]) {
            try run(units: collection(unit("Atlantis", su: "ATL", iso: "ZZ", geometry: square)), set: ["ZZ", "ZY"])
        }
    }

    @Test func idThatCouldEscapeAPath() {
        expectError(["feature #0 \"Atlantis\"", "\"../x\" is not two upper-case letters"]) {
            try run(units: collection(unit("Atlantis", su: "ATL", iso: "../x", geometry: square)))
        }
    }

    @Test func notAFeatureCollection() {
        expectError(["bad.geojson", "\"Feature\", expected \"FeatureCollection\""]) { try run(units: #"{"type":"Feature"}"#) }
    }
}

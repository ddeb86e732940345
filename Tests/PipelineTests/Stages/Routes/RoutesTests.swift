import Foundation
import Testing
import GeoLookup
import GeoSQLite
@testable import GeoModel
import Geodesy
@testable import RoutesStage

/// The routes stage on the real data/routes.tsv rows of Taiwan and South Korea, checked
/// against the lookup index of the same slice (LookupTests.swift).
@Suite struct RoutesStageTests {
    func run(_ tsv: String, rewards: String = Repo.path("data/rewards.tsv")) throws -> (RoutesStage.Report, String) {
        var o = RoutesStage.Options()
        o.input = tsv; o.rewards = rewards; o.index = LookupSlice.files.index
        o.outputDir = temporaryDirectory() + "/routes"
        return (try RoutesStage.run(o, log: StageLog(stage: "routes", quiet: true)), o.outputDir)
    }

    /// data/routes.tsv without the Canada rows.
    func asiaRoutes() throws -> (String, [String]) {
        let lines = try FileIO.readLines(Repo.path("data/routes.tsv")).map(String.init).filter { !$0.hasPrefix("canada\t") }
        let path = temporaryDirectory() + "/routes.tsv"
        try FileIO.writeAtomically(lines.joined(separator: "\n"), to: path)
        return (path, lines.filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("route\t") })
    }

    @Test func databaseReadsBackAsTheTable() throws {
        let (path, rows) = try asiaRoutes()
        let (report, dir) = try run(path)
        #expect(report.routes.map(\.id) == ["taiwan", "south-korea"])
        let db = try SQLiteDatabase(path: dir + "/content.sqlite3")
        #expect(try db.query("PRAGMA integrity_check") == [[.text("ok")]])
        #expect(try db.query("PRAGMA foreign_key_check").isEmpty)
        let back = try db.query("""
            SELECT r.id, r.name, r.country_code, l.position, l.name, printf('%.6f', l.latitude), printf('%.6f', l.longitude),
                   l.minutes_to_unlock, coalesce((SELECT group_concat(name, ';') FROM (SELECT t.name FROM location_tags lt
                   JOIN tags t ON t.id = lt.tag_id WHERE lt.location_id = l.id ORDER BY lt.position)), ''), l.description, l.source
            FROM locations l JOIN routes r ON r.id = l.route_id ORDER BY r.position, l.position
            """).map { $0.map { v -> String in
                switch v { case .text(let s): return s; case .integer(let i): return String(i); case .real(let d): return String(d); case .null: return "" }
            }.joined(separator: "\t") }
        #expect(back == rows)
        #expect(try db.query("SELECT hours FROM rewards ORDER BY hours") == [1, 10, 20, 50, 200].map { [.integer($0)] })
        // Taipei → Taichung is about 133 km on the ellipsoid
        let km = try db.query("SELECT distance_km FROM locations WHERE route_id = 'taiwan' AND position = 2")
        if case .real(let d) = km.first?.first { #expect(abs(d - 132.84) < 0.5) } else { Issue.record("no distance") }
    }

    @Test func sameInputsSameBytes() throws {
        let (path, _) = try asiaRoutes()
        let (_, a) = try run(path), (_, b) = try run(path)
        for f in ["content.sqlite3", "routes.geojson"] {
            #expect(try FileIO.readBytes(a + "/" + f) == FileIO.readBytes(b + "/" + f))
        }
    }

    @Test func aLocationOutsideTheIndexIsRefusedAndNothingIsWritten() throws {
        // the full table: Canada is not in the slice's index, so Vancouver is "at sea"
        do {
            _ = try run(Repo.path("data/routes.tsv"))
            Issue.record("accepted a location outside its country")
        } catch let e as InputError {
            #expect(e.description.contains("(canada #1 Vancouver at 49.275362, -123.12359): the lookup puts it at sea, not in the route's country CA"))
        }
    }

    @Test func legPositionsFollowTheDrawnLine() throws {
        let (path, _) = try asiaRoutes()
        let (_, dir) = try run(path)
        let features = try JSONValue.parse(FileIO.readBytes(dir + "/routes.geojson"), file: "routes.geojson")["features"]!.arrayValue!
        let line = features[0]["geometry"]!["coordinates"]!
        guard case .coordinates(let tree) = line else { Issue.record("no coordinates"); return }
        #expect(tree.depth == 2)
        // the first leg (Taipei → Taichung) is drawn as the points of Sphere.position at k/n
        let taipei = Coordinate(latitude: 25.035833, longitude: 121.568333), taichung = Coordinate(latitude: 24.152077, longitude: 120.681667)
        let arc = Sphere.distanceKm(taipei, taichung) / Sphere.earthRadiusKm * 180 / .pi
        let n = Int((arc / RoutesStage.Options().stepDegrees).rounded(.up))
        #expect(n >= 2)
        for k in 0...n {
            let want = Sphere.position(from: taipei, to: taichung, fraction: Double(k) / Double(n))
            let got = tree.positions[k]
            #expect(abs(got.x - want.longitude) < 1e-6 && abs(got.y - want.latitude) < 1e-6, "point \(k)")
        }
    }
}

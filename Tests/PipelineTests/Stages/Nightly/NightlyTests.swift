import Foundation
import GeoModel
import Testing
@testable import ChallengesStage
@testable import NightlyStage
@testable import TerritoryStage

@Suite struct NightlyOptionsTests {
    @Test func perAppURLOverridesDatabaseURL() throws {
        var o = NightlyStage.Options()
        o.databaseURL = "host=all"
        o.appURLs = ["territory": "host=game", "cities": ""]
        #expect(o.url(for: "quiz") == "host=all")
        #expect(o.url(for: "territory") == "host=game")
        #expect(o.url(for: "cities") == "host=all")   // empty: not set
        try o.validate()
    }

    @Test func refusesWhatCannotRun() throws {
        var o = NightlyStage.Options()
        o.databaseURL = nil; o.appURLs = [:]
        #expect(throws: OptionsError.self) { try o.validate() }   // no database at all
        o.databaseURL = "host=x"
        o.apps = ["quiz", "weather"]
        #expect(throws: OptionsError.self) { try o.validate() }
        o.apps = ["quiz", "territory"]
        o.today = "2026-13-01"
        #expect(throws: OptionsError.self) { try o.validate() }
        o.today = "2026-11-25"
        #expect(try o.day() == Day(iso: "2026-11-25"))
        o.ahead = 5000
        #expect(throws: OptionsError.self) { try o.validate() }
        o.ahead = 60; o.shard = "4/4"
        #expect(throws: OptionsError.self) { try o.validate() }
    }
}

@Suite struct NightlyRowsTests {
    /// PostGIS's own hex EWKB of SRID=4326;LINESTRING(1 2,3 4) (ST_AsEWKB, upper case).
    @Test func hexEWKBIsWhatPostGISWrites() {
        var h = HexEWKB(out: [])
        h.header(type: 2); h.u32(2)
        for d in [1.0, 2.0, 3.0, 4.0] { h.f64(d) }
        #expect(String(decoding: h.out, as: UTF8.self)
                == "0102000020E610000002000000000000000000F03F000000000000004000000000000008400000000000001040")
    }

    /// The night's fold over an empty territory is the stage's: the sample's 21 runs, 13 valid
    /// loops and 61 cells (check_territory.sh and check_nightly.sh compare them cell by cell).
    @Test func nightOverNothingIsTheStagesTerritory() throws {
        let night = try TerritoryStage.night(input: Repo.path("data/territory/runs.geojson"), existing: [], shard: nil,
                                             threads: 2, log: StageLog(stage: "test", quiet: true))
        #expect(night.runs.count == 21)
        #expect(night.valid == 13)
        #expect(night.won.count == 61 && night.owned == 61)
        #expect(night.users.count == 6)
        // Every row is one line of 9 tab-separated fields.
        for r in night.runs {
            #expect(r.copyRow.last == 0x0A)
            #expect(r.copyRow.filter { $0 == 0x09 }.count == 8)
        }
        // Tonight again over what it won: nothing more to win (a rerun writes no cell).
        let again = try TerritoryStage.night(input: Repo.path("data/territory/runs.geojson"), existing: night.won, shard: nil,
                                             threads: 2, log: StageLog(stage: "test", quiet: true))
        #expect(again.won.count == 61)   // the same claims (equal, not beating): the merge's strict > writes none
        #expect(again.won == night.won)
    }

    @Test func sqlFilesLoseTheirOwnTransaction() throws {
        let seed = "-- header\n\nbegin;\ninsert into x values (1);\ncommit;\n"
        #expect(try SQLScript.withoutTransaction(seed, source: "seed.sql") == "-- header\n\ninsert into x values (1);\n")
        #expect(try SQLScript.withoutTransaction("insert into x values (1);\n", source: "m.sql") == "insert into x values (1);\n")
        #expect(throws: InputError.self) { try SQLScript.withoutTransaction("begin;\nselect 1;\n", source: "seed.sql") }
        #expect(throws: InputError.self) { try SQLScript.withoutTransaction("commit;\nbegin;\n", source: "seed.sql") }
        // The game's migration, as make territory writes it, loses exactly its two lines.
        let game = try SQLScript.withoutTransaction(GameMigration.sql, source: GameMigration.name)
        #expect(game.split(separator: "\n").count == GameMigration.sql.split(separator: "\n").count - 2)
    }

    @Test func quizLiveRowsReadLikeTheExport() throws {
        let csv = "date,is_guess_country,is_guess_capital,is_guess_flag,answer\n2026-11-24,f,f,t,FR\n2026-11-26,t,f,f,DE\n"
        let rows = try ChallengesStage.readExisting(csv: csv, source: "live", countries: ["FR", "DE", "IT"])
        #expect(rows.map(\.day.iso) == ["2026-11-24", "2026-11-26"])
        let dup = csv + "2026-11-26,f,t,f,IT\n"
        #expect(throws: InputError.self) { try ChallengesStage.readExisting(csv: dup, source: "live", countries: ["FR", "DE", "IT"]) }
    }
}

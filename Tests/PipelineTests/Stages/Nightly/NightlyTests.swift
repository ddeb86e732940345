import CalendarDay
import Foundation
import GeoModel
import StageContract
import Testing
@testable import DailyChallenges
@testable import NightDatabase
@testable import NightlyStage
@testable import TerritoryGame

@Suite struct NightlyOptionsTests {
    @Test func perAppURLOverridesDatabaseURL() throws {
        var o = NightlyStage.Options()
        o.databaseURL = "host=all"
        o.appURLs = [.territory: "host=game", .cities: ""]
        #expect(o.url(for: .quiz) == "host=all")
        #expect(o.url(for: .territory) == "host=game")
        #expect(o.url(for: .cities) == "host=all")   // empty: not set
        try o.validate()
    }

    @Test func refusesWhatCannotRun() throws {
        var o = NightlyStage.Options()
        o.databaseURL = nil; o.appURLs = [:]
        #expect(throws: OptionsError.self) { try o.validate() }   // no database at all
        o.databaseURL = "host=x"
        o.apps = []
        #expect(throws: OptionsError.self) { try o.validate() }
        o.apps = [.quiz, .territory]
        o.today = Day(iso: "2026-11-25")
        #expect(o.day() == Day(iso: "2026-11-25"))
        o.ahead = 5000
        #expect(throws: OptionsError.self) { try o.validate() }
        o.ahead = 60; o.runs.shard = "4/4"
        #expect(throws: OptionsError.self) { try o.validate() }
    }
}

@Suite struct NightlyRowsTests {
    /// The night's fold over an empty territory is the stage's: the sample's 21 runs, 13 valid
    /// loops and 61 cells (check_territory.sh and check_nightly.sh compare them cell by cell).
    @Test func nightOverNothingIsTheStagesTerritory() throws {
        let night = try TerritoryGame.night(input: Repo.path("data/territory/runs.geojson"), existing: [], shard: nil,
                                             threads: 2, log: StageLog(stage: "test", quiet: true))
        #expect(night.runs.count == 21)
        #expect(night.valid == 13)
        #expect(night.won.count == 61 && night.owned == 61)
        #expect(night.users.count == 6)
        // Every row is a binary tuple of 9 fields; the path field, when there is one, is a
        // linestring's EWKB (check_nightly.sh compares the loaded rows with territory_hex.sql's).
        for r in night.runs {
            #expect(r.copyRow.prefix(2) == [0, 9])
            if let p = r.pathField {
                let length = r.copyRow[p.lowerBound..<p.lowerBound + 4].reduce(0) { $0 << 8 | Int($1) }
                #expect(length == p.count - 4)
                #expect(Array(r.copyRow[p.lowerBound + 4..<p.lowerBound + 9]) == [1, 2, 0, 0, 0x20])
            }
        }
        #expect(night.runs.filter { $0.pathField != nil }.count >= 13)
        // Tonight again over what it won: nothing more to win (a rerun writes no cell).
        let again = try TerritoryGame.night(input: Repo.path("data/territory/runs.geojson"), existing: night.won, shard: nil,
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
        // The game's migrations, as make territory writes them, lose exactly their two lines each.
        for m in GameMigration.all {
            let game = try SQLScript.withoutTransaction(m.sql, source: m.name)
            #expect(game.split(separator: "\n").count == m.sql.split(separator: "\n").count - 2)
        }
        #expect(GameMigration.all.map(\.name) == GameMigration.all.map(\.name).sorted())
    }

    @Test func quizLiveRowsReadLikeTheExport() throws {
        let csv = "date,is_guess_country,is_guess_capital,is_guess_flag,answer\n2026-11-24,f,f,t,FR\n2026-11-26,t,f,f,DE\n"
        let rows = try DailyChallenges.readExisting(csv: csv, source: "live", countries: ["FR", "DE", "IT"])
        #expect(rows.map(\.day.iso) == ["2026-11-24", "2026-11-26"])
        let dup = csv + "2026-11-26,f,t,f,IT\n"
        #expect(throws: InputError.self) { try DailyChallenges.readExisting(csv: dup, source: "live", countries: ["FR", "DE", "IT"]) }
    }
}

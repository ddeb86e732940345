import CalendarDay
import Foundation
import StageContract
import Testing
@testable import GeoModel
@testable import ChallengesStage
@testable import DailyChallenges

/// Continuing the live table (issue #12): the schedule reads the existing rows, never changes a
/// day before `start`, by default changes no existing row, and keeps its rules across the boundary.
@Suite struct ChallengeContinuationTests {
    static let countries = ChallengeTests.countries

    func rules(start: String, days: Int = 365, seed: UInt64 = 7) -> ScheduleRules {
        var r = ScheduleRules()
        r.days = days; r.seed = seed; r.start = Day(iso: start)!
        return r
    }

    /// A hand-written-like schedule: `count` days from `first`, one type each (never the same two
    /// days running), answers from the right pools, with repeats within 30 days.
    static func handWritten(from first: String = "2026-02-17", count: Int = 365, skipping: (Int) -> Bool = { _ in false }) -> [ExistingDay] {
        let eligible = DailyChallenges.eligibility(countries, rules: ScheduleRules())
        var state: UInt64 = 20_260_217
        func rnd(_ n: Int) -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int((state >> 33) % UInt64(n)) }
        var out: [ExistingDay] = []
        var prev: ChallengeType?
        var recent: [String] = []
        for i in 0..<count {
            var t = ChallengeType(rawValue: rnd(3))!
            if t == prev { t = ChallengeType(rawValue: (t.rawValue + 1) % 3)! }
            prev = t
            let pool = eligible[t]!
            let again = recent.suffix(25).filter(pool.contains)
            let answer = !again.isEmpty && rnd(10) == 0 ? again[rnd(again.count)] : pool[rnd(pool.count)]
            recent.append(answer)
            if !skipping(i) { out.append(ExistingDay(day: Day(iso: first)!.adding(days: i), type: t, answer: answer)) }
        }
        return out
    }

    /// Pairs (a, b) of days closer than `window` with the same answer, at least one of them planned.
    func windowBreaks(_ s: Schedule, existing: [ExistingDay]) -> [String] {
        var all: [Day: (String, Bool)] = [:]
        for e in existing { all[e.day] = (e.answer, false) }
        for d in s.days { all[d.day] = (d.answer, d.change != .kept) }
        let days = all.keys.sorted()
        var out: [String] = []
        for (i, a) in days.enumerated() {
            for b in days[(i + 1)...] where b.ordinal - a.ordinal < s.window {
                if all[a]!.0 == all[b]!.0 && (all[a]!.1 || all[b]!.1) { out.append("\(a) \(b) \(all[a]!.0)") }
            }
        }
        return out
    }

    @Test func handWrittenScheduleRepeatsWithin30Days() {
        let h = Self.handWritten()
        var last: [String: Day] = [:]
        var repeats = 0
        for e in h { if let l = last[e.answer], e.day.ordinal - l.ordinal < 30 { repeats += 1 }; last[e.answer] = e.day }
        #expect(h.count == 365 && repeats > 10)   // the test below would be empty without them
    }

    @Test func continuesAfterTheExistingScheduleAcrossTheBoundary() throws {
        let existing = Self.handWritten()
        let start = existing.last!.day.adding(days: 1)
        let s = try DailyChallenges.schedule(Self.countries, rules: rules(start: start.iso), existing: existing)
        #expect(s.days.count == 365 && s.days.allSatisfy { $0.change == .added })
        #expect(s.days.first!.day == Day(iso: "2027-02-17")!)
        #expect(s.days.first!.type != existing.last!.type)
        #expect(windowBreaks(s, existing: existing).isEmpty)
        #expect(s.violations(countries: Self.countries).isEmpty)
        #expect(s.context.count == 365)
        let c = s.changeCounts
        #expect(c.added == 365 && c.replanned == 0 && c.kept == 0 && c.pastTouched == 0)
    }

    @Test func anOldScheduleFarBackChangesNothing() throws {
        // Rows ending more than a window before start: the plan is the plain one.
        let existing = Self.handWritten(from: "2025-01-01", count: 100)
        let plain = try DailyChallenges.schedule(Self.countries, rules: rules(start: "2026-01-01"))
        let continued = try DailyChallenges.schedule(Self.countries, rules: rules(start: "2026-01-01"), existing: existing)
        #expect(plain.days == continued.days)
    }

    @Test func fillsOnlyDaysWithoutAQuestionByDefault() throws {
        // Every 7th day of the existing schedule has no row; start in the middle.
        let existing = Self.handWritten(skipping: { $0 % 7 == 3 })
        let start = "2026-08-18"
        let s = try DailyChallenges.schedule(Self.countries, rules: rules(start: start), existing: existing)
        let byDay = Dictionary(uniqueKeysWithValues: existing.map { ($0.day, $0) })
        for d in s.days {
            if let e = byDay[d.day] {
                #expect(d.change == .kept && d.type == e.type && d.answer == e.answer, "\(d.day) changed an existing row")
            } else {
                #expect(d.change == .added)
            }
        }
        #expect(!s.days.contains { $0.day < Day(iso: start)! })
        let added = s.days.filter { $0.change == .added }
        let holesInRange = existing.isEmpty ? 0 : (0..<365).filter { $0 % 7 == 3 && Day(iso: "2026-02-17")!.adding(days: $0) >= Day(iso: start)! }.count
        #expect(added.count == holesInRange + (365 - (Day(iso: "2027-02-16")!.ordinal - Day(iso: start)!.ordinal + 1)))
        // The window holds back and ahead of every kept day; types never repeat on neighbours.
        #expect(windowBreaks(s, existing: existing).isEmpty)
        #expect(s.violations(countries: Self.countries).isEmpty)
        for (a, b) in zip(s.days, s.days.dropFirst()) where a.change != .kept || b.change != .kept {
            #expect(a.type != b.type, "\(a.day) and \(b.day) ask the same type")
        }
    }

    @Test func replanFutureNeverReachesBeforeStart() throws {
        let existing = Self.handWritten()
        let start = Day(iso: "2026-12-01")!
        let s = try DailyChallenges.schedule(Self.countries, rules: rules(start: start.iso), existing: existing, replanFuture: true)
        #expect(s.days.first!.day == start && !s.days.contains { $0.day < start })
        #expect(!s.days.contains { $0.change == .kept })
        let c = s.changeCounts
        #expect(c.replanned > 0 && c.pastTouched == 0)
        #expect(c.added + c.replanned + c.kept == 365)
        #expect(windowBreaks(s, existing: existing.filter { $0.day < start }).isEmpty)
        #expect(s.violations(countries: Self.countries).isEmpty)
        let sql = try DailyChallenges.seedSQL(s, countries: Self.countries)
        #expect(sql.contains("where v.date >= date '2026-12-01'"))
        #expect(sql.contains("where public.daily_challenges.date >= date '2026-12-01'"))
        #expect(!sql.contains("date '2026-11-30'"))
    }

    @Test func defaultSeedInsertsOnlyAndGuardsThePast() throws {
        let existing = Self.handWritten()
        let s = try DailyChallenges.schedule(Self.countries, rules: rules(start: "2026-08-18"), existing: existing)
        let sql = try DailyChallenges.seedSQL(s, countries: Self.countries)
        #expect(sql.contains("on conflict (date) do nothing;"))
        #expect(!sql.contains("do update"))
        #expect(sql.contains("where v.date >= date '2026-08-18'"))
        let rows = sql.split(separator: "\n").filter { $0.hasPrefix("  ('") }
        #expect(rows.count == s.changeCounts.added)
        // Every written date is on or after start and had no row.
        let taken = Set(existing.map(\.day.iso))
        for r in rows {
            let iso = String(r.split(separator: "'")[3])
            #expect(iso >= "2026-08-18" && !taken.contains(iso))
        }
    }

    @Test func existingCSVIsRead() throws {
        let path = NSTemporaryDirectory() + "existing-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "date,is_guess_country,is_guess_capital,is_guess_flag,answer\n2026-02-18,f,,t,AB\n\"2026-02-17\",t,f,f,\"AA\"\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let rows = try DailyChallenges.readExisting(path: path, countries: ["AA", "AB"])
        #expect(rows == [ExistingDay(day: Day(iso: "2026-02-17")!, type: .country, answer: "AA"),
                         ExistingDay(day: Day(iso: "2026-02-18")!, type: .flag, answer: "AB")])
    }

    @Test(arguments: [
        ("date,answer\n", "line 1: the header is \"date,answer\""),
        ("date,is_guess_country,is_guess_capital,is_guess_flag,answer\n2026-02-17,t,f,f,ZZ\n", "line 2 (2026-02-17): answer \"ZZ\" is not a country of the country set"),
        ("date,is_guess_country,is_guess_capital,is_guess_flag,answer\n2026-02-17,t,t,f,AA\n", "line 2 (2026-02-17): 2 question types are true; exactly one must be"),
        ("date,is_guess_country,is_guess_capital,is_guess_flag,answer\n2026-02-30,t,f,f,AA\n", "line 2: date \"2026-02-30\" is not YYYY-MM-DD"),
        ("date,is_guess_country,is_guess_capital,is_guess_flag,answer\n2026-02-17,yes,f,f,AA\n", "line 2: is_guess_country is \"yes\"; expected t or f"),
        ("date,is_guess_country,is_guess_capital,is_guess_flag,answer\n2026-02-17,t,f,f\n", "line 2: 4 fields; expected 5"),
        ("date,is_guess_country,is_guess_capital,is_guess_flag,answer\n2026-02-17,t,f,f,\"AA\n", "line 2: a quoted field is not closed"),
        ("date,is_guess_country,is_guess_capital,is_guess_flag,answer\n2026-02-17,t,f,f,AA\n2026-02-17,f,t,f,AA\n2026-02-19,t,f,f,AA\n2026-02-19,t,f,f,AA\n",
         "2 dates have more than one row: 2026-02-17, 2026-02-19"),
    ])
    func badExistingCSV(_ input: (String, String)) throws {
        let path = NSTemporaryDirectory() + "existing-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try input.0.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputError.self) { try DailyChallenges.readExisting(path: path, countries: ["AA"]) }
        #expect(error.description.contains(input.1), "\(error)")
        #expect(error.description.hasPrefix(path))
    }

    @Test func migrationChecksBeforeItAlters() {
        let s = DailyChallenges.schemaSQL()
        let check = try! #require(s.range(of: "more than one row on these dates"))
        let alter = try! #require(s.range(of: "add constraint daily_challenges_date_key"))
        #expect(check.lowerBound < alter.lowerBound)
        #expect(s.contains("raise exception"))
        #expect(DailyChallenges.migrationName.range(of: "^[0-9]{14}_[a-z_]+\\.sql$", options: .regularExpression) != nil)
    }

    // MARK: the stage (Options → run → Report)

    func stageOptions(existing rows: String?) -> ChallengesStage.Options {
        let dir = temporaryDirectory()
        var o = ChallengesStage.Options()
        o.input = Repo.path("Tests/BadInputs/world/two-countries.geojson")
        o.outputDir = dir + "/supabase"
        o.minSilhouetteAreaKm2 = 0; o.smallAreaKm2 = 0; o.days = 10
        if let rows { o.existing = writeFile(dir, "live.csv", "date,is_guess_country,is_guess_capital,is_guess_flag,answer\n" + rows) }
        return o
    }

    @Test func stageStartsTheDayAfterTheExistingScheduleAndDryRunWritesNothing() throws {
        var o = stageOptions(existing: "2026-02-17,t,f,f,FR\n2026-02-18,f,t,f,DE\n")
        o.dryRun = true
        let r = try ChallengesStage.run(o, log: StageLog(stage: "test", quiet: true))
        #expect(r.schedule.rules.start == Day(iso: "2026-02-19")!)
        #expect(r.summary.hasPrefix("dry run: 10 days added, 0 days replanned, 0 existing days kept, 0 past rows touched (before 2026-02-19)"))
        #expect(!FileManager.default.fileExists(atPath: o.outputDir))
        o.dryRun = false
        let w = try ChallengesStage.run(o, log: StageLog(stage: "test", quiet: true))
        #expect(FileManager.default.fileExists(atPath: o.outputDir + "/migrations/" + DailyChallenges.migrationName))
        #expect(try String(contentsOfFile: w.seedPath, encoding: .utf8).contains("on conflict (date) do nothing"))
    }

    @Test func stageWithoutExistingStartsTomorrow() throws {
        var o = stageOptions(existing: nil)
        o.today = Day(iso: "2026-11-22")!
        o.dryRun = true
        let r = try ChallengesStage.run(o, log: StageLog(stage: "test", quiet: true))
        #expect(r.schedule.rules.start == Day(iso: "2026-11-23")!)
        // The clock is passed in: without `today` in the options, the clock's day counts.
        o.today = nil
        let c = try ChallengesStage.run(o, log: StageLog(stage: "test", quiet: true), today: Day(iso: "2030-06-30")!)
        #expect(c.schedule.rules.start == Day(iso: "2030-07-01")!)
        #expect(Day(date: Date(timeIntervalSince1970: 86_400 * 3 - 1)) == Day(iso: "1970-01-03")!)
    }

    @Test func replanNeverStartsOnOrBeforeToday() throws {
        var o = stageOptions(existing: "2026-02-17,t,f,f,FR\n2026-02-18,f,t,f,DE\n")
        o.replanFuture = true
        o.today = Day(iso: "2026-11-22")!
        for from in ["2026-02-01", "2026-02-18", "2026-11-22"] {
            o.from = Day(iso: from)
            let e = try #require(throws: OptionsError.self) { try ChallengesStage.run(o, log: StageLog(stage: "test", quiet: true)) }
            #expect(e.message.hasPrefix("--from \(from) is not after today (2026-11-22, UTC)"))
        }
        o.from = Day(iso: "2026-11-23"); o.dryRun = true
        let r = try ChallengesStage.run(o, log: StageLog(stage: "test", quiet: true))
        #expect(r.schedule.rules.start == Day(iso: "2026-11-23")!)
        var p = stageOptions(existing: nil)
        p.replanFuture = true
        #expect(throws: OptionsError.self) { try p.validate() }
        p.replanFuture = false
        #expect(Day(optionText: "2026-13-01") == nil && Day(optionText: "0000-01-01") == nil)   // --from is parsed as a Day
    }
}

// The challenges stage (CONTRACTS §6): world.geojson (+ the live table's export) → the
// Supabase migration and seed. The stage contract: Options with every default, validate(),
// run → Report.

import Foundation
import GeoModel

extension ChallengesStage: PipelineStage {
    public static let name = "challenges"

    public struct Options: StageOptions {
        /// The country set: world.geojson.
        public var world = "dist/world.geojson"
        /// The Supabase folder: migrations/<version>_<name>.sql and seed.sql go here.
        public var outDir = "dist/supabase"
        /// The human report (also printed as progress lines).
        public var report: String?
        /// The live table's schedule (psql `\copy … csv header`); nil: none.
        public var existing: String?
        /// First day to schedule, YYYY-MM-DD; nil: the day after the last existing date, or
        /// tomorrow (UTC) without an existing schedule.
        public var from: String?
        public var days = 365
        /// Re-plan existing days from `from` on (never before it); default: only fill days without a row.
        public var replanFuture = false
        /// Print what would change and write nothing.
        public var dryRun = false
        public var seed: UInt64 = 20_260_101
        /// Minimum days between two uses of one answer (capped to what the pools allow).
        public var window = 60
        /// Minimum area in km² of a polygon country for a silhouette question.
        public var minSilhouetteArea = 10_000.0
        /// Countries under this area in km² (and point countries) count as small.
        public var smallArea = 20_000.0
        /// Today, for the default `from` without an existing schedule; nil: the clock (UTC).
        public var today: Day?

        public init() {}

        public func validate() throws {
            guard (1...100_000).contains(days) else { throw OptionsError("--days must be between 1 and 100000 (got \(days))") }
            guard window >= 1 else { throw OptionsError("--window must be at least 1 day (got \(window))") }
            if let from { _ = try fromDay(from) }
            if replanFuture && existing == nil { throw OptionsError("--replan-future needs --existing (the schedule to re-plan)") }
        }

        func fromDay(_ text: String) throws -> Day {
            guard let d = Day(iso: text), d.components.year >= 1 else {
                throw OptionsError("--from must be a date YYYY-MM-DD from year 0001 on (got \"\(text)\")")
            }
            return d
        }
    }

    public struct Report: StageReport {
        public var countries = 0
        public var schedule: Schedule
        public var text: String
        public var migrationPath: String
        public var seedPath: String
        public var seedBytes = 0
        public var dryRun = false

        /// Days added, replanned, kept, and rows before `from` touched (always 0).
        public var changes: String {
            let c = schedule.changeCounts
            return "\(c.added) days added, \(c.replanned) days replanned, \(c.kept) existing days kept, \(c.pastTouched) past rows touched (before \(schedule.rules.start))"
        }

        public var summary: String {
            if dryRun { return "dry run: \(changes); nothing written" }
            let counts = ChallengeType.allCases.map { "\($0.label) \(schedule.count(of: $0))" }.joined(separator: ", ")
            let minGap = schedule.repeatGaps.min().map(String.init) ?? "none"
            return "\(countries) countries → \(schedule.days.count) days from \(schedule.rules.start) (\(counts)): \(changes); min repeat gap \(minGap) (window \(schedule.window)), \(schedule.days.filter { !$0.relaxed.isEmpty }.count) relaxed → \(migrationPath), \(seedPath) (\(formatCount(seedBytes)) bytes)"
        }
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        try o.validate()
        let features = try log.step("read \(o.world)") { try GeoJSON.read(path: o.world) }
        let countries = try self.countries(from: features, file: o.world)
        var existing: [ExistingDay] = []
        if let path = o.existing {
            existing = try log.step("read \(path)") { try readExisting(path: path, countries: Set(countries.map(\.id))) }
        }
        let start: Day
        if let from = o.from {
            start = try o.fromDay(from)
        } else if let last = existing.last?.day {
            start = last.adding(days: 1)
        } else {
            let today = o.today ?? Day(ordinal: Int((Date().timeIntervalSince1970 / 86_400).rounded(.down)))
            start = today.adding(days: 1)
        }
        if o.replanFuture, let first = existing.first?.day, start < first {
            throw OptionsError("--from \(start) is before the existing schedule's first day \(first) (\(o.existing!)): --replan-future would rewrite days players have answered; give a --from inside or after it")
        }
        var rules = ScheduleRules()
        rules.seed = o.seed; rules.start = start; rules.days = o.days; rules.window = o.window
        rules.minSilhouetteAreaKm2 = o.minSilhouetteArea; rules.smallAreaKm2 = o.smallArea
        let schedule = try log.step("schedule \(o.days) days from \(start)") {
            try self.schedule(countries, rules: rules, existing: existing, replanFuture: o.replanFuture)
        }
        let text = report(schedule, countries: countries)
        for line in text.split(separator: "\n") { log.info(String(line)) }
        // Only the rules that may give way by design (recorded per day) are allowed; anything
        // else found by the independent re-check is a bug and fails the stage.
        let violations = schedule.violations(countries: countries)
        let unexpected = violations.filter { v in !schedule.days.contains { !$0.relaxed.isEmpty && v.hasPrefix($0.day.iso) } }
        if !unexpected.isEmpty {
            throw StageError("the schedule breaks its rules:\n  " + unexpected.prefix(20).joined(separator: "\n  "))
        }
        let past = schedule.changeCounts.pastTouched
        guard past == 0 else { throw StageError("the plan would touch \(past) rows before \(start)") }
        let migrationPath = o.outDir + "/migrations/" + migrationName, seedPath = o.outDir + "/seed.sql"
        var out = Report(countries: countries.count, schedule: schedule, text: text, migrationPath: migrationPath, seedPath: seedPath)
        if o.dryRun {
            out.dryRun = true
            return out
        }
        let seedText = try seedSQL(schedule, countries: countries)
        if let path = o.report { try FileIO.writeAtomically(text, to: path) }
        try log.step("write \(migrationPath)") { try FileIO.writeAtomically(schemaSQL(), to: migrationPath) }
        try log.step("write \(seedPath)") { try FileIO.writeAtomically(seedText, to: seedPath) }
        out.seedBytes = seedText.utf8.count
        return out
    }
}

import Foundation
import GeoModel
import GeoPROJ
import GeoFormats

/// The challenges stage: world.geojson → dist/supabase/{schema,seed}.sql (CONTRACTS §6) and a
/// human report. The schedule itself is Schedule.swift; the SQL text is Output.swift.
extension ChallengesStage: PipelineStage {
    public static let name = "challenges"

    public struct Options: StageOptions {
        public var world = "dist/world.geojson"
        public var outDir = "dist/supabase"
        /// Where to write the human report (it is also printed on standard error).
        public var report: String? = nil
        public var days = 365
        /// First day, YYYY-MM-DD.
        public var start = "2026-01-01"
        public var seed: UInt64 = 20_260_101
        /// Minimum days between two uses of one answer (capped to what the pools allow).
        public var window = 60
        public var minSilhouetteAreaKm2 = 10_000.0
        public var smallAreaKm2 = 20_000.0
        public init() {}

        public func validate() throws {
            guard let startDay = Day(iso: start), startDay.components.year >= 1 else {
                throw OptionsError("--start must be a date YYYY-MM-DD from year 0001 on (got \"\(start)\")")
            }
            guard (1...100_000).contains(days) else { throw OptionsError("--days must be between 1 and 100000 (got \(days))") }
        }

        var rules: ScheduleRules {
            var r = ScheduleRules()
            r.seed = seed; r.start = Day(iso: start)!; r.days = days; r.window = window
            r.minSilhouetteAreaKm2 = minSilhouetteAreaKm2; r.smallAreaKm2 = smallAreaKm2
            return r
        }
    }

    public struct Report: StageReport {
        public var countries = 0
        public var schedule: Schedule
        public var schemaPath: String
        public var seedPath: String
        public var seedBytes = 0

        public var summary: String {
            let counts = ChallengeType.allCases.map { "\($0.label) \(schedule.count(of: $0))" }.joined(separator: ", ")
            let minGap = schedule.repeatGaps.min().map(String.init) ?? "none"
            return "\(countries) countries → \(schedule.days.count) days (\(counts)), min repeat gap \(minGap) (window \(schedule.window)), \(schedule.days.filter { !$0.relaxed.isEmpty }.count) relaxed → \(schemaPath), \(seedPath) (\(formatCount(seedBytes)) bytes)"
        }
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        try o.validate()
        let features = try log.step("read \(o.world)") { try GeoJSON.read(path: o.world) }
        let countries = try countries(from: features, file: o.world)
        let schedule = try log.step("schedule \(o.days) days") { try Self.schedule(countries, rules: o.rules) }
        let text = report(schedule, countries: countries)
        for line in text.split(separator: "\n") { log.info(String(line)) }
        try checkRules(schedule, countries: countries)
        if let path = o.report { try FileIO.writeAtomically(text, to: path) }
        let schemaPath = o.outDir + "/schema.sql", seedPath = o.outDir + "/seed.sql"
        try log.step("write \(schemaPath)") { try FileIO.writeAtomically(schemaSQL(), to: schemaPath) }
        let seedText = try seedSQL(schedule, countries: countries)
        try log.step("write \(seedPath)") { try FileIO.writeAtomically(seedText, to: seedPath) }
        return Report(countries: countries.count, schedule: schedule, schemaPath: schemaPath, seedPath: seedPath,
                      seedBytes: seedText.utf8.count)
    }

    /// The independent re-check of the finished schedule. Only the rules that may give way by
    /// design (recorded per day as relaxed) are allowed to break; anything else is a bug and
    /// fails the stage before a file is written.
    static func checkRules(_ schedule: Schedule, countries: [ChallengeCountry]) throws {
        let violations = schedule.violations(countries: countries)
        let unexpected = violations.filter { v in !schedule.days.contains { !$0.relaxed.isEmpty && v.hasPrefix($0.day.iso) } }
        if !unexpected.isEmpty {
            throw StageError("the schedule breaks its rules:\n  " + unexpected.prefix(20).joined(separator: "\n  "))
        }
    }
}

import CalendarDay
import DailyChallenges
import Foundation
import GeoModel
import StageContract

/// The challenges stage: world.geojson (+ the live table's export) → dist/supabase/
/// {migrations/<version>_<name>.sql, seed.sql} (CONTRACTS §6, the Supabase CLI layout) and a
/// human report. The schedule, its SQL text and the reader of the live table's export are the
/// DailyChallenges library's (the night uses them too).
public enum ChallengesStage: PipelineStage {
    public static let name = "challenges"

    public struct Options: DeclaredOptions {
        /// The app's country file.
        public var input = "dist/world.geojson"
        /// The Supabase folder: migrations/<version>_<name>.sql and seed.sql go here.
        public var outputDir = "dist/supabase"
        /// Where to write the human report (it is also printed on standard error).
        public var report: String? = nil
        /// The live table's schedule (psql `\copy … csv header`); nil: none. Its rows before
        /// `from` never change; from `from` on they are kept unless `replanFuture`.
        public var existing: String? = nil
        /// First day to schedule; nil: the day after the last existing date, or tomorrow (UTC)
        /// without an existing schedule.
        public var from: Day? = nil
        public var days = 365
        /// Re-plan existing days from `from` on (never before it, and never today or earlier:
        /// those days may have been played); default: only fill days without a row.
        public var replanFuture = false
        /// Print what would change and write nothing.
        public var dryRun = false
        public var seed: UInt64 = 20_260_101
        /// Minimum days between two uses of one answer (capped to what the pools allow).
        public var window = 60
        public var minSilhouetteAreaKm2 = 10_000.0
        public var smallAreaKm2 = 20_000.0
        /// Today (UTC), for the default `from` without an existing schedule and for the guard
        /// that keeps `replanFuture` off days already played; nil: the clock.
        public var today: Day? = nil
        public init() {}

        public static let declared: [StageOption<Options>] = [
            .argument("input", \.input, help: "The country set: world.geojson."),
            .option("output-dir", short: "o", aliases: ["out-dir"], \.outputDir, help: "Directory for migrations/ and seed.sql (a Supabase folder)."),
            .option("report", \.report, help: "Where to write the human report (also printed on stderr)."),
            .option("existing", \.existing,
                    help: "The live table's schedule, as `psql \\copy (select date, is_guess_country, is_guess_capital, is_guess_flag, answer from daily_challenges order by date) to FILE csv header` writes it."),
            .option("from", deprecatedAliases: ["start"], \.from,
                    invalid: { "--from must be a date YYYY-MM-DD from year 0001 on (got \"\($0)\")" },
                    help: "First day to schedule, YYYY-MM-DD. Default: the day after the last existing date, or tomorrow (UTC) without --existing."),
            .option("days", \.days, .within(1...100_000), help: "Number of days to schedule from --from."),
            .flag("replan-future", \.replanFuture,
                  help: "Re-plan existing days from --from on (never before it). Default: only days without a question are filled."),
            .flag("dry-run", \.dryRun, help: "Print what the seed would change (days added, days replanned, past rows touched) and write nothing."),
            .option("seed", \.seed, help: "Seed of the schedule (an unsigned 64-bit integer)."),
            .option("window", \.window, .atLeast(1), help: "Minimum days between two uses of one answer (capped to what the pools allow)."),
            .option("min-silhouette-area", \.minSilhouetteAreaKm2, .atLeast(0), help: "Minimum area in km² of a polygon country for a silhouette question."),
            .option("small-area", \.smallAreaKm2, .atLeast(0), help: "Countries under this area in km² (and point countries) count as small."),
            .option("today", \.today,
                    help: "Today's date (UTC), YYYY-MM-DD: the default --from is the day after it, and --replan-future never starts on or before it. Default: the clock (give it to replay a night)."),
        ]

        public func validateRules() throws {
            if replanFuture && existing == nil { throw OptionsError("--replan-future needs --existing (the schedule to re-plan)") }
        }

        func rules(start: Day) -> ScheduleRules {
            var r = ScheduleRules()
            r.seed = seed; r.start = start; r.days = days; r.window = window
            r.minSilhouetteAreaKm2 = minSilhouetteAreaKm2; r.smallAreaKm2 = smallAreaKm2
            return r
        }
    }

    public struct Report: StageReport {
        public var countries = 0
        public var schedule: Schedule
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

    /// Runs on today's date (UTC) by the system clock, unless `o.today` fixes it.
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        try run(o, log: log, today: Day(date: Date()))
    }

    /// The stage with the clock passed in: `today` (UTC) is the day the guard and the default
    /// `from` count from, unless `o.today` fixes it (steps in Steps/).
    public static func run(_ o: Options, log: StageLog, today clock: Day) throws -> Report {
        let (countries, existing) = try readInputs(o, log: log)
        let start = try startDay(o, existing: existing, today: clock)
        let (schedule, text) = try plan(o, countries, existing: existing, start: start, log: log)

        let migrationPath = o.outputDir + "/migrations/" + DailyChallenges.migrationName, seedPath = o.outputDir + "/seed.sql"
        var out = Report(countries: countries.count, schedule: schedule, migrationPath: migrationPath, seedPath: seedPath)
        if o.dryRun {
            out.dryRun = true
            return out
        }
        out.seedBytes = try writeOutputs(o, schedule, countries, report: text, migrationPath: migrationPath, seedPath: seedPath, log: log)
        return out
    }
}

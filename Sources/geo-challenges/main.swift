import ArgumentParser
import Foundation
import GeoModel
import ChallengesStage

struct ChallengesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo-challenges",
        abstract: "world.geojson → the daily-challenge table (schema.sql) and its seed (seed.sql) for Supabase/PostgreSQL.",
        discussion: """
        Reads dist/world.geojson (CONTRACTS §1) and writes, in --out-dir:
          • schema.sql: the daily_challenges table of CONTRACTS §6 plus a unique date, a check that
            exactly one question type is true and a check that the answer is an ISO code
            (idempotent; adds the constraints to a table created earlier);
          • seed.sql: one row per day, ids derived from the date, `on conflict (date) do update`
            only where the question differs, so loading it twice leaves the same rows;
        and a human report (--report): type counts, repeat gaps, per-continent counts.

        The schedule is deterministic: the same inputs and --seed give the same bytes, and day k
        depends only on the seed and days before k, so a longer --days keeps every earlier row.
        Rules: each block of three days asks silhouette, capital and flag once each in a seeded
        order, and no type two days running; silhouette questions only on polygon countries of at
        least --min-silhouette-area km²; capital questions only where a capital exists; flag
        questions on any country; no answer twice within --window days (capped to what the pools
        allow, see the report); within a question type's pool every country is used before any
        is used again; a small country (a point country or under --small-area km²) is never
        followed by another small one.

        Example:
          geo-challenges dist/world.geojson --out-dir dist/supabase --days 365 \\
            --start 2026-01-01 --seed 20260101 --window 60 --report build/challenges/report.txt
        """)

    @Argument(help: "The country set: world.geojson.")
    var world: String = "dist/world.geojson"

    @Option(help: "Directory for schema.sql and seed.sql.")
    var outDir: String = "dist/supabase"

    @Option(help: "Where to write the human report (also printed on stderr).")
    var report: String?

    @Option(help: "Number of days to schedule.")
    var days: Int = 365

    @Option(help: "First day, YYYY-MM-DD.")
    var start: String = "2026-01-01"

    @Option(help: "Seed of the schedule (an unsigned 64-bit integer).")
    var seed: UInt64 = 20_260_101

    @Option(help: "Minimum days between two uses of one answer (capped to what the pools allow).")
    var window: Int = 60

    @Option(help: "Minimum area in km² of a polygon country for a silhouette question.")
    var minSilhouetteArea: Double = 10_000

    @Option(help: "Countries under this area in km² (and point countries) count as small.")
    var smallArea: Double = 20_000

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    func run() throws {
        let log = StageLog(stage: "challenges", quiet: quiet)
        guard let startDay = Day(iso: start), startDay.components.year >= 1 else {
            throw ValidationError("--start must be a date YYYY-MM-DD from year 0001 on (got \"\(start)\")")
        }
        guard (1...100_000).contains(days) else { throw ValidationError("--days must be between 1 and 100000 (got \(days))") }
        var rules = ScheduleRules()
        rules.seed = seed; rules.start = startDay; rules.days = days; rules.window = window
        rules.minSilhouetteAreaKm2 = minSilhouetteArea; rules.smallAreaKm2 = smallArea
        let features = try log.step("read \(world)") { try GeoJSON.read(path: world) }
        let countries = try ChallengesStage.countries(from: features, file: world)
        let schedule = try log.step("schedule \(days) days") { try ChallengesStage.schedule(countries, rules: rules) }
        let violations = schedule.violations(countries: countries)
        let text = ChallengesStage.report(schedule, countries: countries)
        for line in text.split(separator: "\n") { log.info(String(line)) }
        // Only the rules that may give way by design (recorded per day) are allowed; anything
        // else found by the independent re-check is a bug and fails the stage.
        let unexpected = violations.filter { v in !schedule.days.contains { !$0.relaxed.isEmpty && v.hasPrefix($0.day.iso) } }
        if !unexpected.isEmpty {
            throw StageError("the schedule breaks its rules:\n  " + unexpected.prefix(20).joined(separator: "\n  "))
        }
        if let report { try FileIO.writeAtomically(text, to: report) }
        let schemaPath = outDir + "/schema.sql", seedPath = outDir + "/seed.sql"
        try log.step("write \(schemaPath)") { try FileIO.writeAtomically(ChallengesStage.schemaSQL(), to: schemaPath) }
        let seedText = try ChallengesStage.seedSQL(schedule, countries: countries)
        try log.step("write \(seedPath)") { try FileIO.writeAtomically(seedText, to: seedPath) }
        let counts = ChallengeType.allCases.map { "\($0.label) \(schedule.count(of: $0))" }.joined(separator: ", ")
        let minGap = schedule.repeatGaps.min().map(String.init) ?? "none"
        log.summary("\(countries.count) countries → \(schedule.days.count) days (\(counts)), min repeat gap \(minGap) (window \(schedule.window)), \(schedule.days.filter { !$0.relaxed.isEmpty }.count) relaxed → \(schemaPath), \(seedPath) (\(formatCount(seedText.utf8.count)) bytes)")
    }
}

ChallengesCommand.main()

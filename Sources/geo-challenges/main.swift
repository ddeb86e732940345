import ArgumentParser
import Foundation
import GeoModel
import ChallengesStage
import StageCommand

struct ChallengesCommand: StageCommand {
    typealias Stage = ChallengesStage
    static let configuration = CommandConfiguration(
        commandName: "geo-challenges",
        abstract: "world.geojson → the daily-challenge table's migration and seed for Supabase/PostgreSQL.",
        discussion: """
        Reads dist/world.geojson (CONTRACTS §1) and writes, in --out-dir (the Supabase CLI layout):
          • migrations/\(ChallengesStage.migrationName): the daily_challenges table of
            CONTRACTS §6 plus a unique date, a check that exactly one question type is true and a
            check that the answer is an ISO code (idempotent; adds the constraints to a table
            created earlier, and refuses, listing the dates and changing nothing, a table that
            already has two rows on one date);
          • seed.sql: one row per scheduled day, ids derived from the date;
        and a human report (--report): changes, type counts, repeat gaps, per-continent counts.

        The live table (--existing): its rows before --from never change, and by default no
        existing row changes at all: only days without a question are filled (`on conflict (date)
        do nothing`). --replan-future re-plans existing days from --from on; the update is
        restricted to dates on or after --from in the SQL itself. The rules hold across the
        boundary: the existing rows count for the repeat window, the neighbouring types and the
        small-country rule. --dry-run prints days added, days replanned and past rows touched.

        The schedule is deterministic: the same inputs and --seed give the same bytes, and day k
        depends only on the seed and days before k, so a longer --days keeps every earlier row.
        Rules: each block of three days asks silhouette, capital and flag once each in a seeded
        order, and no type two days running; silhouette questions only on polygon countries of at
        least --min-silhouette-area km²; capital questions only where a capital exists; flag
        questions on any country; no answer twice within --window days (capped to what the pools
        allow, see the report); within a question type's pool every country is used before any
        is used again; a small country (a point country or under --small-area km²) is never
        followed by another small one.

        Examples:
          geo-challenges dist/world.geojson --out-dir dist/supabase --days 365 \\
            --from 2026-01-01 --seed 20260101 --window 60 --report build/challenges/report.txt
          psql … -c "\\\\copy (select date, is_guess_country, is_guess_capital, is_guess_flag, answer from daily_challenges order by date) to 'live.csv' csv header"
          geo-challenges dist/world.geojson --existing live.csv --dry-run
        """)

    static let defaults = ChallengesStage.Options()

    @Argument(help: "The country set: world.geojson.")
    var world: String = defaults.world

    @Option(help: "Directory for migrations/ and seed.sql (a Supabase folder).")
    var outDir: String = defaults.outDir

    @Option(help: "Where to write the human report (also printed on stderr).")
    var report: String?

    @Option(help: "The live table's schedule, as `psql \\copy (select date, is_guess_country, is_guess_capital, is_guess_flag, answer from daily_challenges order by date) to FILE csv header` writes it.")
    var existing: String?

    @Option(help: "First day to schedule, YYYY-MM-DD. Default: the day after the last existing date, or tomorrow (UTC) without --existing.")
    var from: String?

    @Option(help: ArgumentHelp("Deprecated: the old name of --from.", visibility: .hidden))
    var start: String?

    @Option(help: "Number of days to schedule from --from.")
    var days: Int = defaults.days

    @Flag(help: "Re-plan existing days from --from on (never before it). Default: only days without a question are filled.")
    var replanFuture = false

    @Flag(help: "Print what the seed would change (days added, days replanned, past rows touched) and write nothing.")
    var dryRun = false

    @Option(help: "Seed of the schedule (an unsigned 64-bit integer).")
    var seed: UInt64 = defaults.seed

    @Option(help: "Minimum days between two uses of one answer (capped to what the pools allow).")
    var window: Int = defaults.window

    @Option(help: "Minimum area in km² of a polygon country for a silhouette question.")
    var minSilhouetteArea: Double = defaults.minSilhouetteAreaKm2

    @Option(help: "Countries under this area in km² (and point countries) count as small.")
    var smallArea: Double = defaults.smallAreaKm2

    @Option(help: "Today's date (UTC), YYYY-MM-DD: the default --from is the day after it, and --replan-future never starts on or before it. Default: the clock (give it to replay a night).")
    var today: String?

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: ChallengesStage.Options {
        get throws {
            if start != nil && from != nil { throw ValidationError("give --from only (--start is its deprecated name)") }
            var o = ChallengesStage.Options()
            o.world = world; o.outDir = outDir; o.report = report; o.existing = existing
            o.from = from ?? start; o.days = days; o.replanFuture = replanFuture; o.dryRun = dryRun
            o.seed = seed; o.window = window
            o.minSilhouetteAreaKm2 = minSilhouetteArea; o.smallAreaKm2 = smallArea
            if let today {
                guard let day = Day(iso: today) else { throw ValidationError("--today must be a date YYYY-MM-DD (got \"\(today)\")") }
                o.today = day
            }
            return o
        }
    }

    func run() throws {
        if start != nil { FileHandle.standardError.write(Data("geo-challenges: --start is deprecated; use --from\n".utf8)) }
        try ChallengesStage.execute(options, quiet: quiet)
    }
}

ChallengesCommand.main()

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

    static let defaults = ChallengesStage.Options()

    @Argument(help: "The country set: world.geojson.")
    var world: String = defaults.world

    @Option(help: "Directory for schema.sql and seed.sql.")
    var outDir: String = defaults.outDir

    @Option(help: "Where to write the human report (also printed on stderr).")
    var report: String?

    @Option(help: "Number of days to schedule.")
    var days: Int = defaults.days

    @Option(help: "First day, YYYY-MM-DD.")
    var start: String = defaults.start

    @Option(help: "Seed of the schedule (an unsigned 64-bit integer).")
    var seed: UInt64 = defaults.seed

    @Option(help: "Minimum days between two uses of one answer (capped to what the pools allow).")
    var window: Int = defaults.window

    @Option(help: "Minimum area in km² of a polygon country for a silhouette question.")
    var minSilhouetteArea: Double = defaults.minSilhouetteAreaKm2

    @Option(help: "Countries under this area in km² (and point countries) count as small.")
    var smallArea: Double = defaults.smallAreaKm2

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: ChallengesStage.Options {
        var o = ChallengesStage.Options()
        o.world = world; o.outDir = outDir; o.report = report
        o.days = days; o.start = start; o.seed = seed; o.window = window
        o.minSilhouetteAreaKm2 = minSilhouetteArea; o.smallAreaKm2 = smallArea
        return o
    }

    func run() throws { try ChallengesStage.execute(options, quiet: quiet) }
}

ChallengesCommand.main()

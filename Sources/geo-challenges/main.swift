import StageCommand
import ChallengesStage
import DailyChallenges

StageFront<ChallengesStage>(
    name: "geo-challenges",
    abstract: "world.geojson → the daily-challenge table's migration and seed for Supabase/PostgreSQL.",
    discussion: """
    Reads dist/world.geojson (CONTRACTS §1) and writes, in --output-dir (the Supabase CLI layout):
      • migrations/\(DailyChallenges.migrationName): the daily_challenges table of
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
      geo-challenges dist/world.geojson --output-dir dist/supabase --days 365 \\
        --from 2026-01-01 --seed 20260101 --window 60 --report build/challenges/report.txt
      psql … -c "\\\\copy (select date, is_guess_country, is_guess_capital, is_guess_flag, answer from daily_challenges order by date) to 'live.csv' csv header"
      geo-challenges dist/world.geojson --existing live.csv --dry-run
    """).main()

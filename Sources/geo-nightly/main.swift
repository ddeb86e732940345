import StageCommand
import NightlyStage

StageFront<NightlyStage>(
    name: "geo-nightly",
    abstract: "Brings the apps' live PostgreSQL up to date: one transaction per app (CONTRACTS §9).",
    discussion: """
    The databases come from the environment, never from the command line (where a password
    would show in `ps`): DATABASE_URL (libpq URI or conninfo) for every app, or per app
    QUIZ_DATABASE_URL, GAME_DATABASE_URL, CITIES_DATABASE_URL. Errors name host, port,
    database and user, never the password.

    quiz: reads daily_challenges, applies its migration, adds a row for each day from today
    through today + --ahead that has none; no existing row changes. territory: judges
    tonight's runs over the live territory_hex and writes users, runs and territory_hex
    (COPY into temporary tables, one merge; a cell changes owner only for a later claim).
    cities: applies the cities migration and seed (a city is never deleted).
    Each app: one transaction behind an advisory lock (a second night waits, or stops with
    --no-wait), and a row in geodata.nights. See docs/OPERATIONS.md.

    Example:
      DATABASE_URL=postgresql://postgres@db.example/postgres geo-nightly --apps quiz --today 2026-11-25
    """,
    environment: { options, env in options.readDatabaseURLs(from: env) }).main()

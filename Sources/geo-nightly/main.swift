import ArgumentParser
import Foundation
import NightlyStage
import StageCommand

struct NightlyCommand: StageCommand {
    typealias Stage = NightlyStage
    static let defaults = NightlyStage.Options()
    static let configuration = CommandConfiguration(
        commandName: "geo-nightly",
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
        """)

    @Option(help: "Apps, space- or comma-separated: quiz territory cities.")
    var apps: String = defaults.apps.joined(separator: " ")

    @Option(help: "The night's date YYYY-MM-DD (default: today, UTC).")
    var today: String?

    @Flag(help: "Print what each app would change; change nothing.")
    var dryRun = false

    @Flag(inversion: .prefixedNo, help: "Wait for another night of an app that is running (--no-wait: stop at once).")
    var wait = defaults.wait

    @Option(help: "The quiz's country set.")
    var world: String = defaults.world

    @Option(help: "Days after today that must have a quiz question.")
    var ahead: Int = defaults.ahead

    @Option(help: "Tonight's runs (GeoJSON FeatureCollection, CONTRACTS §8).")
    var runs: String = defaults.runs

    @Option(help: "i/n: load only shard i of n of the runs.")
    var shard: String?

    @Option(help: "Worker threads for judging runs.")
    var threads: Int = defaults.threads

    @Option(help: "The cities seed written by geo-cities.")
    var citiesSeed: String = defaults.citiesSeed

    @Option(help: "The pipeline's commit, recorded in geodata.nights.")
    var pipelineCommit: String = defaults.pipelineCommit

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: NightlyStage.Options {
        var o = NightlyStage.Options()
        let env = ProcessInfo.processInfo.environment
        o.databaseURL = env["DATABASE_URL"]
        for (app, name) in NightlyStage.Options.urlVariables { o.appURLs[app] = env[name] }
        o.apps = apps.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        o.today = today; o.dryRun = dryRun; o.wait = wait
        o.world = world; o.ahead = ahead; o.runs = runs; o.shard = shard; o.threads = threads
        o.citiesSeed = citiesSeed; o.pipelineCommit = pipelineCommit
        return o
    }
}

NightlyCommand.main()

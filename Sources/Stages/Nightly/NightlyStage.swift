import CalendarDay
import Foundation
import GeoModel
import GeoPostgres
import NightDatabase
import StageContract
import TerritoryGame
import TerritoryOptions
import TerritoryPostgres

/// The night against the apps' live PostgreSQL (CONTRACTS §9, issue #21): for each app, one
/// transaction behind an advisory lock that reads the live tables, checks them against the
/// contract, writes what changed (COPY into temporary tables, one set-based merge) and records
/// the night in `geodata.nights`. The apps are AppNight.swift's; each is its own file.
public enum NightlyStage: PipelineStage {
    public static let name = "nightly"
    public static let knownApps = ["quiz", "territory", "cities"]

    public struct Options: DeclaredOptions {
        /// Apps to bring up to date, in this order.
        public var apps = NightlyStage.knownApps
        /// libpq URI or conninfo for every app; per app overrides. Read from the environment by
        /// the front (never from the command line, where `ps` would show a password).
        public var databaseURL: String? = nil
        public var appURLs: [String: String] = [:]
        /// The night's date, YYYY-MM-DD (UTC); nil: today.
        public var today: String? = nil
        /// Do everything in the transactions, print what would change, roll back.
        public var dryRun = false
        /// Another night of an app running: wait for it (true) or stop at once.
        public var wait = true
        /// The quiz: the country set and how many days ahead must have a question.
        public var world = "dist/world.geojson"
        public var ahead = 60
        /// The game: a runs file to load (CONTRACTS §8: an import, a replay); nil: the runs the
        /// app submitted that are still pending in its database (CONTRACTS §8b).
        public var runsFile: String? = nil
        /// … a file's shard, the rejects allowed and the threads, declared by TerritoryOptions as
        /// for geo-territory.
        public var runs = RunsOptions()
        /// The cities: the seed `make cities` wrote (the migration is the stage's own text).
        public var citiesSeed = "dist/supabase/cities/seed.sql"
        /// The pipeline's commit, recorded with each night.
        public var pipelineCommit = "unknown"
        public init() {}

        /// The connection string of `app`: its own, else DATABASE_URL.
        public func url(for app: String) -> String? {
            (appURLs[app].flatMap { $0.isEmpty ? nil : $0 }) ?? databaseURL.flatMap { $0.isEmpty ? nil : $0 }
        }

        public static let urlVariables = ["quiz": "QUIZ_DATABASE_URL", "territory": "GAME_DATABASE_URL", "cities": "CITIES_DATABASE_URL"]

        /// `apps` as the command line spells them.
        public var appList: WordList {
            get { WordList(apps) }
            set { apps = newValue.words }
        }

        public static let declared: [StageOption<Options>] = [
            .option("apps", \.appList, help: "Apps, space- or comma-separated: quiz territory cities (NIGHTLY_APPS)."),
            .option("today", \.today, help: "The night's date YYYY-MM-DD (NIGHTLY_TODAY; default: today, UTC)."),
            .flag("dry-run", \.dryRun, help: "Print what each app would change; change nothing."),
            .flag("wait", \.wait, inversion: true, help: "Wait for another night of an app that is running (--no-wait: stop at once)."),
            .option("world", \.world, help: "The quiz's country set."),
            .option("ahead", \.ahead, .within(0...3650), help: "Days after today that must have a quiz question."),
            .option("runs", \.runsFile, help: "A runs file to load (GeoJSON FeatureCollection, CONTRACTS §8: an import, a replay); without it, the game's pending runs in its database (CONTRACTS §8b)."),
        ] + RunsOptions.declared.map { $0.nested(at: \.runs) } + [
            .option("cities-seed", \.citiesSeed, help: "The cities seed written by geo-cities."),
            .option("pipeline-commit", \.pipelineCommit, help: "The pipeline's commit, recorded in geodata.nights."),
        ]

        /// The databases, from the environment (never the command line, where `ps` would show a password).
        public mutating func readDatabaseURLs(from environment: [String: String]) {
            databaseURL = environment["DATABASE_URL"]
            for (app, name) in Self.urlVariables { appURLs[app] = environment[name] }
        }

        public func validateRules() throws {
            guard !apps.isEmpty else { throw OptionsError("--apps (NIGHTLY_APPS) names no app; known: \(knownApps.joined(separator: " "))") }
            for a in apps where !knownApps.contains(a) {
                throw OptionsError("--apps (NIGHTLY_APPS): unknown app \"\(a)\"; known: \(knownApps.joined(separator: " "))")
            }
            _ = try day()
            if try runs.validatedShard() != nil, runsFile == nil {
                throw OptionsError("--shard (TERRITORY_SHARD) splits a runs file: give --runs (TERRITORY_RUNS) too")
            }
            for a in apps where url(for: a) == nil {
                throw OptionsError("\(a) has no database: set DATABASE_URL or \(Self.urlVariables[a]!) (a libpq URI or conninfo)")
            }
        }

        /// The night's date: `today`, or the clock's (UTC).
        public func day() throws -> Day {
            guard let t = today else { return Day(date: Date()) }
            guard let d = Day(iso: t), d.components.year >= 1 else { throw OptionsError("--today (NIGHTLY_TODAY) must be a date YYYY-MM-DD (got \"\(t)\")") }
            return d
        }
    }

    public struct Report: StageReport {
        /// One line per app, as printed and as recorded in geodata.nights.
        public var lines: [String] = []
        public var dryRun = false
        public var summary: String { (dryRun ? "dry run, nothing changed: " : "") + lines.joined(separator: " | ") }
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        let today = try o.day()
        var report = Report(dryRun: o.dryRun)
        var failed: [String] = []
        for app in o.apps {
            var night: AppNight
            switch app {
            case "quiz": night = QuizNight(world: o.world, ahead: o.ahead, today: today)
            case "territory": night = TerritoryNight(runs: o.runsFile, shard: o.runs.shard, maxRejects: o.runs.maxRejects, threads: o.runs.threads)
            default: night = CitiesNight(seed: o.citiesSeed)
            }
            let line: String
            do {
                line = try NightRunner(app: app, url: o.url(for: app)!, options: o, log: log).run(&night)
            } catch {
                line = "\(app): FAILED: \(error)"
                failed.append(app)
            }
            print(line)
            fflush(nil)   // every C stream, stdout among them (Swift 6 does not let nonisolated code read the `stdout` global)
            report.lines.append(line)
        }
        if !failed.isEmpty {
            throw StageError("the night failed for \(failed.joined(separator: ", ")) (each failed app was rolled back: its tables are as before); see docs/OPERATIONS.md")
        }
        return report
    }
}

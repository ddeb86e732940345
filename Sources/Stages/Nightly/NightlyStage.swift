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
/// the night in `geodata.nights`. The frame is NightRunner.swift's; each app is its own file.
public enum NightlyStage: PipelineStage {
    public static let name = "nightly"

    /// The apps a night brings up to date, as `--apps` names them.
    public enum App: String, CaseIterable, Sendable, OptionValue {
        case quiz, territory, cities

        public init?(optionText: String) { self.init(rawValue: optionText) }
        public var optionText: String { rawValue }

        /// The environment variable holding this app's own database (else DATABASE_URL).
        public var urlVariable: String {
            switch self {
            case .quiz: "QUIZ_DATABASE_URL"
            case .territory: "GAME_DATABASE_URL"
            case .cities: "CITIES_DATABASE_URL"
            }
        }

        /// Every app, as messages list them: "quiz territory cities".
        static var known: String { allCases.optionText }
    }

    public struct Options: DeclaredOptions {
        /// Apps to bring up to date, in this order.
        public var apps = App.allCases
        /// libpq URI or conninfo for every app; per app overrides. Read from the environment by
        /// the front (never from the command line, where `ps` would show a password).
        public var databaseURL: String? = nil
        public var appURLs: [App: String] = [:]
        /// The night's date (UTC); nil: today.
        public var today: Day? = nil
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
        public func url(for app: App) -> String? {
            (appURLs[app].flatMap { $0.isEmpty ? nil : $0 }) ?? databaseURL.flatMap { $0.isEmpty ? nil : $0 }
        }

        /// The connection string of `app`, or an `OptionsError` naming the variables to set.
        public func database(for app: App) throws -> String {
            guard let url = url(for: app) else {
                throw OptionsError("\(app.rawValue) has no database: set DATABASE_URL or \(app.urlVariable) (a libpq URI or conninfo)")
            }
            return url
        }

        public static let declared: [StageOption<Options>] = [
            .option("apps", \.apps, invalid: { text in
                        let unknown = text.split(whereSeparator: { $0 == " " || $0 == "," }).first { App(rawValue: String($0)) == nil } ?? ""
                        return "--apps (NIGHTLY_APPS): unknown app \"\(unknown)\"; known: \(App.known)"
                    }, help: "Apps, space- or comma-separated: quiz territory cities (NIGHTLY_APPS)."),
            .option("today", \.today, invalid: { "--today (NIGHTLY_TODAY) must be a date YYYY-MM-DD (got \"\($0)\")" },
                    help: "The night's date YYYY-MM-DD (NIGHTLY_TODAY; default: today, UTC)."),
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
            for app in App.allCases { appURLs[app] = environment[app.urlVariable] }
        }

        public func validateRules() throws {
            guard !apps.isEmpty else { throw OptionsError("--apps (NIGHTLY_APPS) names no app; known: \(App.known)") }
            if try runs.validatedShard() != nil, runsFile == nil {
                throw OptionsError("--shard (TERRITORY_SHARD) splits a runs file: give --runs (TERRITORY_RUNS) too")
            }
            for app in apps { _ = try database(for: app) }
        }

        /// The night's date: `today`, or the clock's (UTC).
        public func day() -> Day { today ?? Day(date: Date()) }
    }

    public struct Report: StageReport {
        /// One line per app, as printed and as recorded in geodata.nights.
        public var lines: [String] = []
        public var dryRun = false
        public var summary: String { (dryRun ? "dry run, nothing changed: " : "") + lines.joined(separator: " | ") }
    }

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        let today = o.day()
        var report = Report(dryRun: o.dryRun)
        var failed: [String] = []
        for app in o.apps {
            var night: AppNight
            switch app {
            case .quiz: night = QuizNight(world: o.world, ahead: o.ahead, today: today)
            case .territory: night = TerritoryNight(runs: o.runsFile, shard: o.runs.shard, maxRejects: o.runs.maxRejects, threads: o.runs.threads)
            case .cities: night = CitiesNight(seed: o.citiesSeed)
            }
            let line: String
            do {
                line = try NightRunner(app: app.rawValue, url: o.database(for: app), options: o, log: log).run(&night)
            } catch {
                line = "\(app.rawValue): FAILED: \(error)"
                failed.append(app.rawValue)
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

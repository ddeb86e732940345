import CalendarDay
import Foundation
import StageContract
import Testing
import GeoModel
import StageCommand
import WorldStage
import MapStage
import SilhouettesStage
import CitiesStage
import RoutesStage
import ChallengesStage
import HighlightsStage
import GlobeStage
import PreviewStage
import IngestStage
import TerritoryStage
import TerritoryFollowStage
import LookupStage
import NightlyStage
import ReleaseStage

/// The fronts parse the command line from the stages' declared options, as swift-argument-parser
/// did, and every numeric option is range-checked by `validate()`.
@Suite struct StageFrontTests {
    let world = StageFront<WorldStage>(name: "geo-world", abstract: "World.", discussion: "")

    func parsed<S>(_ front: StageFront<S>, _ arguments: [String]) throws -> (S.Options, quiet: Bool, notes: [String]) {
        switch front.parse(arguments) {
        case .parsed(let o, let quiet, let notes): return (o, quiet, notes)
        case .help: throw OptionsError("help")
        case .usageError(let message, _): throw OptionsError(message)
        }
    }

    func usageError<S>(_ front: StageFront<S>, _ arguments: [String]) -> String? {
        if case .usageError(let message, _) = front.parse(arguments) { return message }
        return nil
    }

    @Test func readsTheCommandLineAsBefore() throws {
        let (o, quiet, _) = try parsed(world, ["in.geojson", "-o", "out.geojson", "--target-vertices=0", "--no-fill-point-gaps",
                                               "--min-island-km2", "5", "-q", "--report", "r.tsv", "--per-country"])
        #expect(o.input == "in.geojson" && o.output == "out.geojson" && o.simplification == .keepAll)
        #expect(!o.fillPointGaps && o.minIslandKm2 == 5 && o.report == "r.tsv" && o.perCountry && quiet)
        // Defaults come from Options(); grouped short flags; "--" before an argument with a dash.
        let (d, q, _) = try parsed(world, ["-qo", "x.geojson", "--", "-odd.geojson"])
        #expect(d.output == "x.geojson" && d.input == "-odd.geojson" && q && d.simplification == .vertexBudget(175_000) && d.threads == 2)
        // A tolerance wins over the budget whatever their order; the last of a repeated option wins.
        #expect(try parsed(world, ["--tolerance-km", "3", "--target-vertices", "5"]).0.simplification == .toleranceKm(3))
        #expect(try parsed(world, ["--threads", "3", "--threads", "4"]).0.threads == 4)
    }

    @Test func refusesWhatItCannotRead() {
        #expect(usageError(world, ["--bogus"]) == "Unknown option '--bogus'")
        #expect(usageError(world, ["-x"]) == "Unknown option '-x'")
        #expect(usageError(world, ["--threads"]) == "Missing value for '--threads <threads>'")
        #expect(usageError(world, ["--threads", "abc"]) == "The value 'abc' is invalid for '--threads <threads>'")
        #expect(usageError(world, ["a", "b"]) == "Unexpected argument 'b'")
        #expect(usageError(world, ["--per-country=1"]) == "The option '--per-country' does not take any value, but '1' was specified.")
        let map = StageFront<MapStage>(name: "geo-map", abstract: "", discussion: "")
        #expect(usageError(map, []) == "Missing expected argument '<input>'")
        if case .help = world.parse(["x", "--help"]) {} else { Issue.record("--help is not help") }
    }

    @Test func aNegativeNumberIsAValueAndItsRangeNamesTheOption() throws {
        let (o, _, _) = try parsed(world, ["--threads", "-5"])
        #expect(o.threads == -5)
        #expect(throws: OptionsError.self) { try o.validate() }
        do { try o.validate() } catch let e as OptionsError { #expect(e.message == "--threads must be at least 1") }
    }

    @Test func oldSpellingsStillWork() throws {
        let silhouettes = StageFront<SilhouettesStage>(name: "geo-silhouettes", abstract: "", discussion: "")
        #expect(try parsed(silhouettes, ["w.geojson", "--output", "/tmp/a"]).0.outputDir == "/tmp/a")
        #expect(try parsed(silhouettes, ["w.geojson", "-o", "/tmp/b"]).0.outputDir == "/tmp/b")
        let cities = StageFront<CitiesStage>(name: "geo-cities", abstract: "", discussion: "")
        #expect(try parsed(cities, ["--out-dir", "/tmp/c"]).0.outputDir == "/tmp/c")
        let routes = StageFront<RoutesStage>(name: "geo-routes", abstract: "", discussion: "")
        #expect(try parsed(routes, ["r.tsv", "--out-dir", "/tmp/d"]).0.outputDir == "/tmp/d")
    }

    @Test func helpShowsEveryOptionWithItsDefault() {
        let help = world.help
        for o in WorldStage.Options.declared { #expect(help.contains(o.spelling == "<input>" ? "<input>" : "--" + o.name)) }
        #expect(help.contains("(default: 175000)") && help.contains("(default: --fill-point-gaps)") && help.contains("-q, --quiet"))
        #expect(help.split(separator: "\n").allSatisfy { $0.count < 80 || $0.hasPrefix("USAGE:") })
    }

    @Test func rangesReadAsSentences() {
        #expect(OptionRange<Int>.atLeast(0).contains(0) && !OptionRange<Int>.atLeast(1).contains(0))
        #expect(OptionRange<Double>.above(0.05, atMost: 1).contains(1) && !OptionRange<Double>.above(0.05, atMost: 1).contains(0.05))
        #expect(OptionRange<Double>.within(0..<1).contains(0) && !OptionRange<Double>.within(0..<1).contains(1))
    }

    /// Every numeric option has a range: a value outside every range (NaN, a huge negative
    /// number) makes `validate()` name it.
    func everyNumberIsChecked<O: DeclaredOptions>(_: O.Type, valid base: O = O()) {
        #expect(throws: Never.self) { try base.validate() }
        for option in O.declared {
            guard case .option = option.kind else { continue }
            var probe = base
            guard !option.apply(&probe, "not a number") else { continue }   // text: no range
            var o = base
            guard option.apply(&o, "nan") || option.apply(&o, "-999999999") else { continue }  // a date
            do { try o.validate(); Issue.record("\(O.self): --\(option.name) is not range-checked") } catch let e as OptionsError {
                #expect(e.message.hasPrefix("--\(option.name) "), "\(e.message)")
            } catch { Issue.record("\(error)") }
        }
    }

    @Test func everyNumericOptionIsValidated() {
        everyNumberIsChecked(WorldStage.Options.self)
        everyNumberIsChecked(MapStage.Options.self)
        everyNumberIsChecked(SilhouettesStage.Options.self)
        everyNumberIsChecked(CitiesStage.Options.self)
        everyNumberIsChecked(RoutesStage.Options.self)
        everyNumberIsChecked(ChallengesStage.Options.self)
        everyNumberIsChecked(HighlightsStage.Options.self)
        everyNumberIsChecked(GlobeStage.Options.self)
        everyNumberIsChecked(PreviewStage.Options.self)
        everyNumberIsChecked(IngestStage.Options.self)
        everyNumberIsChecked(TerritoryStage.Options.self)
        everyNumberIsChecked(LookupStage.Options.self)
        var night = NightlyStage.Options()
        night.databaseURL = "postgresql:///night"   // the environment's part: the stage needs a database
        everyNumberIsChecked(NightlyStage.Options.self, valid: night)
        var follow = TerritoryFollowStage.Options()
        follow.databaseURL = "postgresql:///game"
        everyNumberIsChecked(TerritoryFollowStage.Options.self, valid: follow)
        everyNumberIsChecked(InspectStage.Options.self)
        var release = ReleaseStage.Options()
        (release.out, release.day) = ("/tmp/release", Day(iso: "2026-11-28"))   // the stage needs both
        everyNumberIsChecked(ReleaseStage.Options.self, valid: release)
        var query = LookupStage.QueryOptions()
        (query.latitude, query.longitude) = (48.85, 2.35)
        everyNumberIsChecked(LookupStage.QueryOptions.self, valid: query)
        everyNumberIsChecked(LookupStage.BenchOptions.self)
    }

    /// geo-lookup's query: the same parser, a negative coordinate needs no "--".
    @Test func commandsBesideTheStages() throws {
        let query = Command<LookupStage.QueryOptions>(name: "geo-lookup query", abstract: "Query.") { _, _ in }
        guard case .parsed(let q, let quiet, _) = query.parse(["-q", "--city-km", "5", "-33.87", "151.21"]) else { Issue.record("not parsed"); return }
        #expect(q.latitude == -33.87 && q.longitude == 151.21 && q.cityKm == 5 && quiet && !q.batch)
        #expect(throws: Never.self) { try q.validate() }
        guard case .parsed(let b, _, _) = query.parse(["--batch", "1", "2"]) else { Issue.record("not parsed"); return }
        do { try b.validate(); Issue.record("--batch with coordinates") } catch let e as OptionsError {
            #expect(e.message == "--batch reads standard input; give no coordinates")
        }
        guard case .usageError(let message, let help) = query.parse(["abc", "1"]) else { Issue.record("abc parsed"); return }
        #expect(message == "The value 'abc' is invalid for '<latitude>'" && help == "<latitude>  Latitude in degrees.")
        #expect(query.usage == "geo-lookup query [--index <index>] [--city-km <city-km>] [--batch] [<latitude>] [<longitude>] [--quiet]")
    }

    /// An option without a default (geo-hexagons' `--res`) must be given; usage shows it unbracketed.
    @Test func aRequiredOptionMustBeGiven() throws {
        struct Res: DeclaredOptions {
            var res = 0
            var file = ""
            static let declared: [StageOption<Res>] = [.required("res", \.res, help: "H3 resolution 0...15"),
                                                       .argument("file", \.file, required: true, help: "GeoJSON file")]
        }
        let polyfill = Command<Res>(name: "geo-hexagons polyfill", abstract: "Cells.") { _, _ in }
        guard case .usageError(let message, let help) = polyfill.parse(["f.geojson"]) else { Issue.record("parsed without --res"); return }
        #expect(message == "Missing expected argument '--res <res>'" && help == "--res <res>  H3 resolution 0...15")
        guard case .parsed(let o, _, _) = polyfill.parse(["--res", "9", "f.geojson"]) else { Issue.record("not parsed"); return }
        #expect(o.res == 9 && o.file == "f.geojson")
        #expect(polyfill.usage == "geo-hexagons polyfill --res <res> <file> [--quiet]")
        #expect(!polyfill.help.contains("(default: 0)"))
    }

    /// A group lists its subcommands, the default marked, scripts' commands hidden.
    @Test func aGroupListsItsSubcommands() {
        let group = CommandGroup(name: "geo-lookup", abstract: "Lookup.", subcommands: [
            Command<LookupStage.QueryOptions>(name: "query", abstract: "Ask the index.") { _, _ in },
            Command<LookupStage.BenchOptions>(name: "bench", abstract: "Time it.", listed: false) { _, _ in },
        ], defaultSubcommand: "query")
        #expect(group.help.contains("  query (default)         Ask the index.") && !group.help.contains("bench"))
        #expect(group.subcommands.map(\.name) == ["geo-lookup query", "geo-lookup bench"])
    }

    @Test func frontSpecificSpellings() throws {
        // --data-dir points every data path at it; a path given on its own wins, in any order.
        let ingest = StageFront<IngestStage>(name: "geo-ingest", abstract: "", discussion: "")
        let (i, _, _) = try parsed(ingest, ["u.geojson", "--capitals", "/x/caps.tsv", "--data-dir", "/d"])
        #expect(i.input == "u.geojson" && i.capitalsPath == "/x/caps.tsv" && i.namesPath == "/d/names.tsv" && i.countrySetPath == "/d/app_country_codes.txt")
        // A deprecated spelling works with a note; both spellings at once are refused.
        let challenges = StageFront<ChallengesStage>(name: "geo-challenges", abstract: "", discussion: "")
        let (c, _, notes) = try parsed(challenges, ["--start", "2026-01-01", "--today", "2025-12-31"])
        #expect(c.from == Day(iso: "2026-01-01") && c.today == Day(iso: "2025-12-31") && notes == ["--start is deprecated; use --from"])
        #expect(usageError(challenges, ["--start", "2026-01-01", "--from", "2026-01-02"]) == "give --from only (--start is its deprecated name)")
        #expect(usageError(challenges, ["--today", "x"]) == "--today must be a date YYYY-MM-DD (got \"x\")")
        // An inverted flag; the preview's views as one value.
        let globe = StageFront<GlobeStage>(name: "geo-globe", abstract: "", discussion: "")
        #expect(try !parsed(globe, ["w.geojson", "--float-normals"]).0.quantizeNormals)
        let preview = StageFront<PreviewStage>(name: "geo-preview", abstract: "", discussion: "")
        let views = try parsed(preview, ["g.glb", "--views", "a=-30,20 b=0,-90"]).0.views
        #expect(views.map(\.name) == ["a", "b"] && views[1].center.y == -90)
        let nightly = StageFront<NightlyStage>(name: "geo-nightly", abstract: "", discussion: "")
        #expect(try parsed(nightly, ["--apps", "quiz,cities", "--no-wait"]).0.apps == [.quiz, .cities])
        // Every date option is a Day and every app a NightlyStage.App, parsed by the registry,
        // each with its own words.
        #expect(usageError(nightly, ["--apps", "quiz weather"]) == "--apps (NIGHTLY_APPS): unknown app \"weather\"; known: quiz territory cities")
        #expect(usageError(nightly, ["--today", "2026-02-30"]) == "--today (NIGHTLY_TODAY) must be a date YYYY-MM-DD (got \"2026-02-30\")")
        #expect(usageError(challenges, ["--from", "0000-01-01"]) == "--from must be a date YYYY-MM-DD from year 0001 on (got \"0000-01-01\")")
        let release = StageFront<ReleaseStage>(name: "geo-release", abstract: "", discussion: "")
        #expect(usageError(release, ["--day", "yesterday"]) == "--day must be a date YYYY-MM-DD (got \"yesterday\")")
        // The follower's database comes from the environment only, GAME_DATABASE_URL first.
        let follow = StageFront<TerritoryFollowStage>(name: "geo-territory-follow", abstract: "", discussion: "")
        var (f, _, _) = try parsed(follow, ["--batch", "200", "--drain", "--heartbeat", "/tmp/follower.alive"])
        #expect(f.batch == 200 && f.drain && f.heartbeat == "/tmp/follower.alive" && f.databaseURL == nil)
        // --max-rejects is for files (the night, geo-territory); a follower quarantines pending runs one by one.
        #expect(usageError(follow, ["--max-rejects", "3"]) == "Unknown option '--max-rejects'")
        #expect(throws: OptionsError.self) { try f.validate() }
        f.readDatabaseURL(from: ["DATABASE_URL": "postgresql:///b", "GAME_DATABASE_URL": "postgresql:///a"])
        #expect(f.databaseURL == "postgresql:///a")
        f.readDatabaseURL(from: ["DATABASE_URL": "postgresql:///b", "GAME_DATABASE_URL": ""])
        #expect(f.databaseURL == "postgresql:///b")
        #expect(usageError(follow, ["--database-url", "x"]) == "Unknown option '--database-url'")
        #expect(usageError(preview, ["g.glb", "--views", "a=1"]) == "--views must be name=lon,lat pairs separated by spaces (got \"a=1\")")
    }
}

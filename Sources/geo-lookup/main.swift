import ArgumentParser
import Foundation
import GeoLookup
import GeoModel
import LookupStage
import StageCommand

/// `geo-lookup build …` runs the stage; `geo-lookup LAT LON` and `--batch` ask the index (GeoLookup).
struct LookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo-lookup",
        abstract: "Offline \"where is this?\": build the lookup index, or ask it which country and city a point is in.",
        discussion: "geo-lookup build …: the lookup stage, which writes the index (geo-lookup build --help).",
        subcommands: [Query.self, Bench.self],
        defaultSubcommand: Query.self)
}

struct Query: ParsableCommand {
    static let defaults = LookupStage.Options()
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Country and nearest city of one point, or of every line of standard input.",
        discussion: """
        Answers `lat,lon,country,city` lines (GeoLookup.answer): the country is empty at sea
        beyond 12 nautical miles of a coast, the city the nearest populated place within
        --city-km. --batch reads `lat,lon` lines on standard input and answers each in order;
        a bad line stops it with an error naming the line, after the answers before it.
        Options go before the coordinates (negative ones too: geo-lookup -33.87 151.21).

        Examples:
          geo-lookup 48.8566 2.3522
          printf '35.68,139.69\\n-33.87,151.21\\n' | geo-lookup --batch --index dist/lookup/lookup.bin
        """)

    @Option(help: "The lookup index (make lookup).")
    var index: String = defaults.output

    @Option(help: "A point counts for its nearest city within this many km.")
    var cityKm: Double = GeoLookup.defaultCityRadiusKm

    @Flag(help: "Read lat,lon lines on standard input.")
    var batch = false

    @Argument(help: "Latitude and longitude in degrees.")
    var coordinates: [Double] = []

    @Flag(name: .shortAndLong, help: "Accepted for symmetry with the stages (a query prints no progress).")
    var quiet = false

    func validate() throws {
        if batch {
            guard coordinates.isEmpty else { throw ValidationError("--batch reads standard input; give no coordinates") }
        } else {
            guard coordinates.count == 2 else { throw ValidationError("give LAT LON (or --batch)") }
            guard abs(coordinates[0]) <= 90 else { throw ValidationError("latitude \(coordinates[0]) is outside -90…90") }
            guard abs(coordinates[1]) <= 180 else { throw ValidationError("longitude \(coordinates[1]) is outside -180…180") }
        }
        guard cityKm.isFinite, cityKm >= 0 else { throw ValidationError("--city-km must be ≥ 0") }
    }

    func run() throws {
        let lookup = try LookupStage.openIndex(index)
        if !batch {
            var out: [UInt8] = []
            lookup.answer(latText: Array(String(coordinates[0]).utf8)[...], lonText: Array(String(coordinates[1]).utf8)[...],
                          latitude: coordinates[0], longitude: coordinates[1], cityWithinKm: cityKm, into: &out)
            FileHandle.standardOutput.write(Data(out))
            return
        }
        let input = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        do {
            try lookup.answerBatch(input, cityWithinKm: cityKm) { FileHandle.standardOutput.write(Data($0)) }
        } catch let e as QueryLineError { throw InputError(file: "standard input", e.message) }
    }
}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Size, load time and lookups per second of an index, on one core (make bench).",
        discussion: """
        Loads the index --loads times, then times country(at:) and nearestCity(within: 25 km)
        on one thread (LookupStage.bench). Prints one `name<TAB>value` line per measure.
        """)

    @Option(help: "The lookup index.")
    var index: String = LookupStage.Options().output

    @Option(help: "Points per pass.")
    var points: Int = 1_000_000

    @Option(help: "How many times the index is loaded.")
    var loads: Int = 9

    func run() throws {
        for m in try LookupStage.bench(index: index, points: points, loads: loads) { print("\(m.name)\t\(m.value)") }
    }
}

let arguments = LookupStage.normalisedArguments(Array(CommandLine.arguments.dropFirst()))
// `geo-lookup build …` is the stage, its arguments derived from LookupStage.Options.declared.
if arguments.first == "build" {
    StageFront<LookupStage>(
        name: "geo-lookup build",
        abstract: "Full-detail country polygons + populated places → the lookup index (dist/lookup/lookup.bin).",
        discussion: """
        Writes the index the GeoLookup library reads (LookupStage): a 1° grid of quadtrees
        whose cells are one country, open sea or a few border edges; the coast edges give the
        12-nautical-mile rule. Fails if the index would exceed --max-bytes. Same inputs, same bytes.

        Example:
          geo-lookup build build/ingest/countries.geojson --places build/ingest/places.geojson -o dist/lookup/lookup.bin
        """).main(Array(arguments.dropFirst()))
}
LookupCommand.main(arguments)

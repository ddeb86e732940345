import ArgumentParser
import Foundation
import GeoLookup
import GeoModel
import LookupStage
import StageCommand

/// `geo-lookup build …` runs the stage; `geo-lookup LAT LON` and `geo-lookup --batch` ask
/// the index, through the same library the apps embed.
struct LookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo-lookup",
        abstract: "Offline \"where is this?\": build the lookup index, or ask it which country and city a point is in.",
        subcommands: [Query.self, Build.self, Bench.self],
        defaultSubcommand: Query.self)
}

struct Query: ParsableCommand {
    static let defaults = LookupStage.Options()
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Country and nearest city of one point, or of every line of standard input.",
        discussion: """
        Answers with `lat,lon,country,city` lines: the coordinates as given, the ISO code
        (empty at sea beyond 12 nautical miles of a coast), and the nearest Natural Earth
        populated place within --city-km (empty when none; quoted as in CSV when the name
        holds a comma or a quote).

        --batch reads `lat,lon` lines (degrees, decimal point) on standard input and writes
        one answer line per input line, in the same order. A line that is not two numbers, or a
        latitude outside -90…90 or longitude outside -180…180, stops it with an error naming the
        line. Options go before the coordinates (negative ones too: geo-lookup -33.87 151.21).

        Examples:
          geo-lookup 48.8566 2.3522
          printf '35.68,139.69\\n-33.87,151.21\\n' | geo-lookup --batch --index dist/lookup/lookup.bin
        """)

    @Option(help: "The lookup index (make lookup).")
    var index: String = defaults.outputPath

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
        let lookup: GeoLookup
        let bytes = try FileIO.readBytes(index)
        do { lookup = try GeoLookup(data: Data(bytes)) } catch let e as LookupIndexError { throw InputError(file: index, e.message) }
        if !batch {
            var out: [UInt8] = []
            answer(lookup, Array(String(coordinates[0]).utf8)[...], Array(String(coordinates[1]).utf8)[...], coordinates[0], coordinates[1], into: &out)
            FileHandle.standardOutput.write(Data(out))
            return
        }
        let input = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        var out: [UInt8] = []
        out.reserveCapacity(input.count * 2)
        var lineNo = 0
        var start = 0
        while start < input.count {
            var end = start
            while end < input.count && input[end] != 0x0A { end += 1 }
            lineNo += 1
            var line = input[start..<end]
            start = end + 1
            if line.last == 0x0D { line = line.dropLast() }
            if line.isEmpty { throw InputError(file: "standard input", "line \(lineNo) is empty; expected lat,lon") }
            guard let comma = line.firstIndex(of: 0x2C) else {
                throw InputError(file: "standard input", "line \(lineNo): expected lat,lon, got \(String(decoding: line.prefix(60), as: UTF8.self).debugDescription)")
            }
            let a = trim(line[line.startIndex..<comma]), b = trim(line[(comma + 1)...])
            guard let lat = Double(String(decoding: a, as: UTF8.self)), let lon = Double(String(decoding: b, as: UTF8.self)) else {
                throw InputError(file: "standard input", "line \(lineNo): expected two numbers lat,lon, got \(String(decoding: line.prefix(60), as: UTF8.self).debugDescription)")
            }
            guard abs(lat) <= 90, abs(lon) <= 180 else {
                throw InputError(file: "standard input", "line \(lineNo): \(lat),\(lon) is outside latitude -90…90 / longitude -180…180")
            }
            answer(lookup, a, b, lat, lon, into: &out)
            if out.count > 1 << 20 { FileHandle.standardOutput.write(Data(out)); out.removeAll(keepingCapacity: true) }
        }
        FileHandle.standardOutput.write(Data(out))
    }

    func trim(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = s
        while let f = s.first, f == 0x20 || f == 0x09 { s = s.dropFirst() }
        while let l = s.last, l == 0x20 || l == 0x09 { s = s.dropLast() }
        return s
    }

    func answer(_ lookup: GeoLookup, _ latText: ArraySlice<UInt8>, _ lonText: ArraySlice<UInt8>, _ lat: Double, _ lon: Double, into out: inout [UInt8]) {
        out += latText; out.append(0x2C); out += lonText; out.append(0x2C)
        if let c = lookup.country(at: lat, lon) { out += Array(c.utf8) }
        out.append(0x2C)
        if let city = lookup.nearestCity(to: lat, lon, within: cityKm) {
            if city.name.contains(",") || city.name.contains("\"") {
                out.append(0x22); out += Array(city.name.replacingOccurrences(of: "\"", with: "\"\"").utf8); out.append(0x22)
            } else {
                out += Array(city.name.utf8)
            }
        }
        out.append(0x0A)
    }
}

struct Build: StageCommand {
    typealias Stage = LookupStage
    static let defaults = LookupStage.Options()
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Full-detail country polygons + populated places → the lookup index (dist/lookup/lookup.bin).",
        discussion: """
        Reads the ingest stage's countries (one feature per country, polygons at full detail:
        Monaco and the Vatican are polygons there) and the Natural Earth populated places, and
        writes the index the GeoLookup library reads: a 1° grid of quadtrees whose cells are
        one country, open sea, or a few border edges clipped to the cell; the coast edges give
        the 12-nautical-mile rule. Fails if the index would exceed --max-bytes. The same
        inputs give the same bytes.

        Example:
          geo-lookup build build/ingest/countries.geojson --places data/natural-earth/ne_10m_populated_places.geojson -o dist/lookup/lookup.bin
        """)

    @Argument(help: "Country polygons at full detail (the ingest stage's output).")
    var countries: String = defaults.countriesPath

    @Option(help: "Natural Earth populated places (GeoJSON points).")
    var places: String = defaults.placesPath

    @Option(name: [.short, .customLong("output")], help: "The index file.")
    var output: String = defaults.outputPath

    @Option(help: "Split a cell holding more border edges than this.")
    var maxEdges: Int = defaults.maxEdgesPerLeaf

    @Option(help: "Deepest split (below the 1° cells) of open sea where the buffer's edge passes.")
    var seaDepth: Int = defaults.seaMaxDepth

    @Option(help: "Sea within this many km of a coast belongs to the coast's country.")
    var coastBufferKm: Double = defaults.coastBufferKm

    @Option(help: "Largest index size accepted, in bytes.")
    var maxBytes: Int = defaults.maxBytes

    @Option(help: "Root rows built at once (the bytes do not depend on it).")
    var threads: Int = defaults.threads

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: LookupStage.Options {
        var o = LookupStage.Options()
        o.countriesPath = countries; o.placesPath = places; o.outputPath = output
        o.maxEdgesPerLeaf = maxEdges; o.seaMaxDepth = seaDepth; o.coastBufferKm = coastBufferKm; o.maxBytes = maxBytes; o.threads = threads
        return o
    }


}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Size, load time and lookups per second of an index, on one core (make bench).",
        discussion: """
        Loads the index --loads times (median: reading the file, checking it, ready to answer),
        then times country(at:) on one thread over --points points uniform on the sphere, and
        over as many points within 0.2° of the index's cities (where people log places: cells
        with borders, coasts), best of 3 passes; and nearestCity(within: 25 km). Fixed seed.
        Prints one `name<TAB>value` line per measure.
        """)

    @Option(help: "The lookup index.")
    var index: String = LookupStage.Options().outputPath

    @Option(help: "Points per pass.")
    var points: Int = 1_000_000

    @Option(help: "How many times the index is loaded.")
    var loads: Int = 9

    func run() throws {
        let url = URL(fileURLWithPath: index)
        var times: [Double] = []
        var lookup: GeoLookup!
        for _ in 0..<max(1, loads) {
            let t = DispatchTime.now().uptimeNanoseconds
            lookup = try GeoLookup(contentsOf: url)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6)
        }
        times.sort()
        var rng = SplitMix64(state: 20261122)
        func next() -> Double { rng.unit() }
        var uniform: [(Double, Double)] = [], nearCities: [(Double, Double)] = []
        for _ in 0..<points { uniform.append((asin(2 * next() - 1) * 180 / .pi, 360 * next() - 180)) }
        let cities = lookup.cities
        for _ in 0..<points {
            let c = cities[Int(next() * Double(cities.count)) % cities.count].coordinate
            nearCities.append((max(-90, min(90, c.latitude + 0.4 * next() - 0.2)), max(-180, min(180, c.longitude + 0.4 * next() - 0.2))))
        }
        func rate(_ pts: [(Double, Double)], _ body: (Double, Double) -> Bool) -> (Double, Int) {
            var best = 0.0, hits = 0
            for _ in 0..<3 {
                hits = 0
                let t = DispatchTime.now().uptimeNanoseconds
                for (la, lo) in pts where body(la, lo) { hits += 1 }
                let s = Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9
                best = max(best, Double(pts.count) / s)
            }
            return (best, hits)
        }
        let (u, uHits) = rate(uniform) { lookup.countryIndex(latitude: $0, longitude: $1) != nil }
        let (n, nHits) = rate(nearCities) { lookup.countryIndex(latitude: $0, longitude: $1) != nil }
        let (c, cHits) = rate(Array(nearCities.prefix(max(1, points / 10)))) { lookup.nearestCity(to: $0, $1, within: 25) != nil }
        print("index bytes\t\(lookup.byteCount)")
        print("load ms (median of \(times.count))\t\(String(format: "%.2f", times[times.count / 2]))")
        print("country(at:) per s, uniform on the sphere (\(uHits) of \(points) in a country)\t\(Int(u))")
        print("country(at:) per s, within 0.2° of cities (\(nHits) of \(points) in a country)\t\(Int(n))")
        print("nearestCity(within: 25 km) per s, within 0.2° of cities (\(cHits) found)\t\(Int(c))")
    }
}

// `geo-lookup -q build …` (flags first, as the bad-input harness calls every stage) is
// `geo-lookup build -q …`.
var args = Array(CommandLine.arguments.dropFirst())
if let b = args.firstIndex(of: "build"), b > 0, args[..<b].allSatisfy({ $0 == "-q" || $0 == "--quiet" }) {
    args.remove(at: b)
    args.insert("build", at: 0)
}
// Coordinates may be negative: ArgumentParser would read "-33.87" as an option, so a "--"
// goes before the first number that is not an option's value.
if !args.contains("--"), args.first != "build", args.first != "bench" {
    let valued: Set<String> = ["--index", "--city-km"]
    var i = 0
    while i < args.count {
        if valued.contains(args[i]) { i += 2; continue }
        if Double(args[i]) != nil { args.insert("--", at: i); break }
        i += 1
    }
}
LookupCommand.main(args)

// The highlights stage: the curated country_highlights.json, validated against the country set
// and the Natural Earth populated places (CityCheck.swift), written back in a stable form
// (HighlightsFile.swift, CONTRACTS §5); from end to end, for the executable and the tests.

import Foundation
import GeoModel
import GeoGEOS
import PopulatedPlaces
import StageContract

public enum HighlightsStage: PipelineStage {
    public static let name = "highlights"

    public struct Options: DeclaredOptions {
        /// The curated source.
        public var input = "data/country_highlights.json"
        public var world = "dist/world.geojson"
        /// The populated places as the ingest compacts them (the 16 MB Natural Earth file reads
        /// the same, more slowly).
        public var places = "build/ingest/places.geojson"
        /// Empty: none.
        public var aliases = "data/highlight_places.tsv"
        public var output = "dist/country_highlights.json"
        /// Where to write the report of the city checks (it is also printed on standard error).
        public var report: String? = nil
        public var cities = CityOptions()
        public init() {}

        public static let declared: [StageOption<Options>] = [
            .argument("source", \.input, help: "The curated highlights source."),
            .option("world", \.world, help: "The country set: world.geojson."),
            .option("output", short: "o", \.output, help: "Output JSON file."),
            .option("places", \.places, help: "Natural Earth populated places (the ingest's compacted copy, or the original file)."),
            .option("aliases", \.aliases,
                    help: "Table of Natural Earth names for cities listed under another name (tab-separated: id, city, place, reason). Empty: none."),
            .option("coastal-tolerance", \.cities.coastalToleranceKm, .atLeast(0),
                    help: "A city outside its country's simplified polygon passes within this many km."),
            .option("point-radius", \.cities.pointRadiusKm, .atLeast(0), help: "A city of a point country passes within this many km of its point."),
            .option("report", \.report, help: "Where to write the report of the city checks (also printed on stderr)."),
        ]
    }

    public struct Report: StageReport {
        public var output = ""
        public var bytes = 0
        public var entries: [Entry] = []
        public var results: [CityResult] = []
        public var count: (cities: Int, attractions: Int) = (0, 0)
        public func with(_ f: (CityStatus) -> Bool) -> [CityResult] { results.filter { f($0.status) } }
        public var inside: Int { with { $0 == .inside }.count }
        public var nearBorder: [CityResult] { with { if case .nearBorder = $0 { return true } else { return false } } }
        public var nearPoint: [CityResult] { with { if case .nearPoint = $0 { return true } else { return false } } }
        public var outside: [CityResult] { with { if case .outside = $0 { return true } else { return false } } }
        public var inOther: [CityResult] { with { if case .inOtherCountry = $0 { return true } else { return false } } }
        public var notLocated: [CityResult] { with { $0 == .notLocated } }
        public var located: Int { results.count - notLocated.count }

        public var summary: String {
            "\(entries.count) countries, \(count.cities) cities, \(count.attractions) attractions; cities located \(located) (inside \(inside), near coast \(nearBorder.count), point countries \(nearPoint.count), outside \(outside.count)), not located \(notLocated.count) → \(output) (\(formatCount(bytes)) bytes)"
        }

        public var text: String {
            var l: [String] = []
            l.append("highlights: \(entries.count) countries, \(count.cities) cities, \(count.attractions) attractions")
            let byPosition = results.filter { $0.foundBy.hasPrefix("position") }.count
            let byAlias = results.filter { $0.foundBy.hasSuffix("alias") }.count
            l.append("cities located in Natural Earth populated places: \(located) of \(results.count) (\(located - byPosition) by country code, \(byPosition) by position where NE's code differs; \(byAlias) through the alias table)")
            l.append("  inside their country's polygon: \(inside)")
            l.append("  outside the simplified polygon but within the coastal tolerance: \(nearBorder.count)" + list(nearBorder))
            l.append("  point countries, within the radius of the point: \(nearPoint.count)")
            l.append("  outside (farther than the tolerance, in no other country): \(outside.count)" + list(outside))
            l.append("  inside ANOTHER country (errors): \(inOther.count)" + list(inOther))
            l.append("cities not located: \(notLocated.count)" + (notLocated.isEmpty ? "" : "\n    " + notLocated.map { "\($0.id) \($0.city)" }.joined(separator: ", ")))
            return l.joined(separator: "\n") + "\n"
        }

        func list(_ r: [CityResult]) -> String {
            guard !r.isEmpty else { return "" }
            return "\n" + r.map { c -> String in
                let pos = c.place.map { String(format: " [NE %@ at %.3f, %.3f]", $0.name, $0.position.y, $0.position.x) } ?? ""
                switch c.status {
                case .nearBorder(let km), .outside(let km), .nearPoint(let km):
                    return "    \(c.id) \(c.city)\(pos): \(String(format: "%.1f", km)) km" + (c.alsoIn.map { ", inside \($0)'s simplified polygon" } ?? "")
                case .inOtherCountry(let o): return "    \(c.id) \(c.city)\(pos): inside \(o)"
                default: return "    \(c.id) \(c.city)\(pos)"
                }
            }.joined(separator: "\n")
        }
    }

    /// Checks the highlights and writes them (and the report, when asked) to `o.output`.
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        var (bytes, r) = try build(o, log: log)
        let text = r.text
        for line in text.split(separator: "\n") { log.info(String(line)) }
        if let path = o.report { try FileIO.writeAtomically(text, to: path) }
        try log.step("write \(o.output)") { try FileIO.writeAtomically(bytes, to: o.output) }
        r.output = o.output
        r.bytes = bytes.count
        return r
    }

    /// Reads, validates and checks; returns the output bytes and the report. Throws on any
    /// validation problem and on a city that lies inside another country.
    public static func build(_ o: Options, log: StageLog) throws -> (bytes: [UInt8], report: Report) {
        let world = try log.step("read \(o.world)") { try CountryFile.read(path: o.world) }
        var names: [String: String] = [:]
        for f in world { names[f.id!] = f.string("name")! }
        let entries = try log.step("validate \(o.input)") { try load(bytes: try FileIO.readBytes(o.input), file: o.input, names: names) }
        var aliases: [String: [String]] = [:]
        if !o.aliases.isEmpty {
            let a = o.aliases
            aliases = try readAliases(a, names: names)
            let listed = Set(entries.flatMap { e in e.cities.map { e.id + "\t" + $0 } })
            for key in aliases.keys.sorted() where !listed.contains(key) {
                throw InputError(file: a, "\(key.replacingOccurrences(of: "\t", with: " ")) is not a city of \(o.input); remove the row")
            }
        }
        let places = try log.step("read \(o.places)") { try Places(path: o.places) }
        let results = try log.step("locate cities") { try checkCities(entries, world: world, places: places, aliases: aliases, options: o.cities, worldFile: o.world) }
        var report = Report()
        report.entries = entries
        report.results = results
        report.count = (entries.reduce(0) { $0 + $1.cities.count }, entries.reduce(0) { $0 + $1.attractions.count })
        let errors = report.inOther
        if !errors.isEmpty {
            throw HighlightsError(file: o.input, problems: errors.map { c in
                guard case .inOtherCountry(let other) = c.status, let p = c.place else { return "" }
                return "\(c.id) (\(names[c.id]!)): city \"\(c.city)\" (Natural Earth \"\(p.name)\" at \(p.position.y), \(p.position.x)) lies inside \(other) (\(names[other]!)), not in \(c.id)"
            })
        }
        return (encode(entries), report)
    }
}

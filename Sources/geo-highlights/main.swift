import ArgumentParser
import Foundation
import GeoModel
import HighlightsStage

struct HighlightsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo-highlights",
        abstract: "Curated country highlights → dist/country_highlights.json, checked against the country set and Natural Earth places.",
        discussion: """
        Reads the curated source (data/country_highlights.json: {"FR": {"cities": […], "attractions": […]}, …}),
        the country set (dist/world.geojson) and the Natural Earth populated places, and writes the
        app's country_highlights.json (CONTRACTS §5): keys sorted by ISO code, "cities" then
        "attractions", two-space indent, the same bytes on every run.

        Fails (naming the file, the country and the problem; every problem at once) when the keys
        are not exactly the country set, a list has not 1–5 entries, or an entry is empty,
        duplicated (ignoring case), untrimmed or not in Unicode NFC.

        Each city is looked up by name, ASCII name or alternate name among the populated places
        of its country (--aliases gives Natural Earth names for cities listed under another
        name), or anywhere when the place lies in the country (Natural Earth's code can be -99 or
        another country's). A located city must lie inside its country's polygon or within
        --coastal-tolerance km of it (coasts are simplified); a point country's city within
        --point-radius km of its point. Cities not located and cities outside are reported; a
        city inside another country's polygon is an error.

        Example:
          geo-highlights data/country_highlights.json --world dist/world.geojson \\
            -o dist/country_highlights.json --coastal-tolerance 25 --report build/highlights/report.txt
        """)

    @Argument(help: "The curated highlights source.")
    var source: String = "data/country_highlights.json"

    @Option(help: "The country set: world.geojson.")
    var world: String = "dist/world.geojson"

    @Option(name: [.short, .customLong("output")], help: "Output JSON file.")
    var output: String = "dist/country_highlights.json"

    @Option(help: "Natural Earth populated places.")
    var places: String = "data/natural-earth/ne_10m_populated_places.geojson"

    @Option(help: "Table of Natural Earth names for cities listed under another name (tab-separated: id, city, place, reason). Empty: none.")
    var aliases: String = "data/highlight_places.tsv"

    @Option(help: "A city outside its country's simplified polygon passes within this many km.")
    var coastalTolerance: Double = 25

    @Option(help: "A city of a point country passes within this many km of its point.")
    var pointRadius: Double = 150

    @Option(help: "Where to write the report of the city checks (also printed on stderr).")
    var report: String?

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    func run() throws {
        let log = StageLog(stage: "highlights", quiet: quiet)
        var o = HighlightsStage.Options()
        o.sourcePath = source; o.worldPath = world; o.placesPath = places
        o.aliasesPath = aliases.isEmpty ? nil : aliases
        o.cities.coastalToleranceKm = coastalTolerance
        o.cities.pointRadiusKm = pointRadius
        let (bytes, r) = try HighlightsStage.run(o, log: log)
        let text = r.text
        for line in text.split(separator: "\n") { log.info(String(line)) }
        if let report { try FileIO.writeAtomically(text, to: report) }
        try log.step("write \(output)") { try FileIO.writeAtomically(bytes, to: output) }
        log.summary("\(r.entries.count) countries, \(r.count.cities) cities, \(r.count.attractions) attractions; cities located \(r.located) (inside \(r.inside), near coast \(r.nearBorder.count), point countries \(r.nearPoint.count), outside \(r.outside.count)), not located \(r.notLocated.count) → \(output) (\(formatCount(bytes.count)) bytes)")
    }
}

HighlightsCommand.main()

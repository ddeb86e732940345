import ArgumentParser
import Foundation
import GeoModel
import HighlightsStage
import StageCommand

struct HighlightsCommand: StageCommand {
    typealias Stage = HighlightsStage
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

    static let defaults = HighlightsStage.Options()

    @Argument(help: "The curated highlights source.")
    var source: String = defaults.sourcePath

    @Option(help: "The country set: world.geojson.")
    var world: String = defaults.worldPath

    @Option(name: [.short, .customLong("output")], help: "Output JSON file.")
    var output: String = defaults.output

    @Option(help: "Natural Earth populated places.")
    var places: String = defaults.placesPath

    @Option(help: "Table of Natural Earth names for cities listed under another name (tab-separated: id, city, place, reason). Empty: none.")
    var aliases: String = defaults.aliasesPath ?? ""

    @Option(help: "A city outside its country's simplified polygon passes within this many km.")
    var coastalTolerance: Double = defaults.cities.coastalToleranceKm

    @Option(help: "A city of a point country passes within this many km of its point.")
    var pointRadius: Double = defaults.cities.pointRadiusKm

    @Option(help: "Where to write the report of the city checks (also printed on stderr).")
    var report: String?

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: HighlightsStage.Options {
        var o = HighlightsStage.Options()
        o.sourcePath = source; o.worldPath = world; o.placesPath = places; o.output = output; o.report = report
        o.aliasesPath = aliases.isEmpty ? nil : aliases
        o.cities.coastalToleranceKm = coastalTolerance
        o.cities.pointRadiusKm = pointRadius
        return o
    }


}

HighlightsCommand.main()

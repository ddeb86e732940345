import StageCommand
import HighlightsStage

StageFront<HighlightsStage>(
    name: "geo-highlights",
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
    """).main()

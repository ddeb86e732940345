import StageCommand
import WorldStage

StageFront<WorldStage>(
    name: "geo-world",
    abstract: "The ingest's countries → the app's world.geojson: repaired, simplified as a coverage, small countries as points.",
    discussion: """
    Reads build/ingest/countries.geojson (geo-ingest's output) and writes
    dist/world.geojson (CONTRACTS §1):
    • every country is checked with GEOS; invalid ones are repaired with
      make-valid (structure method), each repair reported with GEOS's
      reason and the geodesic area before and after;
    • islands and empty holes under --min-island-km2 are dropped; parts and
      holes that share a border are kept, and a country keeps its largest
      part at least;
    • countries whose largest drawable part is under --point-area-km2
      become renderAs "point" at their capital (the list is printed);
    • with --fill-point-gaps (the default), a point country's parts that
      share a border with drawn countries are given, before simplifying,
      to the neighbour they share the longest border with (ground length,
      from the data; at 1:10m Andorra goes to Spain, Liechtenstein to
      Switzerland, Monaco, San Marino and Vatican City to the country
      around them). The land stays continuous (no hole where the point
      country was), the point country's other borders become the
      receiver's, shared point for point; the receiver's Hausdorff
      distance is measured against its input plus what it received.
      Parts touching no drawn country (islands) are dropped as before.
      The fills are printed and reported (--report: gap_filled_into,
      gap_received_from, gap_area_km2 columns, "# gap filled" lines);
    • the coverage is simplified through its shared arcs: each border
      between junctions is simplified once (Douglas–Peucker, error as
      ground distance in km to the lon/lat segment; one tolerance found to
      hit --target-vertices, or --tolerance-km instead; 0 for either keeps
      every vertex) and both neighbours are rebuilt from it, so
      shared borders stay identical; junctions and ±180° points never move;
      no simplified segment crosses another or jumps over a vertex; every
      output polygon is checked valid with GEOS;
    • per-country vertices before/after, Hausdorff distance and p95 vertex
      distance (km) go to --report (TSV), with "# target_vertices" only when
      a budget drove the run, and "# budget_unreachable" (also a warning)
      when the budget is more than 2% from what the input allows;
    • the point countries are printed in two lists: those under the area
      threshold, and those the input has only as a point.
    Output is deterministic and written atomically.

    Example:
      geo-world build/ingest/countries.geojson -o dist/world.geojson \\
        --target-vertices 175000 --report build/world/report.tsv
    """,
    beforeRun: { Allocator.keepHeapTop() }).main()

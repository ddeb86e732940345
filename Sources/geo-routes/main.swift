import StageCommand
import RoutesStage

StageFront<RoutesStage>(
    name: "geo-routes",
    abstract: "The focus app's routes (data/routes.tsv) → dist/routes/routes.geojson and content.sqlite3.",
    discussion: """
    Reads the curated routes (one row per location: route, route_name, country, order,
    location, lat, lon, minutes, tags, description, source) and the rewards (hours, id,
    title, description; at 1, 10, 20, 50 and 200 hours), checks every location against the
    offline lookup index (it must lie in its route's country), and writes:
    • routes.geojson: per route a LineString along great circles (a point every
      --step-degrees at most) with each location's cumulative geodesic distance (WGS84,
      PROJ), then a Point per location;
    • content.sqlite3: tables routes, locations (in order), tags, location_tags, rewards.
    A problem names the file, the line, the route and the location; nothing is written then.

    Example:
      geo-routes data/routes.tsv --rewards data/rewards.tsv --index dist/lookup/lookup.bin --output-dir dist/routes
    """).main()

import ArgumentParser
import Foundation
import GeoModel
import RoutesStage
import StageCommand

struct RoutesCommand: StageCommand {
    typealias Stage = RoutesStage
    static let defaults = RoutesStage.Options()
    static let configuration = CommandConfiguration(
        commandName: "geo-routes",
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
          geo-routes data/routes.tsv --rewards data/rewards.tsv --index dist/lookup/lookup.bin --out-dir dist/routes
        """)

    @Argument(help: "The routes table (TSV).")
    var routes: String = defaults.routesPath

    @Option(help: "The rewards table (TSV).")
    var rewards: String = defaults.rewardsPath

    @Option(help: "The lookup index (make lookup).")
    var index: String = defaults.indexPath

    @Option(help: "Output directory.")
    var outDir: String = defaults.outDir

    @Option(help: "Longest straight piece of a drawn route, in degrees of arc.")
    var stepDegrees: Double = defaults.stepDegrees

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: RoutesStage.Options {
        var o = RoutesStage.Options()
        o.routesPath = routes; o.rewardsPath = rewards; o.indexPath = index; o.outDir = outDir; o.stepDegrees = stepDegrees
        return o
    }


}

RoutesCommand.main()

import ArgumentParser
import Foundation
import GeoModel
import ReleaseStage
import StageCommand

struct InspectCommand: StageCommand {
    typealias Stage = InspectStage
    static let defaults = InspectStage.Options()
    static let configuration = CommandConfiguration(
        commandName: "geo-inspect",
        abstract: "Write the static inspection page (Leaflet, no network) of the products.",
        discussion: """
        Writes OUT/index.html, OUT/data.js (the data, embedded as a script: pages opened from
        the file system cannot fetch) and OUT/leaflet/ (copied from Debian's libjs-leaflet).
        Open OUT/index.html in a browser; `#layers=all` in the address turns every layer on.

        Example:
          geo-inspect --out dist/inspect
          geo-inspect --changes releases/2026-11-25/changes.json
        """)

    @Option(help: "The app's country file.") var world: String = defaults.world
    @Option(help: "The world stage's report (TSV).") var worldReport: String = defaults.worldReport
    @Option(help: "The cities stage's seed.") var citiesSeed: String = defaults.citiesSeed
    @Option(help: "The routes GeoJSON.") var routes: String = defaults.routes
    @Option(help: "The territory cells GeoJSON.") var territory: String = defaults.territory
    @Option(help: "The lookup index.") var lookup: String = defaults.lookup
    @Option(help: "The silhouettes' folder.") var silhouettes: String = defaults.silhouettes
    @Option(help: "A release's changes.json: highlight the changed countries.") var changes: String?
    @Option(help: "The page's folder.") var out: String = defaults.out
    @Option(help: "Debian's libjs-leaflet folder.") var leaflet: String = defaults.leaflet
    @Option(help: "The largest cities drawn.") var cities: Int = defaults.cities
    @Option(help: "Lookup probe points drawn.") var probePoints: Int = defaults.probePoints
    @Flag(name: .shortAndLong, help: "No progress lines.") var quiet = false

    var options: InspectStage.Options {
        var o = InspectStage.Options()
        o.world = world; o.worldReport = worldReport; o.citiesSeed = citiesSeed; o.routes = routes
        o.territory = territory; o.lookup = lookup; o.silhouettes = silhouettes; o.changes = changes
        o.out = out; o.leaflet = leaflet; o.cities = cities; o.probePoints = probePoints
        return o
    }
}

InspectCommand.main()

import ArgumentParser
import Foundation
import GeoModel
import ReleaseStage
import StageCommand

struct ReleaseCommand: StageCommand {
    typealias Stage = ReleaseStage
    static let defaults = ReleaseStage.Options()
    static let configuration = CommandConfiguration(
        commandName: "geo-release",
        abstract: "Copy the products into a release directory with manifest.json, changes.json, CHANGES.md and inspect/.",
        discussion: """
        Reads the products (--dist, as `make all` leaves them), the world report, the data
        directory and make's parameter files; writes OUT (replaced, through OUT.partial) with
        the products, reports/world.tsv, manifest.json (every file's bytes and sha256, every
        input's sha256 with its source and version from DATA/README.md, every parameter, the
        commit, the tolerance the world's vertex budget decided), changes.json and CHANGES.md
        against --previous (countries' largest border move in km and area change, field
        changes, quiz days, cities, a lookup probe, file sizes), and the inspection page in
        OUT/inspect/. Fails, writing nothing, when a quiz day before --day would change.

        Example:
          geo-release --out releases/2026-11-25 --previous releases/2026-11-24 --day 2026-11-25 --commit $(git rev-parse HEAD)
        """)

    @Option(help: "The release directory to write.") var out: String
    @Option(help: "The previous release, to compare with.") var previous: String?
    @Option(help: "The release's day (YYYY-MM-DD): quiz days before it must not change.") var day: String
    @Option(help: "The pipeline's git commit.") var commit: String = defaults.commit
    @Option(help: "The products' folder.") var dist: String = defaults.dist
    @Option(help: "The world stage's report (TSV).") var worldReport: String = defaults.worldReport
    @Option(help: "The data directory the products were made from.") var data: String = defaults.data
    @Option(help: "make's parameter files (one per stage).") var params: String = defaults.params
    @Option(help: "The Natural Earth scale (recorded).") var scale: String = defaults.scale
    @Option(help: "Points of the worldwide lookup probe.") var probePoints: Int = defaults.probePoints
    @Option(help: "Debian's libjs-leaflet folder.") var leaflet: String = defaults.leaflet
    @Flag(name: .shortAndLong, help: "No progress lines.") var quiet = false

    var options: ReleaseStage.Options {
        var o = ReleaseStage.Options()
        o.out = out; o.previous = previous; o.day = day; o.commit = commit; o.dist = dist
        o.worldReport = worldReport; o.data = data; o.params = params; o.scale = scale
        o.probePoints = probePoints; o.leaflet = leaflet
        return o
    }
}

ReleaseCommand.main()

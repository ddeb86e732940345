import ArgumentParser
import Foundation
import GeoModel
import SilhouettesStage
import StageCommand

struct SilhouettesCommand: StageCommand {
    typealias Stage = SilhouettesStage
    static let configuration = CommandConfiguration(
        commandName: "geo-silhouettes",
        abstract: "world.geojson → one SVG silhouette per polygon country for the quiz (CONTRACTS §4).",
        discussion: """
        Reads dist/world.geojson and writes to the output folder (dist/silhouettes/ in the Makefile):
          • <ISO>.svg for every polygon country (point countries get none): the country in a
            Lambert azimuthal equal-area projection (PROJ laea, WGS84) centred on the area-weighted
            mean direction of its parts on the sphere, so Fiji, Russia or New Zealand with the
            Chatham Islands stay one compact shape; fitted and centred in one square viewBox with
            padding; one even-odd path (holes such as Lesotho punched out); parts under
            --min-part-share of the country's area dropped (never the largest), and so are small
            remote parts (under --remote-share, farther than --remote-distance × √area from every
            larger part: the Canaries for Spain, Hawaii for the US); simplified with --tolerance
            (raised while a file exceeds --max-bytes) and rounded to --decimals viewBox units;
            rings smaller than --min-ring-area that vanish at this scale are dropped;
          • contact-sheet.svg (all silhouettes with code and name; `make silhouettes` renders
            contact-sheet.png from it), index.html, manifest.json (centre, drawn parts, sizes).
        Ids become file names, so only two upper-case letters are accepted. Silhouettes left over
        from an earlier run for ids no longer in the input are removed. Work is spread over
        --threads threads (one PROJ and GEOS context each); output does not depend on it.

        Example:
          geo-silhouettes dist/world.geojson -o /tmp/sil --size 512 --padding 16 --tolerance 0.5
        """)

    static let defaults = SilhouettesStage.Options()

    @Argument(help: "The country set in lon/lat (dist/world.geojson).")
    var input: String

    @Option(name: [.short, .customLong("output")], help: "Output folder.")
    var output: String = defaults.outputDir

    @Option(help: "Side of the square viewBox.")
    var size: Double = defaults.silhouette.size

    @Option(help: "Empty margin on each side, in viewBox units.")
    var padding: Double = defaults.silhouette.padding

    @Option(help: "Drop parts with less than this share of the country's area (0…1).")
    var minPartShare: Double = defaults.silhouette.minPartShare

    @Option(help: "Simplification tolerance in viewBox units.")
    var tolerance: Double = defaults.silhouette.tolerance

    @Option(help: "Decimals of path coordinates, in viewBox units.")
    var decimals: Int = defaults.silhouette.decimals

    @Option(help: "Drop rings smaller than this many square viewBox units.")
    var minRingArea: Double = defaults.silhouette.minRingArea

    @Option(help: "Parts under this share of the country's area are minor: dropped when remote (0…1).")
    var remoteShare: Double = defaults.silhouette.remoteShare

    @Option(help: "A minor part is remote when its bounding box is farther than this × √(country area) from every major part's.")
    var remoteDistance: Double = defaults.silhouette.remoteDistance

    @Option(help: "Byte budget per SVG: simplify more (tolerance ×1.5, up to 5 times) while a file is larger; 0 = off.")
    var maxBytes: Int = defaults.silhouette.maxBytes

    @Option(help: "Worker threads.")
    var threads: Int = defaults.threads

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: SilhouettesStage.Options {
        var o = SilhouettesStage.Options(input: input, outputDir: output)
        o.silhouette.size = size
        o.silhouette.padding = padding
        o.silhouette.minPartShare = minPartShare
        o.silhouette.tolerance = tolerance
        o.silhouette.decimals = decimals
        o.silhouette.minRingArea = minRingArea
        o.silhouette.remoteShare = remoteShare
        o.silhouette.remoteDistance = remoteDistance
        o.silhouette.maxBytes = maxBytes
        o.threads = threads
        return o
    }


}

SilhouettesCommand.main()

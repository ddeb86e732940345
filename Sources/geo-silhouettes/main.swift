import ArgumentParser
import Foundation
import GeoModel
import SilhouettesStage

struct SilhouettesCommand: ParsableCommand {
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

    @Argument(help: "The country set in lon/lat (dist/world.geojson).")
    var input: String

    @Option(name: [.short, .customLong("output")], help: "Output folder.")
    var output: String = "dist/silhouettes"

    @Option(help: "Side of the square viewBox.")
    var size: Double = 1000

    @Option(help: "Empty margin on each side, in viewBox units.")
    var padding: Double = 40

    @Option(help: "Drop parts with less than this share of the country's area (0…1).")
    var minPartShare: Double = 0.0005

    @Option(help: "Simplification tolerance in viewBox units.")
    var tolerance: Double = 0.7

    @Option(help: "Decimals of path coordinates, in viewBox units.")
    var decimals: Int = 0

    @Option(help: "Drop rings smaller than this many square viewBox units.")
    var minRingArea: Double = 2

    @Option(help: "Parts under this share of the country's area are minor: dropped when remote (0…1).")
    var remoteShare: Double = 0.02

    @Option(help: "A minor part is remote when its bounding box is farther than this × √(country area) from every major part's.")
    var remoteDistance: Double = 1.0

    @Option(help: "Byte budget per SVG: simplify more (tolerance ×1.5, up to 5 times) while a file is larger; 0 = off.")
    var maxBytes: Int = 10_000

    @Option(help: "Worker threads.")
    var threads: Int = 2

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    func validate() throws {
        guard size >= 16, size <= 100_000 else { throw ValidationError("--size must be between 16 and 100000") }
        guard padding >= 0, padding * 2 < size * 0.9 else { throw ValidationError("--padding must be at least 0 and leave room for the shape") }
        guard (0..<1).contains(minPartShare) else { throw ValidationError("--min-part-share must be in [0, 1)") }
        guard tolerance >= 0 else { throw ValidationError("--tolerance must not be negative") }
        guard (0...4).contains(decimals) else { throw ValidationError("--decimals must be 0…4") }
        guard minRingArea >= 0 else { throw ValidationError("--min-ring-area must not be negative") }
        guard (0...1).contains(remoteShare) else { throw ValidationError("--remote-share must be in [0, 1]") }
        guard remoteDistance >= 0 else { throw ValidationError("--remote-distance must not be negative") }
        guard maxBytes >= 0 else { throw ValidationError("--max-bytes must not be negative") }
        guard (1...64).contains(threads) else { throw ValidationError("--threads must be 1…64") }
    }

    func run() throws {
        let log = StageLog(stage: "silhouettes", quiet: quiet)
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
        let r = try SilhouettesStage.run(o, log: log)
        let sorted = r.bytes.sorted()
        let largest = zip(r.drawn, r.bytes).max { $0.1 < $1.1 }!
        if !r.removedStale.isEmpty { log.info("removed stale silhouettes: \(r.removedStale.joined(separator: " "))") }
        log.info("no silhouette for \(r.pointCountries.count) point countries")
        log.summary("\(r.drawn.count) silhouettes, \(formatCount(r.drawn.reduce(0) { $0 + $1.vertices })) vertices, \(formatCount(r.bytes.reduce(0, +))) bytes (median \(formatCount(sorted[sorted.count / 2])), largest \(largest.0.id) \(formatCount(largest.1))) → \(output)/")
    }
}

SilhouettesCommand.main()

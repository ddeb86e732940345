import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ
import GeoFormats
import StageContract

/// The silhouette stage: world.geojson → <dir>/<ISO>.svg for every polygon country, plus an
/// SVG contact sheet, an HTML index and a manifest (what was drawn, with which centre).
public enum SilhouettesStage: PipelineStage {
    public static let name = "silhouettes"

    public struct Options: DeclaredOptions {
        public var input = "dist/world.geojson"
        public var outputDir = "dist/silhouettes"
        public var silhouette = Silhouette.Options()
        public var threads = 2
        public init() {}
        public init(input: String, outputDir: String) { self.input = input; self.outputDir = outputDir }

        public static let declared: [StageOption<Options>] = [
            .argument("input", \.input, required: true, help: "The country set in lon/lat (dist/world.geojson)."),
            .option("output-dir", short: "o", aliases: ["output"], \.outputDir, help: "Output folder."),
            .option("size", \.silhouette.size, .within(16...100_000), help: "Side of the square viewBox."),
            .option("padding", \.silhouette.padding, .atLeast(0), help: "Empty margin on each side, in viewBox units."),
            .option("min-part-share", \.silhouette.minPartShare, .within(0..<1), help: "Drop parts with less than this share of the country's area (0…1)."),
            .option("tolerance", \.silhouette.tolerance, .atLeast(0), help: "Simplification tolerance in viewBox units."),
            .option("decimals", \.silhouette.decimals, .within(0...4), help: "Decimals of path coordinates, in viewBox units."),
            .option("min-ring-area", \.silhouette.minRingArea, .atLeast(0), help: "Drop rings smaller than this many square viewBox units."),
            .option("remote-share", \.silhouette.remoteShare, .within(0...1),
                    help: "Parts under this share of the country's area are minor: dropped when remote (0…1)."),
            .option("remote-distance", \.silhouette.remoteDistance, .atLeast(0),
                    help: "A minor part is remote when its bounding box is farther than this × √(country area) from every major part's."),
            .option("max-bytes", \.silhouette.maxBytes, .atLeast(0),
                    help: "Byte budget per SVG: simplify more (tolerance ×1.5, up to 5 times) while a file is larger; 0 = off."),
            .option("threads", \.threads, .within(1...64), help: "Worker threads."),
        ]

        public func validateRules() throws {
            guard silhouette.padding * 2 < silhouette.size * 0.9 else { throw OptionsError("--padding must leave room for the shape (twice it must stay under 90% of --size)") }
        }
    }

    public struct Report: StageReport {
        public var outputDir = ""
        public var drawn: [Silhouette.Drawing] = []
        public var bytes: [Int] = []
        public var pointCountries: [String] = []
        public var removedStale: [String] = []

        public var summary: String {
            let sorted = bytes.sorted()
            let largest = zip(drawn, bytes).max { $0.1 < $1.1 }
            return "\(drawn.count) silhouettes, \(formatCount(drawn.reduce(0) { $0 + $1.vertices })) vertices, \(formatCount(bytes.reduce(0, +))) bytes (median \(formatCount(sorted.isEmpty ? 0 : sorted[sorted.count / 2])), largest \(largest.map { "\($0.0.id) \(formatCount($0.1))" } ?? "none")) → \(outputDir)/"
        }
    }

    /// Draws every polygon country's silhouette, removes stale ones and writes the contact sheet,
    /// the index and the manifest (steps in Steps/).
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        var report = Report()
        report.outputDir = o.outputDir
        let features = try log.step("read \(o.input)") { try CountryFile.read(path: o.input) }
        report.drawn = try drawSilhouettes(features, o, report: &report, log: log)
        report.bytes = report.drawn.map { $0.svg.utf8.count }
        removeStale(o.outputDir, report: &report)
        try writeIndex(o, report, log: log)
        if !report.removedStale.isEmpty { log.info("removed stale silhouettes: \(report.removedStale.joined(separator: " "))") }
        log.info("no silhouette for \(report.pointCountries.count) point countries")
        return report
    }
}

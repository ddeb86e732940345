import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ
import GeoFormats
import StageContract

/// The projection stage: world.geojson → projected GeoJSON (map metres) + an SVG world map in
/// the app's palette (CONTRACTS §3).
public enum MapStage: PipelineStage {
    public static let name = "map"

    public struct Options: DeclaredOptions {
        public var input = "dist/world.geojson"
        public var outputGeoJSON = "dist/map/world-projected.geojson"
        public var outputSVG = "dist/map/world.svg"
        /// "EPSG:8857" (Equal Earth), any EPSG/ESRI code, or a "+proj=…" string.
        public var projection = "EPSG:8857"
        /// SVG width in pixels; the height follows from the projection's shape.
        public var width = 2000.0
        public var margin = 10.0
        /// Decimals of the projected GeoJSON (metres) and of the SVG (pixels).
        public var geojsonDecimals = 1
        public var svgDecimals = 1
        public var borderWidth = 0.4
        public var pointRadius = 2.5
        public init() {}
        public init(input: String, outputGeoJSON: String, outputSVG: String) {
            self.input = input; self.outputGeoJSON = outputGeoJSON; self.outputSVG = outputSVG
        }

        public static let declared: [StageOption<Options>] = [
            .argument("input", \.input, required: true, help: "The country set in lon/lat (dist/world.geojson)."),
            .option("projection", \.projection, help: "EPSG/ESRI code or PROJ string of the map projection."),
            .option("geojson", \.outputGeoJSON, help: "Projected GeoJSON output."),
            .option("svg", \.outputSVG, help: "SVG map output."),
            .option("width", \.width, .within(100...100_000), help: "SVG width in pixels (the height follows from the projection)."),
            .option("border-width", \.borderWidth, .atLeast(0), help: "Border stroke width in pixels."),
            .option("decimals", \.geojsonDecimals, .within(0...6), help: "Decimals of the projected GeoJSON coordinates (metres)."),
            .option("svg-decimals", \.svgDecimals, .within(0...6), help: "Decimals of the SVG coordinates (pixels)."),
            .option("margin", \.margin, .atLeast(0), help: "Empty margin around the map in the SVG, in pixels."),
            .option("point-radius", \.pointRadius, .atLeast(0), help: "Radius of a point country's dot in the SVG, in pixels."),
        ]

        public func validateRules() throws {
            guard 2 * margin < width else { throw OptionsError("--margin must leave room for the map (twice it is less than --width)") }
        }
    }

    public struct Report: StageReport {
        public var projection = ""
        public var outputGeoJSON = ""
        public var outputSVG = ""
        public var polygons = 0
        public var points = 0
        public var verticesIn = 0
        public var verticesOut = 0
        public var countriesCut: [String] = []
        public var centralMeridian = 0.0
        public var maxLatitude = 90.0
        public var svgWidth = 0.0
        public var svgHeight = 0.0
        public var svgBytes = 0

        public var summary: String {
            "\(polygons) polygon countries + \(points) points, \(formatCount(verticesIn)) vertices → \(projection), SVG \(Int(svgWidth))×\(Int(svgHeight)) px (\(formatCount(verticesOut)) vertices, \(formatCount(svgBytes)) bytes) → \(outputGeoJSON), \(outputSVG)"
        }
    }

    /// Reads the countries, projects them, and writes the projected GeoJSON and the SVG map (steps in Steps/).
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        var report = Report()
        report.projection = o.projection; report.outputGeoJSON = o.outputGeoJSON; report.outputSVG = o.outputSVG
        let features = try log.step("read \(o.input)") { try CountryFile.read(path: o.input) }
        let ids = features.map { $0.id! }
        let map = try openProjection(o, report: &report, log: log)
        let projected = try projectFeatures(features, ids: ids, map, o, report: &report, log: log)
        let (outline, frame) = try frame(map, projected)
        try writeGeoJSON(projected, map, frame: frame, o, log: log)
        try writeSVG(projected, ids: ids, outline: outline, frame: frame, o, report: &report, log: log)
        if !report.countriesCut.isEmpty { log.info("cut or joined at the map's edge: \(report.countriesCut.joined(separator: " "))") }
        return report
    }
}

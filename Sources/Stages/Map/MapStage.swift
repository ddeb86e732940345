import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ
import GeoFormats

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

    public static func run(_ o: Options, log: StageLog) throws -> Report {
        var report = Report()
        report.projection = o.projection; report.outputGeoJSON = o.outputGeoJSON; report.outputSVG = o.outputSVG
        let features = try log.step("read \(o.input)") { try CountryFile.read(path: o.input) }
        let ids = features.map { $0.id! }
        let proj = PROJContext(), geos = GEOSContext()
        let map = try MapProjection(crs: o.projection, context: proj, geos: geos)
        report.centralMeridian = map.centralMeridian
        report.maxLatitude = map.maxLatitude
        log.info("projection \(o.projection): central meridian \(SVGPathData.format(map.centralMeridian, decimals: 6))°, map edge at \(SVGPathData.format(map.west, decimals: 6))°\(map.maxLatitude < 90 ? ", latitudes clipped to ±\(SVGPathData.format(map.maxLatitude, decimals: 6))°" : "")")

        var projected: [Feature] = []
        projected.reserveCapacity(features.count)
        try log.step("cut and project \(features.count) features") {
            for (i, f) in features.enumerated() {
              let ref = FeatureRef(index: i, name: f.string("name"), id: ids[i])
              let what = "\(o.input): \(ref)"
              try forFeature(file: o.input, ref) {
                report.verticesIn += f.geometry.vertexCount
                switch f.geometry {
                case .point(let p):
                    report.points += 1
                    projected.append(Feature(id: f.id, properties: f.properties, geometry: .point(try map.project(p, what: what))))
                case .polygon, .multiPolygon:
                    report.polygons += 1
                    let polys = f.geometry.polygons
                    let pieces = try map.cut(polys)
                    if pieces.count != polys.count { report.countriesCut.append(ids[i]) }
                    let out = try map.project(pieces, what: what)
                    guard !out.isEmpty else { throw InputError(file: o.input, feature: ref, "nothing of the geometry lies inside the map") }
                    projected.append(Feature(id: f.id, properties: f.properties, geometry: .areal(out)))
                }
              }
            }
        }

        if !map.repairedPolygons.isEmpty {
            log.info("repaired \(map.repairedPolygons.count) polygons whose projected edges crossed (near-touching input edges): " + map.repairedPolygons.joined(separator: "; "))
        }
        // Frame: the projected globe's outline, or the data's extent when the edge does not project.
        let outline = map.outline()
        var frame = BoundingBox.empty
        if let outline { for p in outline { frame.extend(p) } }
        else { for f in projected { if let b = f.geometry.boundingBox { frame.extend(b) } } }
        guard !frame.isEmpty, frame.width > 0, frame.height > 0 else { throw StageError("the projected map has an empty extent") }

        var members = JSONObject()
        members["projection"] = .string(o.projection)
        members["centralMeridian"] = .number(map.centralMeridian)
        members["extent"] = .array([frame.minX, frame.minY, frame.maxX, frame.maxY].map { .number(($0 * 10).rounded() / 10) })
        try log.step("write \(o.outputGeoJSON)") {
            try GeoJSON.write(projected, to: o.outputGeoJSON, decimals: o.geojsonDecimals, members: members)
        }

        let k = (o.width - 2 * o.margin) / frame.width
        let height = (frame.height * k + 2 * o.margin).rounded(.up)
        let toPixels = { (p: Point) in Point(o.margin + (p.x - frame.minX) * k, o.margin + (frame.maxY - p.y) * k) }
        let ocean: String
        if let outline {
            ocean = SVGPathData.encode([SVGPathData.quantize(outline.map(toPixels), decimals: o.svgDecimals)], decimals: o.svgDecimals)
        } else {
            let r = [Point(frame.minX, frame.minY), Point(frame.maxX, frame.minY), Point(frame.maxX, frame.maxY), Point(frame.minX, frame.maxY), Point(frame.minX, frame.minY)]
            ocean = SVGPathData.encode([SVGPathData.quantize(r.map(toPixels), decimals: o.svgDecimals)], decimals: o.svgDecimals)
        }
        var countries: [SVGDocuments.MapCountry] = []
        for (i, f) in projected.enumerated() {
            let name = f.string("name") ?? ids[i]
            switch f.geometry {
            case .point(let p):
                countries.append(.init(id: ids[i], name: name, pathData: nil, point: toPixels(p)))
            default:
                var rings: [[GridPoint]] = []
                for poly in f.geometry.polygons {
                    for r in poly.rings {
                        let q = SVGPathData.quantize(r.map(toPixels), decimals: o.svgDecimals)
                        if !q.isEmpty { rings.append(q) }
                    }
                }
                report.verticesOut += rings.reduce(0) { $0 + $1.count }
                countries.append(.init(id: ids[i], name: name, pathData: SVGPathData.encode(rings, decimals: o.svgDecimals), point: nil))
            }
        }
        let svg = SVGDocuments.worldMap(width: o.width, height: height, title: "World map, \(o.projection)",
                                         oceanPath: ocean, countries: countries, borderWidth: o.borderWidth, pointRadius: o.pointRadius)
        report.svgWidth = o.width; report.svgHeight = height
        report.svgBytes = svg.utf8.count
        try log.step("write \(o.outputSVG)") { try FileIO.writeAtomically(svg, to: o.outputSVG) }
        if !report.countriesCut.isEmpty { log.info("cut or joined at the map's edge: \(report.countriesCut.joined(separator: " "))") }
        return report
    }
}

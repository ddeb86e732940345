import Foundation
import GeoModel
import Geodesy
import GeoFormats

extension MapStage {
    /// The SVG world map in the app's palette: the ocean (the outline or the frame), countries as paths, point countries as dots.
    static func writeSVG(_ projected: [Feature], ids: [String], outline: [Point]?, frame: BoundingBox, _ o: Options, report: inout Report, log: StageLog) throws {
        let k = (o.width - 2 * o.margin) / frame.width
        let height = (frame.height * k + 2 * o.margin).rounded(.up)
        let toPixels = { (p: Point) in Point(o.margin + (p.x - frame.minX) * k, o.margin + (frame.maxY - p.y) * k) }
        let oceanRing = outline ?? [Point(frame.minX, frame.minY), Point(frame.maxX, frame.minY), Point(frame.maxX, frame.maxY),
                                    Point(frame.minX, frame.maxY), Point(frame.minX, frame.minY)]
        let ocean = SVGPathData.encode([SVGPathData.quantize(oceanRing.map(toPixels), decimals: o.svgDecimals)], decimals: o.svgDecimals)
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
    }
}

import Foundation
import GeoModel
import GeoGEOS
import GeoPROJ
import GeoFormats

extension MapStage {
    /// The map projection (its central meridian, edge and clipped latitudes go to the report and the log).
    static func openProjection(_ o: Options, report: inout Report, log: StageLog) throws -> MapProjection {
        let proj = PROJContext(), geos = GEOSContext()
        let map = try MapProjection(crs: o.projection, context: proj, geos: geos)
        report.centralMeridian = map.centralMeridian
        report.maxLatitude = map.maxLatitude
        log.info("projection \(o.projection): central meridian \(SVGPathData.format(map.centralMeridian, decimals: 6))°, map edge at \(SVGPathData.format(map.west, decimals: 6))°\(map.maxLatitude < 90 ? ", latitudes clipped to ±\(SVGPathData.format(map.maxLatitude, decimals: 6))°" : "")")
        return map
    }
}

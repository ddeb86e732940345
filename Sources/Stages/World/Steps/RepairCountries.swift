import Foundation
import GeoModel

extension WorldStage {
    /// Every country checked with GEOS, the invalid ones repaired (Repair).
    static func repairCountries(_ countries: CountrySet, _ o: Options, log: StageLog) throws -> (polygons: [[Polygon]], records: [Repair.Record]) {
        let areal = countries.areal
        let (repaired, records) = try log.step("check \(areal.count) countries with GEOS") {
            try Repair.run(areal.indices.map { (countries.refs[areal[$0]], countries.id($0), countries.polygons($0)) },
                           decimals: o.decimals, threads: o.threads, file: countries.file)
        }
        for r in records {
            log.info("repaired \(r.id): \(r.reason); area \(String(format: "%.3f", r.areaBeforeKm2)) → \(String(format: "%.3f", r.areaAfterKm2)) km², vertices \(r.verticesBefore) → \(r.verticesAfter)")
        }
        return (repaired, records)
    }
}

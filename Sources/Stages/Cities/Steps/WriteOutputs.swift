import Foundation
import GeoModel
import CitiesSchema

extension CitiesStage {
    /// Writes the report, the migration and the seed (last).
    static func writeOutputs(_ o: Options, sourceCount: Int, countryRows: [CountryRow], cityRows: [CityRow], qualifiers: [QualifierRow], reportLines: [String],
                             duplicates: [Int64: Int64], report: inout Report, log: StageLog) throws {
        let header = [
            "Cities for the city-ranking app (CONTRACTS §7), written by geo-cities: load after migrations/ (\(CitiesSchema.migrations.map(\.name).joined(separator: ", "))).",
            CitiesSchema.attribution,
            "\(cityRows.count) cities of \(sourceCount) in \(o.cities), \(countryRows.count) countries of \(o.world).",
            "Idempotent: a reload with nothing changed rewrites no row; cities that left the source are marked (retired_at), never deleted.",
        ]
        let seedText = try log.step("write seed") { try seed(countries: countryRows, cities: cityRows, qualifiers: qualifiers, header: header) }
        report.seedBytes = seedText.utf8.count

        var reportText = "# geo-cities report: one line per city whose country the polygons and GeoNames disagree on, and how it was resolved\n"
        reportText += "# \(CitiesSchema.attribution)\n"
        for (k, n) in report.byResolution.sorted(by: { $0.key < $1.key }) { reportText += "# resolution \(k.rawValue): \(n)\n" }
        for (k, n) in report.byContinent.sorted(by: { $0.key < $1.key }) { reportText += "# continent \(k): \(n)\n" }
        reportText += "# cities without admin name: \(report.withoutAdmin)\n"
        for (dup, kept) in duplicates.sorted(by: { $0.key < $1.key }) {
            reportText += "# same place listed twice: \(dup) is offered as \(kept)\n"
        }
        reportText += "resolution\tgeonameid\tname\tgeonames_country\tpolygon_country\tapp_country\tkm\n"
        reportText += reportLines.sorted().joined(separator: "\n") + (reportLines.isEmpty ? "" : "\n")

        // The seed last: make takes it for the stage's target, so it is only fresh when all is written.
        try FileIO.writeAtomically(reportText, to: o.report)
        for m in CitiesSchema.migrations { try FileIO.writeAtomically(m.sql + "\n", to: o.outputDir + "/migrations/" + m.name) }
        try FileIO.writeAtomically(seedText, to: o.outputDir + "/seed.sql")
        let kinds = report.byResolution.filter { $0.key != .agree }.sorted { $0.key < $1.key }
        for (k, n) in kinds { log.info("\(k.rawValue): \(n)") }
    }
}

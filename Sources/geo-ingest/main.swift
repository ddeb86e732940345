import ArgumentParser
import Foundation
import GeoModel
import IngestStage

struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo-ingest",
        abstract: "Natural Earth admin-0 units → one GeoJSON feature per country of the app's set.",
        discussion: """
        Reads a Natural Earth admin-0 GeoJSON (map units at 1:10m or 1:50m, countries at 1:110m) and
        writes the pipeline's first intermediate (build/ingest/countries.geojson in the Makefile):
          • id: ISO alpha-2 from ISO_A2_EH, with the unit remaps of data/id_remaps.tsv;
          • units sharing an id dissolved into one Polygon/MultiPolygon (GEOS coverage union);
          • name, continent, capital, capitalLat, capitalLon, aliases, neUnits (CONTRACTS §1);
          • RFC 7946 winding, features sorted by id, coordinates at 6 decimals.
        Geometry is not repaired or simplified here; geo-world does that.
        Errors name the file, the feature (index and Natural Earth NAME) and the problem; the output
        is written atomically, so a failed run leaves no file behind.

        Example:
          geo-ingest data/natural-earth/ne_110m_admin_0_countries.geojson -o /tmp/countries.geojson \\
            --points-from data/natural-earth/ne_50m_admin_0_map_units.geojson
        """)

    @Argument(help: "Natural Earth admin-0 GeoJSON (map units or countries).")
    var units: String

    @Option(name: [.short, .customLong("output")], help: "Output GeoJSON file.")
    var output: String = "build/ingest/countries.geojson"

    @Option(help: "Directory with the curated tables and the populated places.")
    var dataDir: String = "data"

    @Option(help: "Natural Earth populated places (capitals). Default: <data-dir>/natural-earth/ne_10m_populated_places.geojson")
    var places: String?

    @Option(help: "The country set, one ISO code a line. Default: <data-dir>/app_country_codes.txt")
    var countrySet: String?

    @Flag(help: "Emit every unit with an ISO code instead of the country set.")
    var allUnits = false

    @Option(help: "For codes of the set that the input lacks, take attributes from this admin-0 file and make the country a Point at its capital (the 1:110m file has no microstates).")
    var pointsFrom: String?

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    func run() throws {
        let log = StageLog(stage: "ingest", quiet: quiet)
        var o = IngestStage.Options.standard(dataDir: dataDir, units: units)
        if let places { o.placesPath = places }
        if let countrySet { o.countrySetPath = countrySet }
        o.allUnits = allUnits
        o.pointsFromPath = pointsFrom
        let (features, report) = try IngestStage.run(o, log: log)
        for (id, parts) in report.dissolved { log.info("dissolved \(id) from \(parts.joined(separator: "+"))") }
        for (id, reason) in report.unionFallbacks { log.info("\(id): coverage union not possible (\(reason)); used a general union") }
        if !report.pointsFromCapital.isEmpty {
            log.info("no polygon in the input, Point at the capital: \(report.pointsFromCapital.joined(separator: " "))")
        }
        for w in report.warnings { log.info("warning: \(w)") }
        try log.step("write \(output)") { try GeoJSON.write(features, to: output) }
        log.summary("\(report.unitsRead) units read, \(report.unitsUsed) used, \(report.remapped.count) remapped, \(report.skipped.count) skipped → \(features.count) countries (\(report.dissolved.count) dissolved, \(report.pointsFromCapital.count) points), \(formatCount(report.vertices)) vertices → \(output)")
    }
}

IngestCommand.main()

import ArgumentParser
import Foundation
import GeoModel
import IngestStage
import StageCommand

struct IngestCommand: StageCommand {
    typealias Stage = IngestStage
    static let configuration = CommandConfiguration(
        commandName: "geo-ingest",
        abstract: "Natural Earth admin-0 units → one GeoJSON feature per country of the app's set.",
        discussion: """
        Reads a Natural Earth admin-0 GeoJSON (map units at 1:10m or 1:50m, countries at 1:110m) and
        writes the pipeline's first intermediate (build/ingest/countries.geojson in the Makefile):
          • id: ISO alpha-2 from ISO_A2_EH, with the unit remaps of data/id_remaps.tsv;
          • units sharing an id dissolved into one Polygon/MultiPolygon (GEOS coverage union);
          • name, continent, capital, capitalLat, capitalLon, capitalAliases, aliases, neUnits (CONTRACTS §1);
          • capitals from data/capitals.tsv, else Natural Earth's populated places; every capital
            where Natural Earth and GeoNames (data/geonames/countries.tsv) disagree is decided by a
            row of capitals.tsv or reported; aliases add the forms without diacritics, with St. for
            Saint and spaces for hyphens; no name or alias of one country may equal (ignoring
            case, diacritics, hyphens, dots, apostrophes) one of another, nor capitals (an error);
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
    var output: String = IngestStage.Options().output

    @Option(help: "Directory with the curated tables and the populated places.")
    var dataDir: String = "data"

    @Option(help: "Natural Earth populated places (capitals). Default: <data-dir>/natural-earth/ne_10m_populated_places.geojson")
    var places: String?

    @Option(name: .customLong("places-out"), help: "Also write the populated places, compacted to the fields the stages read (the highlights stage reads this instead of the 16 MB file).")
    var placesOut: String?

    @Option(help: "The country set, one ISO code a line. Default: <data-dir>/app_country_codes.txt")
    var countrySet: String?

    @Option(help: "The curated capitals (the truth; Natural Earth and GeoNames are its evidence). Default: <data-dir>/capitals.tsv")
    var capitals: String?

    @Option(help: "Other spellings of capitals a player may type (id, alias, reason). Default: <data-dir>/capital_aliases.tsv")
    var capitalAliases: String?

    @Option(help: "Other names of countries a player may type (id, alias, reason). Default: <data-dir>/name_aliases.tsv")
    var nameAliases: String?

    @Option(help: "GeoNames' country table, the second source for capitals. Default: <data-dir>/geonames/countries.tsv")
    var geonames: String?

    @Flag(help: "Emit every unit with an ISO code instead of the country set.")
    var allUnits = false

    @Option(help: "For codes of the set that the input lacks, take attributes from this admin-0 file and make the country a Point at its capital (the 1:110m file has no microstates).")
    var pointsFrom: String?

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: IngestStage.Options {
        var o = IngestStage.Options.standard(dataDir: dataDir, units: units)
        o.output = output
        if let places { o.placesPath = places }
        o.placesOutput = placesOut
        if let countrySet { o.countrySetPath = countrySet }
        if let capitals { o.capitalsPath = capitals }
        if let capitalAliases { o.capitalAliasesPath = capitalAliases }
        if let nameAliases { o.nameAliasesPath = nameAliases }
        if let geonames { o.geonamesPath = geonames }
        o.allUnits = allUnits
        o.pointsFromPath = pointsFrom
        return o
    }


}

IngestCommand.main()

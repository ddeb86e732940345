import StageCommand
import IngestStage

StageFront<IngestStage>(
    name: "geo-ingest",
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
    """,
    beforeRun: { Allocator.keepHeapTop() }).main()

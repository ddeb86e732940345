import StageCommand
import CitiesSchema
import CitiesStage

StageFront<CitiesStage>(
    name: "geo-cities",
    abstract: "GeoNames cities ≥ 15,000 + world.geojson → the city-ranking app's countries and cities tables (Supabase/PostgreSQL).",
    discussion: """
    Reads the GeoNames tables in data/geonames/ (cities, admin-1 names, country populations;
    CC BY 4.0) and the app's country set (dist/world.geojson), and writes in --output-dir:
      • migrations/\(CitiesSchema.migrationName): the countries and cities tables of CONTRACTS §7
        with an alternate-name column, pg_trgm and unaccent, a trigram index, the search
        function search_cities(q, n), user_city, and
        row-level security (everyone reads, no client role writes); safe to apply twice;
      • migrations/\(CitiesSchema.searchMigrationName): the search that ranks what people
        mean: own name before common names (--common-names) before other names, each match
        kind weighed against population, typos forgiven by trigram similarity, a place GeoNames
        lists twice (--duplicate-km) offered once; code-like other names are left out;
      • seed.sql: every country and city as upserts that rewrite a row only when it changed;
        cities that left the source are marked (retired_at), never deleted;
    and a report (--report) of every city whose country the polygons and GeoNames disagree on.

    A city's country is the country whose polygon holds its point (GEOS prepared geometries
    behind a 1° grid), cross-checked with GeoNames' code. Disagreements are resolved by rule and
    counted by kind: a point country's city within --point-radius km of its point stays in it;
    a GeoNames territory that is no app country goes to the polygon holding it; another
    country's polygon wins unless GeoNames' country is within --border-tolerance km; a city
    in no polygon goes to GeoNames' country within --coastal-tolerance km, else to the
    sovereign of its territory (--territories: Réunion → France, with "Réunion" as admin
    part), else to the nearest polygon within the tolerance, else stays in GeoNames' country
    if the app has it, else is dropped.

    Example:
      geo-cities --world dist/world.geojson --output-dir dist/supabase/cities --report build/cities/report.tsv
    """).main()

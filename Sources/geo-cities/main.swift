import ArgumentParser
import Foundation
import GeoModel
import CitiesStage
import StageCommand

private let defaults = CitiesStage.Options()

struct CitiesCommand: StageCommand {
    typealias Stage = CitiesStage
    static let configuration = CommandConfiguration(
        commandName: "geo-cities",
        abstract: "GeoNames cities ≥ 15,000 + world.geojson → the city-ranking app's countries and cities tables (Supabase/PostgreSQL).",
        discussion: """
        Reads the GeoNames tables in data/geonames/ (cities, admin-1 names, country populations;
        CC BY 4.0) and the app's country set (dist/world.geojson), and writes in --out-dir:
          • migrations/\(CitiesStage.migrationName): the countries and cities tables of CONTRACTS §7
            with an alternate-name column, pg_trgm and unaccent, a trigram index, the search
            function search_cities(q, n) (match quality, then population), user_city, and
            row-level security (everyone reads, no client role writes); safe to apply twice;
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
          geo-cities --world dist/world.geojson --out-dir dist/supabase/cities --report build/cities/report.tsv
        """)

    @Option(help: "GeoNames cities (tab-separated, see data/README.md).")
    var cities: String = defaults.cities

    @Option(help: "Admin-1 names by country and code.")
    var admin1: String = defaults.admin1

    @Option(help: "GeoNames' country table (id and population per ISO code).")
    var countryTable: String = defaults.countryTable

    @Option(help: "Territories the app does not draw and their sovereign country (tab-separated; empty: none).")
    var territories: String = defaults.territories

    @Option(help: "The country set: world.geojson.")
    var world: String = defaults.world

    @Option(help: "Directory for migrations/ and seed.sql.")
    var outDir: String = defaults.outDir

    @Option(help: "Where to write the disagreement report (tab-separated).")
    var report: String = defaults.report

    @Option(help: "Keep GeoNames' country when its polygon is this close (km) to a city inside another's.")
    var borderTolerance: Double = defaults.borderToleranceKm

    @Option(help: "A city in no polygon goes to a country this close (km).")
    var coastalTolerance: Double = defaults.coastalToleranceKm

    @Option(help: "A city GeoNames puts in a point country stays in it within this distance (km) of its point.")
    var pointRadius: Double = defaults.pointRadiusKm

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    var options: CitiesStage.Options {
        var o = CitiesStage.Options()
        o.cities = cities; o.admin1 = admin1; o.countryTable = countryTable; o.territories = territories; o.world = world
        o.outDir = outDir; o.report = report
        o.borderToleranceKm = borderTolerance; o.coastalToleranceKm = coastalTolerance; o.pointRadiusKm = pointRadius
        return o
    }


}

CitiesCommand.main()

import Foundation
import GeoModel

extension IngestStage.Options {
    /// `units` with the repository's own data files under `dataDir`.
    public static func standard(dataDir: String = "data", units: String) -> IngestStage.Options {
        var o = IngestStage.Options()
        o.input = units
        o.dataDir = dataDir
        return o
    }

    /// Every data path under `dir`: the repository's layout of the curated tables and the populated places.
    mutating func pointDataPaths(at dir: String) {
        placesPath = "\(dir)/natural-earth/ne_10m_populated_places.geojson"
        countrySetPath = "\(dir)/app_country_codes.txt"
        remapsPath = "\(dir)/id_remaps.tsv"
        continentsPath = "\(dir)/continents.tsv"
        capitalsPath = "\(dir)/capitals.tsv"
        namesPath = "\(dir)/names.tsv"
        geonamesPath = "\(dir)/geonames/countries.tsv"
        capitalAliasesPath = "\(dir)/capital_aliases.tsv"
        nameAliasesPath = "\(dir)/name_aliases.tsv"
    }
}

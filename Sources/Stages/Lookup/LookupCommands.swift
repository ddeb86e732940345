import Foundation
import GeoLookup
import GeoModel
import StageContract

/// geo-lookup's commands beside the stage (`build`): asking the index, and timing it.
extension LookupStage {
    /// `geo-lookup LAT LON`, `geo-lookup --batch`: the country and nearest city of a point.
    public struct QueryOptions: DeclaredOptions {
        public var index = Options().output
        public var cityKm = GeoLookup.defaultCityRadiusKm
        public var batch = false
        public var latitude: Double?
        public var longitude: Double?
        public init() {}

        public static let declared: [StageOption<QueryOptions>] = [
            .option("index", \.index, help: "The lookup index (make lookup)."),
            .option("city-km", \.cityKm, .atLeast(0), help: "A point counts for its nearest city within this many km."),
            .flag("batch", \.batch, help: "Read lat,lon lines on standard input."),
            .argument("latitude", \.latitude, help: "Latitude in degrees."),
            .argument("longitude", \.longitude, help: "Longitude in degrees."),
        ]

        public func validateRules() throws {
            if batch {
                guard latitude == nil else { throw OptionsError("--batch reads standard input; give no coordinates") }
                return
            }
            guard let latitude, let longitude else { throw OptionsError("give LAT LON (or --batch)") }
            guard abs(latitude) <= 90 else { throw OptionsError("latitude \(latitude) is outside -90…90") }
            guard abs(longitude) <= 180 else { throw OptionsError("longitude \(longitude) is outside -180…180") }
        }
    }

    /// Answers one `lat,lon,country,city` line, or one per line of standard input.
    public static func query(_ o: QueryOptions) throws {
        let lookup = try openIndex(o.index)
        if let latitude = o.latitude, let longitude = o.longitude, !o.batch {
            var out: [UInt8] = []
            lookup.answer(latText: Array(String(latitude).utf8)[...], lonText: Array(String(longitude).utf8)[...],
                          latitude: latitude, longitude: longitude, cityWithinKm: o.cityKm, into: &out)
            FileHandle.standardOutput.write(Data(out))
            return
        }
        let input = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        do {
            try lookup.answerBatch(input, cityWithinKm: o.cityKm) { FileHandle.standardOutput.write(Data($0)) }
        } catch let e as QueryLineError { throw InputError(file: "standard input", e.message) }
    }

    /// `geo-lookup bench` (LookupBench.swift).
    public struct BenchOptions: DeclaredOptions {
        public var index = Options().output
        public var points = 1_000_000
        public var loads = 9
        public init() {}

        public static let declared: [StageOption<BenchOptions>] = [
            .option("index", \.index, help: "The lookup index."),
            .option("points", \.points, .atLeast(1), help: "Points per pass."),
            .option("loads", \.loads, .atLeast(1), help: "How many times the index is loaded."),
        ]
    }

    /// The index at `path`, read and checked; a bad file is an error naming it.
    public static func openIndex(_ path: String) throws -> GeoLookup {
        let bytes = try FileIO.readBytes(path)
        do { return try GeoLookup(data: Data(bytes)) } catch let e as LookupIndexError { throw InputError(file: path, e.message) }
    }
}

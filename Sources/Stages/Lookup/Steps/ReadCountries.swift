import GeoLookup
import GeoModel

extension LookupStage {
    /// The countries file as the builder takes it: (countries, ids given as points, id → feature).
    static func readCountries(_ o: Options, log: StageLog) throws -> ([LookupIndexBuilder.Country], [String], [String: Int]) {
        let features = try log.step("read \(o.input)") { try GeoJSON.read(path: o.input) }
        guard !features.isEmpty else { throw InputError(file: o.input, "has no features") }
        var countries: [LookupIndexBuilder.Country] = []
        var skipped: [String] = []
        var seen: [String: Int] = [:]
        for (i, f) in features.enumerated() {
            let id = try CountryID.require(f, index: i, file: o.input)
            let ref = FeatureRef(index: i, name: f.string("name"), id: id)
            if let first = seen[id] { throw InputError(file: o.input, feature: ref, "repeats the id \(id) of feature #\(first)") }
            seen[id] = i
            if case .point = f.geometry { skipped.append(id); continue }
            if let jump = CountryFile.antimeridianJump(f.geometry) { throw InputError(file: o.input, feature: ref, jump) }
            let rings = f.geometry.polygons.flatMap { $0.rings }.map { $0.map { Coordinate(latitude: $0.y, longitude: $0.x) } }
            guard !rings.isEmpty else { throw InputError(file: o.input, feature: ref, "has no polygon") }
            countries.append(.init(code: id, rings: rings))
        }
        return (countries, skipped, seen)
    }
}

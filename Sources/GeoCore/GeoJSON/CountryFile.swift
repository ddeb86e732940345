// world.geojson as every stage after the world stage reads it (CONTRACTS §1), checked in one
// place so that the globe, the maps, the silhouettes, the highlights and the quiz agree on
// what a valid country file is, and say so in the same words.

/// Country ids become file names and element ids: only two upper-case ASCII letters pass
/// (ISO 3166-1 alpha-2, CONTRACTS §1), so "../x", "" or "fr" can never escape the output folder.
public enum CountryID {
    public static func isValid(_ id: String) -> Bool {
        let u = Array(id.utf8)
        return u.count == 2 && u.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
    }

    /// The feature's id, or an error naming the file, the feature and the problem.
    public static func require(_ feature: Feature, index: Int, file: String) throws -> String {
        let ref = FeatureRef(index: index, name: feature.string("name"), id: feature.id)
        guard let id = feature.id else {
            throw InputError(file: file, feature: ref, "has no id; an ISO 3166-1 alpha-2 id (two upper-case letters) is required")
        }
        guard isValid(id) else {
            var w = JSONWriter(); w.string(id)
            throw InputError(file: file, feature: ref, "id \(w.string) is not two upper-case letters A–Z; ids name output files and SVG elements, so nothing else is accepted")
        }
        return id
    }
}

public enum CountryFile {
    /// Reads a country file (dist/world.geojson) and checks what every consumer relies on:
    /// each feature has a valid, unique id and a name, and `renderAs: "point"` goes with a
    /// Point geometry and only with one. Errors name the file, the feature and the problem.
    public static func read(path: String) throws -> [Feature] {
        let features = try GeoJSON.read(path: path)
        try check(features, file: path)
        return features
    }

    public static func check(_ features: [Feature], file: String) throws {
        guard !features.isEmpty else { throw InputError(file: file, "has no features") }
        var firstIndex: [String: Int] = [:]
        for (i, f) in features.enumerated() {
            let id = try CountryID.require(f, index: i, file: file)
            let ref = FeatureRef(index: i, name: f.string("name"), id: id)
            if let first = firstIndex[id] {
                throw InputError(file: file, feature: ref, "repeats the id \(id) of feature #\(first)")
            }
            firstIndex[id] = i
            guard let name = f.string("name"), !name.isEmpty else { throw InputError(file: file, feature: ref, "has no name") }
            let isPoint: Bool
            if case .point = f.geometry { isPoint = true } else { isPoint = false }
            let rendersAsPoint = f.string("renderAs") == "point"
            if rendersAsPoint != isPoint {
                throw InputError(file: file, feature: ref, rendersAsPoint
                    ? "has renderAs \"point\" but a \(f.geometry.typeName) geometry"
                    : "has a Point geometry but no renderAs \"point\"")
            }
        }
    }
}

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
            throw InputError(file: file, feature: ref, "id \(w.string) is not two upper-case letters A–Z; ids name output files, SVG elements and USD prims, so nothing else is accepted")
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
            if let jump = antimeridianJump(f.geometry) { throw InputError(file: file, feature: ref, jump) }
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

    /// A ring edge that spans more than 180° of longitude crosses the antimeridian without
    /// being cut there, which RFC 7946 §3.1.9 forbids: every consumer would draw it the long
    /// way round the Earth. An edge along the pole line (Antarctica's ring runs from -180 to
    /// 180 at latitude -90, or -89.9989 at 1:50m) has no length on the sphere and is allowed.
    /// Returns the problem, or nil.
    public static func antimeridianJump(_ g: Geometry) -> String? {
        let polys = g.polygons
        for (pi, poly) in polys.enumerated() {
            for (ri, ring) in poly.rings.enumerated() {
                for i in 1..<max(ring.count, 1) where abs(ring[i].x - ring[i - 1].x) > 180
                    && !(abs(ring[i].y) >= 89.99 && abs(ring[i - 1].y) >= 89.99) {
                    let at = polys.count > 1 ? "polygon \(pi) ring \(ri)" : "ring \(ri)"
                    return "\(at) crosses the antimeridian between positions \(i - 1) and \(i) (longitude \(ring[i - 1].x) to \(ring[i].x)); RFC 7946 §3.1.9 requires such rings to be cut at ±180°"
                }
            }
        }
        return nil
    }
}

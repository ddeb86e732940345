import GeoModel

/// The input countries, checked and in id order. Graph countries (the arc graph's, the
/// repair's) are the polygonal ones: `areal[c]` is graph country c's feature index.
struct CountrySet {
    let file: String
    /// In id order.
    let features: [Feature]
    /// Name each feature by its place in the input file.
    let refs: [FeatureRef]
    let areal: [Int]
    let verticesBefore: Int

    /// Checks ids, names and continents (`file` names the input in errors).
    init(_ input: [Feature], file: String) throws {
        var seen = Set<String>()
        for (i, f) in input.enumerated() {
            let ref = FeatureRef(index: i, name: f.string("name"), id: f.id)
            guard let id = f.id, CountryID.isValid(id) else { throw InputError(file: file, feature: ref, "has no two-letter upper-case id") }
            guard seen.insert(id).inserted else { throw InputError(file: file, feature: ref, "repeats the id \(id)") }
            guard f.string("name") != nil else { throw InputError(file: file, feature: ref, "has no name property") }
            guard f.string("continent") != nil else { throw InputError(file: file, feature: ref, "has no continent property") }
        }
        let order = input.indices.sorted { input[$0].id! < input[$1].id! }
        self.file = file
        features = order.map { input[$0] }
        refs = order.map { FeatureRef(index: $0, name: input[$0].string("name"), id: input[$0].id) }
        let features = features
        areal = features.indices.filter { if case .point = features[$0].geometry { return false }; return true }
        verticesBefore = features.reduce(0) { $0 + $1.geometry.vertexCount }
    }

    /// Graph country c's id.
    func id(_ c: Int) -> String { features[areal[c]].id! }
    /// Graph country c's input polygons.
    func polygons(_ c: Int) -> [Polygon] { features[areal[c]].geometry.polygons }
}

import Foundation

/// Natural Earth populated places, indexed by ISO_A2.
public struct Places: Sendable {
    public struct Place: Sendable {
        public var name: String
        public var asciiName: String?
        public var alternateNames: [String]
        public var featureClass: String
        public var iso: String
        public var countryName: String
        public var position: Point
        public var population: Double
    }

    public let path: String
    public let all: [Place]
    public let byISO: [String: [Place]]

    public init(path: String) throws {
        self.path = path
        var opts = GeoJSON.ReadOptions()
        opts.nameKeys = ["NAME"]
        opts.keepProperties = ["NAME", "NAMEASCII", "NAMEALT", "FEATURECLA", "ISO_A2", "ADM0NAME", "POP_MAX"]
        var places: [Place] = []
        for (i, f) in try GeoJSON.read(path: path, options: opts).enumerated() {
            guard case .point(let p) = f.geometry else {
                throw InputError(file: path, feature: FeatureRef(index: i, name: f.string("NAME")), "is a \(f.geometry.typeName); populated places are Points")
            }
            guard let name = f.string("NAME") else { throw InputError(file: path, feature: FeatureRef(index: i, name: nil), "has no NAME") }
            let alt = (f.string("NAMEALT") ?? "").split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            places.append(Place(name: name, asciiName: f.string("NAMEASCII"), alternateNames: alt,
                                featureClass: f.string("FEATURECLA") ?? "", iso: f.string("ISO_A2") ?? "-99",
                                countryName: f.string("ADM0NAME") ?? "", position: p, population: f.double("POP_MAX") ?? 0))
        }
        all = places
        byISO = Dictionary(grouping: places, by: \.iso)
    }
}

import Foundation
import GeoModel
import Geodesy

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

    /// The places as a small GeoJSON FeatureCollection holding only the properties `init`
    /// reads, in the same order, numbers in their shortest round-trip form: `Places(path:)`
    /// of it gives exactly these places (the populated places file is 16 MB of 100+ columns,
    /// this is a tenth of it; the ingest stage writes it once for the later stages).
    public func encodeCompact() -> [UInt8] {
        var w = JSONWriter(reserve: 1 << 20)
        w.raw("{\"type\":\"FeatureCollection\",\"features\":[\n")
        for (i, p) in all.enumerated() {
            if i > 0 { w.raw(",\n") }
            w.raw("{\"type\":\"Feature\",\"properties\":{\"NAME\":"); w.string(p.name)
            if let a = p.asciiName { w.raw(",\"NAMEASCII\":"); w.string(a) }
            if !p.alternateNames.isEmpty { w.raw(",\"NAMEALT\":"); w.string(p.alternateNames.joined(separator: "|")) }
            w.raw(",\"FEATURECLA\":"); w.string(p.featureClass)
            w.raw(",\"ISO_A2\":"); w.string(p.iso)
            w.raw(",\"ADM0NAME\":"); w.string(p.countryName)
            w.raw(",\"POP_MAX\":"); w.number(p.population)
            w.raw("},\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
            w.number(p.position.x); w.raw(","); w.number(p.position.y)
            w.raw("]}}")
        }
        w.raw("\n]}\n")
        return w.bytes
    }
}

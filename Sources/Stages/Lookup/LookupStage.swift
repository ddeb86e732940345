// The lookup stage: full-detail country polygons (build/ingest/countries.geojson) and the
// Natural Earth populated places → dist/lookup/lookup.bin, the index the GeoLookup library
// reads (format: Sources/GeoLookup/IndexFormat.swift). The index writer is the library's own
// LookupIndexBuilder, so this stage only reads files, checks them and reports.

import Foundation
import GeoLookup
import GeoModel
import Parallelism
import PopulatedPlaces
import StageContract

public enum LookupStage: PipelineStage {
    public static let name = "lookup"

    public struct Options: DeclaredOptions {
        /// Country polygons at full detail (the ingest stage's output).
        public var input = "build/ingest/countries.geojson"
        /// The populated places as the ingest compacts them (the 16 MB Natural Earth file reads
        /// the same, more slowly).
        public var places = "build/ingest/places.geojson"
        public var output = "dist/lookup/lookup.bin"
        /// A cell with more border edges than this is split in four.
        public var maxEdgesPerLeaf = LookupIndexBuilder.Parameters().maxEdgesPerLeaf
        /// Deepest split of open-sea cells near the buffer's edge (3 → 1/8°).
        public var seaMaxDepth = LookupIndexBuilder.Parameters().seaMaxDepth
        /// Points at sea this close to a coast belong to its country (12 nautical miles).
        public var coastBufferKm = LookupIndexBuilder.Parameters().coastBufferKm
        /// The index must not grow past this (the apps bundle it).
        public var maxBytes = 5_000_000
        /// Root rows built at once; the bytes do not depend on it.
        public var threads = LookupIndexBuilder.Parameters().threads
        public init() {}

        public static let declared: [StageOption<Options>] = [
            .argument("countries", \.input, help: "Country polygons at full detail (the ingest stage's output)."),
            .option("places", \.places, help: "Natural Earth populated places (the ingest's compacted copy, or the original file)."),
            .option("output", short: "o", \.output, help: "The index file."),
            .option("max-edges", \.maxEdgesPerLeaf, .within(4...1000), help: "Split a cell holding more border edges than this."),
            .option("sea-depth", \.seaMaxDepth, .within(0...8), help: "Deepest split (below the 1° cells) of open sea where the buffer's edge passes."),
            .option("coast-buffer-km", \.coastBufferKm, .within(0...200), help: "Sea within this many km of a coast belongs to the coast's country."),
            .option("max-bytes", \.maxBytes, .above(0), help: "Largest index size accepted, in bytes."),
            .option("threads", \.threads, .within(1...64), help: "Root rows built at once (the bytes do not depend on it)."),
        ]
    }

    public struct Report: StageReport {
        public var countries = 0, skippedPoints: [String] = [], cities = 0
        public var statistics = LookupIndexBuilder.Statistics()
        public var loadMilliseconds = 0.0
        public var output = ""
        public var summary: String {
            let s = statistics
            return "\(countries) countries (\(formatCount(s.edges)) border edges), \(formatCount(cities)) cities → \(output) "
                + "(\(formatCount(s.bytes)) bytes; \(formatCount(s.nodes)) cells, \(formatCount(s.leaves)) with borders; loads in \(String(format: "%.1f", loadMilliseconds)) ms)"
                + (skippedPoints.isEmpty ? "" : "; no polygon for \(skippedPoints.joined(separator: " "))")
        }
    }

    /// Reads the countries and the places, builds the index, reads it back and writes it (steps in Steps/).
    public static func run(_ o: Options, log: StageLog) throws -> Report {
        var report = Report()
        report.output = o.output
        // The places are read on a second thread while the countries are read and checked
        // (an error in the countries is still the one reported when both are bad).
        let placesPath = o.places
        let placesRead = Background(onThread: o.threads >= 2) { try log.step("read \(placesPath)") { try Places(path: placesPath) } }
        let (countries, skipped, seen) = try readCountries(o, log: log)
        report.skippedPoints = skipped
        report.countries = countries.count
        let places = try placesRead.value()
        let cities = lookupCities(places, seen: seen)
        report.cities = cities.count
        let bytes = try buildIndex(o, countries, cities, report: &report, log: log)
        report.loadMilliseconds = try readBack(bytes, countries: countries.count, cities: cities.count)
        try log.step("write \(o.output)") { try FileIO.writeAtomically(bytes, to: o.output) }
        return report
    }
}

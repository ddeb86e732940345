import Foundation
import GeoModel

extension IngestStage {
    /// The units of the country set grouped by id (the remap table applied), and for codes of
    /// the set that no unit provides, the largest unit of `pointsFromPath` (a Point at its capital).
    static func selectUnits(_ o: Options, _ tables: Tables, report: inout Report, log: StageLog) throws -> (groups: [String: [Unit]], pointUnits: [String: Unit]) {
        let (remaps, countrySet) = (tables.remaps, tables.countrySet)
        var readOptions = GeoJSON.ReadOptions()
        readOptions.nameKeys = ["NAME", "ADMIN", "name"]
        let features = try log.step("read \(o.input)") { try GeoJSON.read(path: o.input, options: readOptions) }
        report.unitsRead = features.count
        guard !features.isEmpty else { throw InputError(file: o.input, "the FeatureCollection has no features") }
        var units = try classify(features, file: o.input, remaps: remaps, report: &report)

        let wanted = countrySet.map(Set.init)
        units = units.filter { u in
            if let w = wanted, !w.contains(u.id) { report.skipped.append("\(u.suA3) (\(u.name)): \(u.id) is not in the country set"); return false }
            return true
        }
        report.unitsUsed = units.count
        var groups = Dictionary(grouping: units, by: \.id)

        // Codes of the set that no unit provides.
        var pointUnits: [String: Unit] = [:]
        if let set = countrySet {
            let missing = set.filter { groups[$0] == nil }
            if !missing.isEmpty {
                guard let fallback = o.pointsFromPath else {
                    throw InputError(file: o.input, "no unit provides \(missing.count == 1 ? "the code" : "the codes") \(missing.joined(separator: ", ")) of the country set \(o.countrySetPath ?? "")")
                }
                var fallbackReport = Report()  // the fallback file's own remaps and skips are not this run's
                let extra = try classify(try GeoJSON.read(path: fallback, options: readOptions), file: fallback, remaps: remaps, report: &fallbackReport)
                let byId = Dictionary(grouping: extra, by: \.id)
                for id in missing {
                    guard let us = byId[id], let largest = us.max(by: { ($0.area, $1.suA3) < ($1.area, $0.suA3) }) else {
                        throw InputError(file: fallback, "no unit provides the code \(id) of the country set (missing from \(o.input) too)")
                    }
                    pointUnits[id] = largest
                    groups[id] = [largest]
                }
            }
        }
        return (groups, pointUnits)
    }
}

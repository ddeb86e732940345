import Foundation
import GeoModel
import GeoFormats
import GeoLookup

extension InspectStage {
    /// data.js: the countries (with their report rows, repairs, change and silhouette), the
    /// largest cities, the routes, the territory, the lookup probe and the changes, as a script.
    static func inspectData(_ o: Options, products: ProductReader, report r: inout Report, log: StageLog) throws -> [UInt8] {
        let countries = try log.step("read \(o.world)") { try products.countries() }
        r.countries = countries.count
        let (columns, rows) = try ReleaseSnapshot.readWorldRows(o.worldReport)
        let repairs = try repairLines(o.worldReport)
        let changes = try o.changes.map { path in try JSONValue.parse(try FileIO.readBytes(path), file: path) }
        let changedCountries = changes?["countries"]?.objectValue ?? JSONObject()
        r.changed = changedCountries.count
        let silhouetteURL = relativePath(from: o.out, to: o.silhouettes) + "/"
        let silhouettes = Set((try? FileManager.default.contentsOfDirectory(atPath: o.silhouettes)) ?? [])

        var w = JSONWriter(coordinateDecimals: 5, reserve: 8 << 20)
        w.raw("// The inspection page's data, written by geo-inspect (a script: file:// pages cannot fetch).\nwindow.INSPECT = {\"countries\":{\"type\":\"FeatureCollection\",\"features\":[")
        for (i, f) in countries.enumerated() {
            if i > 0 { w.raw(",\n") }
            let id = f.id!
            var props = JSONObject()
            for key in ["name", "continent", "capital", "capitalLat", "capitalLon", "aliases", "capitalAliases", "renderAs"] {
                if let v = f.properties[key] { props[key] = v }
            }
            if let row = rows[id] {
                props["report"] = .object(JSONObject(zip(columns, row).map { ($0, .string($1)) }))
            }
            if let rep = repairs[id] { props["repairs"] = .array(rep.map { .string($0) }) }
            if let c = changedCountries[id] { props["change"] = c }
            if silhouettes.contains("\(id).svg") { props["silhouette"] = .string(silhouetteURL + id + ".svg") }
            w.raw("{\"type\":\"Feature\",\"id\":"); w.string(id)
            w.raw(",\"properties\":"); w.value(.object(props))
            w.raw(",\"geometry\":"); w.geometry(f.geometry); w.raw("}")
        }
        w.raw("]},\n\"cities\":")
        let cities = try log.step("cities") { try products.citiesSeed().cities }
        let largest = cities.sorted { ($0.value.population, $1.key) > ($1.value.population, $0.key) }.prefix(o.cities)
        w.value(.array(largest.map { c in
            .array([.string(c.value.name), .string(c.value.country), .number(Double(c.value.population)),
                    .number((c.value.latitude * 1e4).rounded() / 1e4), .number((c.value.longitude * 1e4).rounded() / 1e4)])
        }))
        w.raw(",\n\"routes\":"); try embedJSON(o.routes, &w)
        w.raw(",\n\"territory\":"); try embedJSON(o.territory, &w)
        w.raw(",\n\"probe\":")
        let lookup = try products.lookup()
        let probe = Changes.probePoints(o.probePoints)
        w.value(.array(probe.map { p in
            .array([.number((p.latitude * 1e3).rounded() / 1e3), .number((p.longitude * 1e3).rounded() / 1e3), lookup.country(at: p).map { .string($0) } ?? .null])
        }))
        w.raw(",\n\"changes\":")
        if let changes { w.value(changes) } else { w.raw("null") }
        w.raw("};\n")
        r.bytes = w.bytes.count
        return w.bytes
    }
}

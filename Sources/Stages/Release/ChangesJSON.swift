import CalendarDay
import Foundation
import GeoModel

extension Changes {
    /// Numbers rounded for reading (km to the metre, % to 1e-4): enough to see any visible change.
    static func rounded(_ d: Double, _ places: Int) -> JSONValue {
        let s = PowersOfTen.table[places]
        return .number((d * s).rounded() / s)
    }

    static func str(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }

    static func cityJSON(_ c: CityRef, _ extra: [(String, JSONValue)] = []) -> JSONValue {
        .object(JSONObject([("id", .number(Double(c.id))), ("name", .string(c.name)), ("country", .string(c.country))] + extra))
    }

    /// changes.json: `{"previous", "countries", "quiz", "cities", "lookup", "files", "world"}`; with no
    /// previous release every section is empty and "previous" is null.
    static func json(_ c: Changes?, day: Day) -> String {
        var root = JSONObject()
        root["day"] = .string(day.iso)
        root["previous"] = c.map { .string($0.previousLabel) } ?? .null
        root["headline"] = .string(c?.headline ?? "first release: nothing to compare")
        var countries = JSONObject()
        for k in c?.countries ?? [] {
            var o = JSONObject()
            o["name"] = .string(k.name)
            if k.status != "changed" { o["status"] = .string(k.status) }
            if let g = k.geometryKm { o["geometry_km"] = rounded(g, 3) }
            if let a = k.areaPct { o["area_pct"] = rounded(a, 4) }
            if let a = k.areaKm2 { o["area_km2"] = .array([rounded(a.old, 1), rounded(a.new, 1)]) }
            if !k.fields.isEmpty {
                o["fields"] = .object(JSONObject(k.fields.map { ($0.0, .array([$0.1, $0.2])) }))
            }
            countries[k.id] = .object(o)
        }
        root["countries"] = .object(countries)

        let q = c?.quiz ?? Quiz()
        let change = { (x: QuizChange) -> JSONValue in .object(JSONObject([("date", .string(x.date)), ("old", str(x.old)), ("new", str(x.new))])) }
        root["quiz"] = .object(JSONObject([
            ("days_added", .number(Double(q.added.count))),
            ("first_added", str(q.added.first)), ("last_added", str(q.added.last)),
            ("days_removed", .array(q.removed.map { .string($0) })),
            ("days_changed_before_release_day", .array(q.pastChanged.map(change))),
            ("days_changed_from_release_day", .array(q.futureChanged.map(change))),
            ("answers_whose_country_changed", .array(q.answersChanged.map {
                .object(JSONObject([("date", .string($0.date)), ("question", .string($0.question)), ("answer", .string($0.answer)),
                                    ("changed", .array($0.what.map { .string($0) }))]))
            })),
        ]))

        let ci = c?.cities ?? Cities()
        root["cities"] = .object(JSONObject([
            ("added", .array(ci.added.map { cityJSON($0) })),
            ("retired", .array(ci.retired.map { cityJSON($0) })),
            ("renamed", .array(ci.renamed.map { cityJSON($0.0, [("new_name", .string($0.1))]) })),
            ("moved", .array(ci.moved.map { cityJSON($0.0, [("new_country", .string($0.1))]) })),
            ("other_columns_changed", .number(Double(ci.updated.count))),
            ("countries_table", .object(JSONObject(ci.countries.map { code, diffs in
                (code, .object(JSONObject(diffs.map { ($0.0, .array([str($0.1), str($0.2)])) })))
            }))),
        ]))

        let l = c?.lookup ?? Lookup()
        root["lookup"] = .object(JSONObject([
            ("probe_points", .number(Double(l.points))),
            ("country_differs", .number(Double(l.countryDiffers))),
            ("nearest_city_differs", .number(Double(l.cityDiffers))),
            ("by_change", .object(JSONObject(l.pairs.map { ($0.0, .number(Double($0.1))) }))),
            ("examples", .array(l.examples.map {
                .object(JSONObject([("lat", rounded($0.lat, 5)), ("lon", rounded($0.lon, 5)), ("old", str($0.old)), ("new", str($0.new))]))
            })),
        ]))

        let f = c?.files ?? Files()
        var sizes = JSONObject()
        for s in f.sizes {
            sizes[s.path] = .object(JSONObject([
                ("old_bytes", s.old.map { .number(Double($0)) } ?? .null), ("new_bytes", s.new.map { .number(Double($0)) } ?? .null),
                ("delta_bytes", s.old.flatMap { o in s.new.map { .number(Double($0 - o)) } } ?? .null),
            ]))
        }
        root["files"] = .object(JSONObject([
            ("sizes", .object(sizes)),
            ("changed", .array(f.changed.map { .string($0) })),
            ("added", .array(f.added.map { .string($0) })),
            ("removed", .array(f.removed.map { .string($0) })),
        ]))
        let tol = { (s: String?) -> JSONValue in s.flatMap { Double($0) }.map { .number($0) } ?? .null }
        root["world_tolerance_km"] = .array([tol(c?.tolerance.old), tol(c?.tolerance.new)])
        var w = JSONWriter()
        w.value(.object(root), indent: 1)
        return w.string + "\n"
    }
}

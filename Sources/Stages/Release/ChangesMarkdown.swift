import CalendarDay
import Foundation
import GeoModel

/// CHANGES.md: read in a minute. The headline (what changed, by how much), then one table per
/// product; long lists are cut in the text (changes.json has them all).
enum ChangesMarkdown {
    static let listLimit = 25
    static let countryRows = 40

    static func cell(_ v: JSONValue) -> String {
        switch v {
        case .null: return "—"
        case .string(let s): return s.replacingOccurrences(of: "|", with: "\\|")
        case .array(let a): return a.map(cell).joined(separator: ", ")
        default:
            var w = JSONWriter(); w.value(v); return w.string
        }
    }

    static func km(_ d: Double) -> String { String(format: d < 0.1 ? "%.3f" : "%.2f", d) }

    static func bytes(_ n: Int?) -> String { n.map { formatCount($0) } ?? "—" }

    static func render(_ c: Changes?, current: ReleaseSnapshot, day: Day, commit: String) -> String {
        var s = "# Release \(day.iso)\n\n"
        s += "Pipeline commit `\(commit)`; \(current.countries.count) countries, \(current.quiz.count) quiz days, \(formatCount(current.cities.count)) cities.\n\n"
        guard let c else {
            return s + "**First release**: there is no previous release to compare with (`make release RELEASE_PREVIOUS=DIR` compares).\n"
        }
        s += "Compared with `\(c.previousLabel)`.\n\n"
        s += "**\(c.headline).**\n\n"
        if let o = c.tolerance.old, let n = c.tolerance.new {
            s += o == n ? "The world's simplification tolerance is the previous release's (\(o) km), so borders no edit touched are identical.\n\n"
                        : "The world's simplification tolerance changed (\(o) → \(n) km): every simplified border may have moved a little.\n\n"
        }

        s += "## Countries\n\n"
        if c.countries.isEmpty { s += "No country changed.\n\n" } else {
            // Countries added or removed first, then the largest moves, then field changes alone.
            let rank = { (k: Changes.Country) -> Int in k.status != "changed" ? 0 : k.geometryKm != nil ? 1 : 2 }
            let ordered = c.countries.sorted { (rank($0), -($0.geometryKm ?? 0), $0.id) < (rank($1), -($1.geometryKm ?? 0), $1.id) }
            s += "| id | country | change | largest move (km) | area | fields |\n|---|---|---|---:|---:|---|\n"
            for k in ordered.prefix(countryRows) {
                let area = k.areaPct.map { String(format: "%+.4f %%", $0) } ?? ""
                let fields = k.fields.map { "\($0.0): \(cell($0.1)) → \(cell($0.2))" }.joined(separator: "; ")
                s += "| \(k.id) | \(cell(.string(k.name))) | \(k.status) | \(k.geometryKm.map(km) ?? "") | \(area) | \(cell(.string(fields))) |\n"
            }
            if ordered.count > countryRows { s += "| … | \(ordered.count - countryRows) more countries in changes.json | | | | |\n" }
            s += "\n"
        }

        let q = c.quiz
        s += "## Quiz\n\n| days added | changed before \(day.iso) | changed from \(day.iso) | removed | answers whose country changed |\n|---:|---:|---:|---:|---:|\n"
        s += "| \(q.added.count)\(q.added.isEmpty ? "" : " (\(q.added.first!) … \(q.added.last!))") | \(q.pastChanged.count) | \(q.futureChanged.count) | \(q.removed.count) | \(q.answersChanged.count) |\n\n"
        if !q.answersChanged.isEmpty {
            s += "| date | question | answer | what changed |\n|---|---|---|---|\n"
            for a in q.answersChanged.prefix(listLimit) { s += "| \(a.date) | \(a.question) | \(a.answer) | \(a.what.joined(separator: ", ")) |\n" }
            if q.answersChanged.count > listLimit { s += "| … | | | \(q.answersChanged.count - listLimit) more in changes.json |\n" }
            s += "\n"
        }
        for x in (q.pastChanged + q.futureChanged).prefix(listLimit) { s += "- \(x.date): \(x.old ?? "—") → \(x.new ?? "—")\n" }

        let ci = c.cities
        s += "## Cities\n\n| added | retired | renamed | moved to another country | other columns changed |\n|---:|---:|---:|---:|---:|\n"
        s += "| \(ci.added.count) | \(ci.retired.count) | \(ci.renamed.count) | \(ci.moved.count) | \(ci.updated.count) |\n\n"
        var cityLines: [String] = ci.countries.map { code, diffs in
            "- countries table, \(code): " + diffs.map { "\($0.0) \($0.1 ?? "—") → \($0.2 ?? "—")" }.joined(separator: "; ")
        }
        cityLines += ci.renamed.map { "- renamed (id \($0.0.id)): \($0.0.name) → \($0.1)" }
        cityLines += ci.moved.map { "- moved to another country (id \($0.0.id), \($0.0.name)): \($0.0.country) → \($0.1)" }
        cityLines += ci.added.map { "- added: \($0.name) (\($0.country), id \($0.id))" }
        cityLines += ci.retired.map { "- retired: \($0.name) (\($0.country), id \($0.id))" }
        for l in cityLines.prefix(listLimit) { s += l + "\n" }
        if cityLines.count > listLimit { s += "- … \(cityLines.count - listLimit) more in changes.json\n" }
        if !cityLines.isEmpty { s += "\n" }

        let l = c.lookup
        s += "## Lookup\n\n\(l.countryDiffers) of \(formatCount(l.points)) probe points (an even worldwide lattice) answer another country, \(l.cityDiffers) another nearest city.\n\n"
        if !l.pairs.isEmpty {
            s += "| old → new | points |\n|---|---:|\n"
            for p in l.pairs.prefix(10) { s += "| \(p.0) | \(p.1) |\n" }
            if l.pairs.count > 10 { s += "| … \(l.pairs.count - 10) more kinds | \(l.pairs.dropFirst(10).reduce(0) { $0 + $1.1 }) |\n" }
            s += "\nExamples: " + l.examples.prefix(5).map { String(format: "(%.4f, %.4f) ", $0.lat, $0.lon) + "\($0.old ?? "sea") → \($0.new ?? "sea")" }.joined(separator: "; ") + "\n\n"
        }

        let f = c.files
        s += "## Files\n\n| file | previous bytes | bytes | change |\n|---|---:|---:|---:|\n"
        for d in f.sizes {
            var delta = "—"
            if let o = d.old, let n = d.new { delta = (n >= o ? "+" : "") + formatCount(n - o) + (o > 0 ? String(format: " (%+.2f %%)", Double(n - o) / Double(o) * 100) : "") }
            s += "| \(d.path) | \(bytes(d.old)) | \(bytes(d.new)) | \(delta) |\n"
        }
        s += "\n\(f.changed.count) product files changed, \(f.added.count) added, \(f.removed.count) removed"
        let names = f.changed + f.added.map { $0 + " (new)" } + f.removed.map { $0 + " (removed)" }
        s += names.isEmpty ? ".\n" : ": " + names.prefix(listLimit).map { "`\($0)`" }.joined(separator: ", ") + (names.count > listLimit ? ", …" : "") + ".\n"
        return s
    }
}

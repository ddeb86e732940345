// schema.sql, seed.sql and the human report of the challenge stage.

import CalendarDay
import Foundation
import GeoModel
import GeoPROJ
import GeoFormats
import SeededRandom

extension DailyChallenges {
    public static let table = "public.daily_challenges"

    /// A UUID derived from the date alone (RFC 9562 version 8, "custom"), so a row keeps its id
    /// whatever else changes and every run writes the same ids.
    public static func rowID(for day: Day) -> String {
        let key = SplitMix64.hash("daily_challenges/" + day.iso)
        var hi = SplitMix64.mix(key ^ 0x5EED_0000_0000_0001)
        var lo = SplitMix64.mix(key ^ 0x5EED_0000_0000_0002)
        hi = (hi & ~0x0000_0000_0000_F000) | 0x0000_0000_0000_8000          // version 8
        lo = (lo & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000          // variant 10
        func hex(_ v: UInt64, _ digits: Int) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: digits - s.count) + s
        }
        let h = hex(hi, 16), l = hex(lo, 16)
        return "\(h.prefix(8))-\(h.dropFirst(8).prefix(4))-\(h.suffix(4))-\(l.prefix(4))-\(l.suffix(12))"
    }

    /// The migration's file name in the Supabase CLI layout (`supabase/migrations/<version>_<name>.sql`):
    /// its file's in `Migrations/` (compiled in by the EmbedFiles plugin, Package.swift). A fixed
    /// version, not the clock, so every run writes the same file.
    public static let migrationName = EmbeddedFiles.migration("daily_challenges_one_row_per_date").name

    /// The table of CONTRACTS §6, plus one row per date and exactly one type per row. Safe to
    /// run again, and on the live table created by hand before (it adds what is missing). On a
    /// table whose rows break a constraint it is about to add (two rows on one date, a row with
    /// no or two types) it stops with an exception listing the dates, before altering anything.
    /// Its text names the table `table` (public.daily_challenges) throughout.
    public static func schemaSQL() -> String {
        EmbeddedFiles.migration("daily_challenges_one_row_per_date").text
    }

    /// The seed. By default one `insert … on conflict (date) do nothing` of the added days: no
    /// existing row changes. With `--replan-future` every planned day is written and a row is
    /// updated only when its question differs and its date is on or after `start`. Either way
    /// the insert takes only rows dated on or after `start`, so the SQL itself keeps the past
    /// unchanged, and loading it twice leaves the same rows (ids, answers and timestamps).
    public static func seedSQL(_ schedule: Schedule, countries: [ChallengeCountry]) throws -> String {
        let names = Dictionary(uniqueKeysWithValues: countries.map { ($0.id, $0.name) })
        let r = schedule.rules
        let rows = schedule.planned
        let c = schedule.changeCounts
        var out: [String] = []
        out.append(SQL.comment("daily_challenges seed, written by geo-challenges; load after the migration."))
        out.append(SQL.comment("\(schedule.days.count) days from \(r.start) (seed \(r.seed), repeat window \(schedule.window) days, min silhouette area \(Int(r.minSilhouetteAreaKm2)) km², small below \(Int(r.smallAreaKm2)) km²)."))
        out.append(SQL.comment("\(c.added) days added, \(c.replanned) days replanned, \(c.kept) existing days kept; no row dated before \(r.start) is touched."))
        out.append(SQL.comment(schedule.replanFuture
            ? "Replan: a row from \(r.start) on is updated only where its question differs; loading twice changes nothing."
            : "Fill: only dates without a row get one (on conflict do nothing); no existing row changes."))
        // One statement, atomic by itself (no begin/commit: the Supabase CLI runs the seed itself).
        guard !rows.isEmpty else { return out.joined(separator: "\n") + "\n" }
        out.append("")
        out.append("insert into \(table) (id, date, is_guess_country, is_guess_capital, is_guess_flag, answer)")
        out.append("select id, date, is_guess_country, is_guess_capital, is_guess_flag, answer from (values")
        for (i, d) in rows.enumerated() {
            let flags = ChallengeType.allCases.map { SQL.bool($0 == d.type) }.joined(separator: ", ")
            let row = "  ('\(rowID(for: d.day))'::uuid, \(SQL.date(d.day)), \(flags), \(try SQL.literal(d.answer)))"
            let sep = i == rows.count - 1 ? "" : ","
            out.append(row + sep + "  " + SQL.comment("\(d.type.label): \(names[d.answer] ?? d.answer)"))
        }
        out.append(") as v (id, date, is_guess_country, is_guess_capital, is_guess_flag, answer)")
        out.append("where v.date >= \(SQL.date(r.start))  " + SQL.comment("never a day before --from"))
        if schedule.replanFuture {
            out.append("on conflict (date) do update set")
            out.append("  is_guess_country = excluded.is_guess_country,")
            out.append("  is_guess_capital = excluded.is_guess_capital,")
            out.append("  is_guess_flag = excluded.is_guess_flag,")
            out.append("  answer = excluded.answer,")
            out.append("  updated_at = now()")
            out.append("where \(table).date >= \(SQL.date(r.start))")
            out.append("  and (\(table).is_guess_country, \(table).is_guess_capital, \(table).is_guess_flag, \(table).answer)")
            out.append("      is distinct from (excluded.is_guess_country, excluded.is_guess_capital, excluded.is_guess_flag, excluded.answer);")
        } else {
            out.append("on conflict (date) do nothing;")
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// A short report for people: type counts, repeat gaps, continents, relaxed rules.
    public static func report(_ schedule: Schedule, countries: [ChallengeCountry]) -> String {
        let byID = Dictionary(uniqueKeysWithValues: countries.map { ($0.id, $0) })
        let r = schedule.rules
        var lines: [String] = []
        let end = schedule.days.last?.day ?? r.start
        lines.append("daily challenges: \(schedule.days.count) days, \(r.start) … \(end), seed \(r.seed)")
        let c = schedule.changeCounts
        lines.append("changes: \(c.added) days added, \(c.replanned) days replanned, \(c.kept) existing days kept, \(c.pastTouched) past rows touched (before \(r.start))"
                     + (schedule.context.isEmpty ? "" : "; \(schedule.context.count) existing rows outside the range count for the rules"))
        lines.append("")
        lines.append("pools: " + ChallengeType.allCases.map { "\($0.label) \(schedule.eligible[$0]!.count)" }.joined(separator: ", ")
                     + "; small countries \(schedule.small.count) (points and < \(Int(r.smallAreaKm2)) km²)")
        lines.append("types: " + ChallengeType.allCases.map { "\($0.label) \(schedule.count(of: $0))" }.joined(separator: ", ")
                     + "; longest run of one type: \(schedule.longestTypeRun) day(s)")
        let gaps = schedule.repeatGaps.sorted()
        if gaps.isEmpty {
            lines.append("repeats: none (no answer is used twice)")
        } else {
            let median = gaps[gaps.count / 2]
            lines.append("repeats: \(gaps.count); gap between uses of one answer: min \(gaps.first!), median \(median), max \(gaps.last!) days (window \(schedule.window)\(schedule.window < r.window ? ", capped from \(r.window) by the pool" : ""))")
        }
        var useCount: [String: Int] = [:]
        for d in schedule.days { useCount[d.answer, default: 0] += 1 }
        var histogram: [Int: Int] = [:]
        for c in countries { histogram[useCount[c.id, default: 0], default: 0] += 1 }
        lines.append("answers: " + histogram.keys.sorted().map { "\(histogram[$0]!) countries used \($0)×" }.joined(separator: ", "))
        var smallRun = 0
        for (i, d) in schedule.days.enumerated() where i > 0 && schedule.small.contains(d.answer) && schedule.small.contains(schedule.days[i - 1].answer) { smallRun += 1 }
        lines.append("small after small: \(smallRun)")
        let relaxed = schedule.days.filter { !$0.relaxed.isEmpty }
        lines.append("days where a rule gave way: \(relaxed.count)" + (relaxed.isEmpty ? "" : " (" + relaxed.prefix(10).map { "\($0.day) \($0.relaxed.joined(separator: "+"))" }.joined(separator: ", ") + (relaxed.count > 10 ? ", …" : "") + ")"))
        lines.append("")
        lines.append("per continent (silhouette / capital / flag = total):")
        var perContinent: [String: [Int]] = [:]
        for d in schedule.days {
            let c = byID[d.answer]?.continent ?? "?"
            perContinent[c, default: [0, 0, 0]][d.type.rawValue] += 1
        }
        for c in perContinent.keys.sorted() {
            let v = perContinent[c]!
            lines.append("  \(c.padding(toLength: 14, withPad: " ", startingAt: 0)) \(v[0]) / \(v[1]) / \(v[2]) = \(v.reduce(0, +))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

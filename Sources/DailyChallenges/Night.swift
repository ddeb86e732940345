// What `geo-nightly` needs of the quiz: the live table's rows read with the same reader as the
// CSV export, and the days from today through today + ahead planned by the same schedule as
// `make challenges` (existing rows kept, whatever their date; only days without a row added).

import CalendarDay
import GeoModel

extension DailyChallenges {
    /// The query whose `copy … to stdout csv header` output `readExisting(csv:)` reads.
    public static let existingQuery = "select date, is_guess_country, is_guess_capital, is_guess_flag, answer from \(table) order by date"

    /// The days to add so that every day of `today … today + ahead` has exactly one row: the
    /// schedule from `today` continued from `existing` without changing any existing row,
    /// checked by the stage's own rule check. Uses `rules`' seed, window and areas.
    public static func daysToAdd(countries: [ChallengeCountry], existing: [ExistingDay], today: Day, ahead: Int,
                                 rules: ScheduleRules = ScheduleRules()) throws -> (schedule: Schedule, added: [ScheduledDay]) {
        var r = rules
        r.start = today
        r.days = ahead + 1
        let schedule = try Self.schedule(countries, rules: r, existing: existing, replanFuture: false)
        try checkRules(schedule, countries: countries)
        let c = schedule.changeCounts
        guard c.pastTouched == 0, c.replanned == 0 else {
            let changed = schedule.days.filter { if case .replanned = $0.change { return true }; return $0.day < today && $0.change != .kept }
            throw StageError("the plan for \(table) would change \(c.pastTouched + c.replanned) existing rows (\(changed.prefix(5).map(\.day.iso).joined(separator: ", "))\(changed.count > 5 ? ", …" : "")); it may only add days")
        }
        return (schedule, schedule.days.filter { $0.change == .added })
    }
}

import GeoModel

/// The daily quiz (CONTRACTS §6), what `geo-challenges` and the night share: the schedule
/// (Schedule.swift), its SQL and human report (Output.swift), the live table's reader
/// (Existing.swift) and the days a night adds (Night.swift).
public enum DailyChallenges {
    /// The independent re-check of the finished schedule (with the existing rows around it).
    /// Only the rules that may give way by design (recorded per day as relaxed) are allowed to
    /// break; anything else is a bug and fails the stage before a file is written.
    public static func checkRules(_ schedule: Schedule, countries: [ChallengeCountry]) throws {
        let violations = schedule.violations(countries: countries)
        let unexpected = violations.filter { v in !schedule.days.contains { !$0.relaxed.isEmpty && v.hasPrefix($0.day.iso) } }
        if !unexpected.isEmpty {
            throw StageError("the schedule breaks its rules:\n  " + unexpected.prefix(20).joined(separator: "\n  "))
        }
    }
}

import CalendarDay
import DailyChallenges
import GeoModel

extension ChallengesStage {
    /// The schedule from `start`, its report (logged line by line), its rules checked; a plan
    /// that would touch a day before `start` is an error.
    static func plan(_ o: Options, _ countries: [ChallengeCountry], existing: [ExistingDay], start: Day, log: StageLog) throws -> (schedule: Schedule, report: String) {
        let schedule = try log.step("schedule \(o.days) days from \(start)") {
            try DailyChallenges.schedule(countries, rules: o.rules(start: start), existing: existing, replanFuture: o.replanFuture)
        }
        let text = DailyChallenges.report(schedule, countries: countries)
        for line in text.split(separator: "\n") { log.info(String(line)) }
        try DailyChallenges.checkRules(schedule, countries: countries)
        let past = schedule.changeCounts.pastTouched
        guard past == 0 else { throw StageError("the plan would touch \(past) rows before \(start)") }
        return (schedule, text)
    }
}

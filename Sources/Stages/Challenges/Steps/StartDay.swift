import CalendarDay
import DailyChallenges
import GeoModel
import StageContract

extension ChallengesStage {
    /// The first day planned: --from, else the day after the last existing one, else tomorrow;
    /// never today or earlier with --replan-future.
    static func startDay(_ o: Options, existing: [ExistingDay], today clock: Day) throws -> Day {
        let today = o.today ?? clock
        let start: Day
        if let from = o.from {
            start = from
        } else if let last = existing.last?.day {
            start = last.adding(days: 1)
        } else {
            start = today.adding(days: 1)
        }
        // Today's question is live and earlier ones were answered: re-planning may only begin
        // tomorrow. (Without --replan-future no existing row changes, whatever --from says.)
        if o.replanFuture, start <= today {
            throw OptionsError("--from \(start) is not after today (\(today), UTC): --replan-future would rewrite days players may already have answered; give a --from after today")
        }
        return start
    }
}

import CalendarDay
import DailyChallenges
import GeoModel
import GeoPostgres
import NightDatabase

/// The quiz (CONTRACTS §6): every day from today through today + ahead gets exactly one row of
/// daily_challenges; no existing row changes, whatever its date.
struct QuizNight: AppNight {
    var world: String
    var ahead: Int
    var today: Day
    var inputs: [String] { [world] }

    /// What the quiz's migration makes (the catalogs, no table lock): the table with its three
    /// constraints, which the night's `on conflict (date)` and the contract rely on, and its
    /// row-level security with the read policy (clients read, only the owner writes).
    static let migrationPresent = """
        select (select count(*) from pg_constraint where conrelid = to_regclass('\(DailyChallenges.table)')
                  and conname in ('daily_challenges_date_key', 'daily_challenges_one_type', 'daily_challenges_answer_iso')) = 3
           and \(Migrations.readPoliciesPresent(["\(DailyChallenges.table)": "daily_challenges_read"]))
        """

    func apply(_ db: PostgresConnection, dryRun: Bool, log: StageLog) throws -> String {
        let table = DailyChallenges.table
        let features = try log.step("quiz: read \(world)") { try GeoJSON.read(path: world) }
        // The night plans with the default rules: areas exact only near their thresholds, as geo-challenges.
        let countries = try DailyChallenges.countries(from: features, file: world, exactNear: ScheduleRules().areaThresholdsKm2)
        // The live rows first, with the CSV export's reader: two rows on one date, a row without
        // exactly one type or with an answer outside the country set is refused, rows named.
        var existing: [ExistingDay] = []
        if try db.query("select to_regclass($1) is not null", [table]).scalar == "t" {
            let text = try db.csvLines(DailyChallenges.existingQuery).joined(separator: "\n")
            do {
                existing = try DailyChallenges.readExisting(csv: text, source: "\(table) in \(db.target)", countries: Set(countries.map(\.id)))
            } catch { throw ContractError(message: "\(error)") }
        }
        try Migrations.apply(db, app: "quiz", name: DailyChallenges.migrationName, sql: DailyChallenges.schemaSQL(),
                             present: Self.migrationPresent, log: log)
        let (schedule, added) = try log.step("quiz: plan \(today) … \(today.adding(days: ahead))") {
            try DailyChallenges.daysToAdd(countries: countries, existing: existing, today: today, ahead: ahead)
        }
        try db.execute("""
            create temporary table night_days (id uuid, date date primary key, is_guess_country boolean,
              is_guess_capital boolean, is_guess_flag boolean, answer text) on commit drop
            """, name: "night_days")
        try db.copyIn("copy night_days from stdin") { w in
            for d in added {
                try w.row(fields: [DailyChallenges.rowID(for: d.day), d.day.iso] + ChallengeType.allCases.map { $0 == d.type ? "t" : "f" } + [d.answer])
            }
        }
        let inserted = try db.query("""
            insert into \(table) (id, date, is_guess_country, is_guess_capital, is_guess_flag, answer)
            select id, date, is_guess_country, is_guess_capital, is_guess_flag, answer from night_days order by date
            on conflict (date) do nothing
            """).affected
        guard inserted == added.count else {
            throw StageError("quiz: \(added.count) days planned but \(inserted) inserted (another writer added days meanwhile); rolled back")
        }
        let total = try db.query("select count(*) from \(table)").scalar ?? "?"
        let kept = schedule.days.count - added.count
        return "daily_challenges \(today) … \(today.adding(days: ahead)): \(added.count) days \(dryRun ? "would be " : "")added, \(kept) kept; \(total) rows"
    }
}

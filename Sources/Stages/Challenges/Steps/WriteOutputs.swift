import DailyChallenges
import GeoModel

extension ChallengesStage {
    /// The report (with `report`), the migration and the seed; returns the seed's size in bytes.
    static func writeOutputs(_ o: Options, _ schedule: Schedule, _ countries: [ChallengeCountry], report text: String,
                             migrationPath: String, seedPath: String, log: StageLog) throws -> Int {
        let seedText = try DailyChallenges.seedSQL(schedule, countries: countries)
        if let path = o.report { try FileIO.writeAtomically(text, to: path) }
        try log.step("write \(migrationPath)") { try FileIO.writeAtomically(DailyChallenges.schemaSQL(), to: migrationPath) }
        try log.step("write \(seedPath)") { try FileIO.writeAtomically(seedText, to: seedPath) }
        return seedText.utf8.count
    }
}

// The schedule already in the live table, as psql exports it:
//   \copy (select date, is_guess_country, is_guess_capital, is_guess_flag, answer
//          from daily_challenges order by date) to FILE csv header

import CalendarDay
import Foundation
import GeoModel

extension DailyChallenges {
    public static let existingHeader = ["date", "is_guess_country", "is_guess_capital", "is_guess_flag", "answer"]

    /// Reads the export. Every row needs a date, exactly one true type (an empty boolean is the
    /// column's default, false) and an answer that is a country of the set; a date may appear
    /// only once. Errors name the file and the line.
    public static func readExisting(path: String, countries: Set<String>) throws -> [ExistingDay] {
        try readExisting(csv: try FileIO.readText(path), source: path, countries: countries)
    }

    /// The same rows from text in that format (`geo-nightly` reads the live table with
    /// `copy (…) to stdout csv header`); `source` names where it came from in errors.
    public static func readExisting(csv text: String, source path: String, countries: Set<String>) throws -> [ExistingDay] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        if lines.last == "" { lines.removeLast() }
        guard let head = lines.first else { throw InputError(file: path, "is empty; expected the header \(existingHeader.joined(separator: ","))") }
        let header = try CSV.fields(head, file: path, line: 1)
        guard header == existingHeader else {
            throw InputError(file: path, "line 1: the header is \"\(head)\"; expected \(existingHeader.joined(separator: ",")) (psql \\copy … csv header)")
        }
        var out: [ExistingDay] = []
        var seen: [Day: Int] = [:]
        var duplicates: [Day] = []
        for (i, line) in lines.enumerated().dropFirst() {
            let n = i + 1
            let f = try CSV.fields(line, file: path, line: n)
            guard f.count == 5 else { throw InputError(file: path, "line \(n): \(f.count) fields; expected 5 (\(existingHeader.joined(separator: ",")))") }
            guard let day = Day(iso: f[0]) else { throw InputError(file: path, "line \(n): date \"\(f[0])\" is not YYYY-MM-DD") }
            var types: [ChallengeType] = []
            for t in ChallengeType.allCases {
                switch f[1 + t.rawValue] {
                case "t", "true": types.append(t)
                case "f", "false", "": break
                default: throw InputError(file: path, "line \(n): \(t.column) is \"\(f[1 + t.rawValue])\"; expected t or f")
                }
            }
            guard types.count == 1 else {
                throw InputError(file: path, "line \(n) (\(day)): \(types.count) question types are true; exactly one must be")
            }
            let answer = f[4]
            guard countries.contains(answer) else {
                throw InputError(file: path, "line \(n) (\(day)): answer \"\(answer)\" is not a country of the country set")
            }
            if seen[day] != nil { duplicates.append(day) } else { seen[day] = n }
            out.append(ExistingDay(day: day, type: types[0], answer: answer))
        }
        if !duplicates.isEmpty {
            let list = Array(Set(duplicates)).sorted().map(\.iso)
            throw InputError(file: path, "\(list.count == 1 ? "a date has" : "\(list.count) dates have") more than one row: \(list.prefix(20).joined(separator: ", "))\(list.count > 20 ? ", …" : "") (the live table needs one row per date before the migration can add its unique constraint)")
        }
        return out.sorted { $0.day < $1.day }
    }
}

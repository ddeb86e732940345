import CalendarDay
import Foundation
import Testing
@testable import GeoModel
@testable import GeoFormats
@testable import ChallengesStage
@testable import DailyChallenges
import GeoPROJ

/// The daily-challenge schedule and its SQL, on a synthetic but realistic country set.
@Suite struct ChallengeTests {
    /// 120 polygon countries of varied size (some small), 20 point countries, 2 without capital.
    static let countries: [ChallengeCountry] = {
        var out: [ChallengeCountry] = []
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let continents = ["Africa", "Asia", "Europe", "North America", "Oceania", "South America"]
        for i in 0..<142 {
            let id = String(letters[i / 26]) + String(letters[i % 26])
            let point = i >= 120 && i < 140
            let area = point ? 0 : Double((i * 7919) % 500) * 1_000 + 500
            out.append(ChallengeCountry(id: id, name: "Country \(id)", continent: continents[i % continents.count],
                                        capital: i >= 140 ? nil : "Capital \(id)", isPoint: point, areaKm2: area))
        }
        return out
    }()

    func rules(days: Int = 365, seed: UInt64 = 7) -> ScheduleRules {
        var r = ScheduleRules()
        r.days = days; r.seed = seed; r.start = Day(iso: "2026-01-01")!
        return r
    }

    @Test func sameSeedGivesIdenticalBytes() throws {
        let a = try DailyChallenges.seedSQL(try DailyChallenges.schedule(Self.countries, rules: rules()), countries: Self.countries)
        let b = try DailyChallenges.seedSQL(try DailyChallenges.schedule(Self.countries, rules: rules()), countries: Self.countries)
        #expect(Array(a.utf8) == Array(b.utf8))
        let c = try DailyChallenges.seedSQL(try DailyChallenges.schedule(Self.countries, rules: rules(seed: 8)), countries: Self.countries)
        #expect(a != c)
    }

    @Test func extendingKeepsEveryEarlierRow() throws {
        let short = try DailyChallenges.schedule(Self.countries, rules: rules(days: 200))
        let long = try DailyChallenges.schedule(Self.countries, rules: rules(days: 730))
        #expect(short.days.count == 200 && long.days.count == 730)
        #expect(Array(long.days.prefix(200)) == short.days)
        // Row by row, the SQL of the earlier days is unchanged too.
        let shortRows = try DailyChallenges.seedSQL(short, countries: Self.countries).split(separator: "\n").filter { $0.hasPrefix("  ('") }
        let longRows = try DailyChallenges.seedSQL(long, countries: Self.countries).split(separator: "\n").filter { $0.hasPrefix("  ('") }
        #expect(shortRows.dropLast().elementsEqual(longRows.prefix(199)))
    }

    @Test func rulesHoldAndWindowIsRespected() throws {
        for seed in [1, 2, 3, 20260101] as [UInt64] {
            let s = try DailyChallenges.schedule(Self.countries, rules: rules(days: 730, seed: seed))
            #expect(s.window == 60)
            #expect(s.violations(countries: Self.countries).isEmpty)
            #expect(s.days.allSatisfy { $0.relaxed.isEmpty })
            #expect((s.repeatGaps.min() ?? 0) >= 60)
            let points = Set(Self.countries.filter(\.isPoint).map(\.id))
            #expect(!s.days.contains { $0.type == .country && points.contains($0.answer) })
            #expect(!s.days.contains { $0.type == .capital && ($0.answer == "FK" || $0.answer == "FL") })
            // Consecutive dates.
            #expect(zip(s.days, s.days.dropFirst()).allSatisfy { $1.day.ordinal == $0.day.ordinal + 1 })
        }
    }

    @Test func everyEligibleCountryBeforeAnyTwice() throws {
        let s = try DailyChallenges.schedule(Self.countries, rules: rules(days: 365))
        // The flag pool is every country: the first 142 answers of all types together cover…
        var seen: Set<String> = []
        for d in s.days {
            if seen.contains(d.answer) {
                // …and a country comes back only once its pool for that type is exhausted.
                let pool = s.eligible[d.type]!
                #expect(pool.allSatisfy { seen.contains($0) }, "\(d.day): \(d.answer) repeats before its \(d.type.label) pool is used")
            }
            seen.insert(d.answer)
        }
    }

    @Test func typesAreBalancedAndSpread() throws {
        let s = try DailyChallenges.schedule(Self.countries, rules: rules(days: 365))
        let counts = ChallengeType.allCases.map { s.count(of: $0) }
        #expect(counts.max()! - counts.min()! <= 1)
        #expect(s.longestTypeRun == 1)
        // Every block of three days asks each type once.
        for b in 0..<(365 / 3) {
            #expect(Set(s.days[(3 * b)..<(3 * b + 3)].map(\.type)).count == 3)
        }
    }

    @Test func smallCountriesNeverFollowEachOther() throws {
        let s = try DailyChallenges.schedule(Self.countries, rules: rules(days: 730))
        let pairs = zip(s.days, s.days.dropFirst()).filter { s.small.contains($0.answer) && s.small.contains($1.answer) }
        #expect(pairs.isEmpty)
        #expect(s.small.count > 20)   // the test would be empty without small countries
    }

    @Test func windowIsCappedByThePool() throws {
        var r = rules(days: 400)
        r.window = 1000
        r.minSilhouetteAreaKm2 = 300_000
        let s = try DailyChallenges.schedule(Self.countries, rules: r)
        #expect(s.window == s.eligible[.country]!.count)
        #expect(s.window < 1000)
        #expect(s.violations(countries: Self.countries).isEmpty)
    }

    @Test func idsComeFromTheDateAndAreUUIDs() {
        let a = DailyChallenges.rowID(for: Day(iso: "2026-03-01")!)
        #expect(a == DailyChallenges.rowID(for: Day(iso: "2026-03-01")!))
        #expect(a != DailyChallenges.rowID(for: Day(iso: "2026-03-02")!))
        #expect(a.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", options: .regularExpression) != nil)
    }

    @Test func calendarDays() {
        #expect(Day(iso: "2024-02-29")!.adding(days: 1).iso == "2024-03-01")
        #expect(Day(iso: "2026-12-31")!.adding(days: 1).iso == "2027-01-01")
        #expect(Day(iso: "1970-01-01")!.ordinal == 0)
        #expect(Day(iso: "2025-02-29") == nil && Day(iso: "2025-1-01") == nil && Day(iso: "x") == nil)
    }

    // MARK: SQL that cannot be broken

    /// Reads one PostgreSQL string literal at the start of `s` (standard_conforming_strings on,
    /// as PostgreSQL reads it) and returns its value and the text after it.
    func readLiteral(_ s: Substring) -> (String, Substring)? {
        var rest = s
        var escape = false
        if rest.hasPrefix("E'") { escape = true; rest = rest.dropFirst(2) } else if rest.hasPrefix("'") { rest = rest.dropFirst() } else { return nil }
        var value = ""
        while let c = rest.first {
            rest = rest.dropFirst()
            if c == "'" {
                if rest.first == "'" { value.append("'"); rest = rest.dropFirst(); continue }
                return (value, rest)
            }
            if escape && c == "\\" { guard let n = rest.first else { return nil }; value.append(n); rest = rest.dropFirst(); continue }
            value.append(c)
        }
        return nil
    }

    @Test(arguments: ["Côte d'Ivoire", "x'); drop table public.daily_challenges; --", "back\\slash'; select 1; --", "''", "\\'", "plain"])
    func maliciousTextStaysOneLiteral(_ name: String) throws {
        let lit = try SQL.literal(name)
        let parsed = try #require(readLiteral(Substring(lit + ", next")))
        #expect(parsed.0 == name)
        #expect(parsed.1 == ", next")
        #expect(throws: StageError.self) { try SQL.literal("nul\u{0}byte") }
    }

    @Test func maliciousNameCannotLeaveItsComment() throws {
        var countries = Self.countries
        countries[0].name = "Côte d'Ivoire'); drop table public.daily_challenges; --\\\ndrop table x; select ('\r\u{2028}"
        let s = try DailyChallenges.schedule(countries, rules: rules(days: 365))
        let sql = try DailyChallenges.seedSQL(s, countries: countries)
        let lines = sql.split(separator: "\n", omittingEmptySubsequences: false)
        // Every line is a comment, a statement keyword line, or a row whose only text after
        // the values is a comment; no line starts with the injected statement.
        #expect(!lines.contains { $0.hasPrefix("drop") })
        #expect(!sql.contains("\r") && !sql.contains("\u{2028}"))
        let rows = lines.filter { $0.hasPrefix("  ('") }
        #expect(rows.count == 365)
        for r in rows {
            let c = try #require(r.range(of: "  -- "))
            let values = r[..<c.lowerBound]
            #expect(values.hasSuffix(")") || values.hasSuffix("),"))
            #expect(!values.contains(";"))
        }
        #expect(lines.filter { $0.contains("drop table") }.allSatisfy { $0.contains("-- ") })
    }

    @Test func schemaHasTheConstraints() {
        let s = DailyChallenges.schemaSQL()
        #expect(s.contains("unique (date)"))
        #expect(s.contains("coalesce(is_guess_country, false)::int"))
        #expect(s.contains("gen_random_uuid()"))
    }
}

/// A country's area is estimated unless a threshold is too close to call: every comparison
/// with a threshold comes out as with the geodesic area, wherever the threshold lies.
@Suite struct ChallengeAreaTests {
    @Test func estimatedAreasCompareAsGeodesicAreas() throws {
        let features = try GeoJSON.read(path: "data/natural-earth/ne_50m_admin_0_map_units.geojson")
        var wrong: [String] = [], estimated = 0
        for f in features {
            let exact = Geodesic.wgs84.area(f.geometry) / 1e6
            guard exact > 0 else { continue }
            for d in [0, 1e-6, -1e-6, 1e-4, -1e-4, 5e-4, -5e-4, 1.5e-3, -1.5e-3, 1e-2, -1e-2, 0.5, -0.5] {
                let t = exact * (1 + d)
                let a = DailyChallenges.areaKm2(f.geometry, exactNear: [t, 1e9])
                if a != exact { estimated += 1 }
                if (a >= t) != (exact >= t) || (a < t) != (exact < t) { wrong.append("\(f.string("NAME") ?? "?") at \(d)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(estimated > 1_000)
    }
}

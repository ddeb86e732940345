// The daily-challenge schedule: which question type and which country on each day.
//
// Day k depends only on the seed and on days 0..<k: the type of day k comes from a seeded
// permutation of its block of three days, and the answer is chosen by rules that look only at
// earlier days, with random draws from a generator derived from (seed, k). So scheduling more
// days never changes an earlier row.
import GeoModel
import GeoPROJ
import GeoFormats


/// The three question kinds of CONTRACTS §6, in the order of the table's columns.
public enum ChallengeType: Int, CaseIterable, Sendable, Comparable {
    case country = 0   // is_guess_country: silhouette → country name
    case capital = 1   // is_guess_capital: name + flag → capital
    case flag = 2      // is_guess_flag: flag → country name

    public var column: String {
        switch self {
        case .country: return "is_guess_country"
        case .capital: return "is_guess_capital"
        case .flag: return "is_guess_flag"
        }
    }

    public var label: String {
        switch self {
        case .country: return "silhouette"
        case .capital: return "capital"
        case .flag: return "flag"
        }
    }

    public static func < (a: ChallengeType, b: ChallengeType) -> Bool { a.rawValue < b.rawValue }
}

/// What the schedule needs to know about one country of world.geojson.
public struct ChallengeCountry: Sendable, Equatable {
    public var id: String
    public var name: String
    public var continent: String
    public var capital: String?
    public var isPoint: Bool
    /// Geodesic area in km² (0 for point countries).
    public var areaKm2: Double

    public init(id: String, name: String, continent: String, capital: String?, isPoint: Bool, areaKm2: Double) {
        self.id = id; self.name = name; self.continent = continent; self.capital = capital
        self.isPoint = isPoint; self.areaKm2 = areaKm2
    }
}

public struct ScheduleRules: Sendable, Equatable {
    public var seed: UInt64 = 20_260_101
    public var start: Day = Day(year: 2026, month: 1, day: 1)!
    public var days: Int = 365
    /// Requested minimum number of days between two uses of one answer.
    public var window: Int = 60
    /// A silhouette question needs a polygon country of at least this area (km²).
    public var minSilhouetteAreaKm2: Double = 10_000
    /// Countries under this area (km²), and all point countries, are "small": two small
    /// countries never follow each other.
    public var smallAreaKm2: Double = 20_000

    public init() {}
}

public struct ScheduledDay: Sendable, Equatable {
    public var index: Int
    public var day: Day
    public var type: ChallengeType
    public var answer: String
    /// Rules that had to give way on this day (empty when every rule held).
    public var relaxed: [String]
}

public struct Schedule: Sendable {
    public var rules: ScheduleRules
    /// The window actually enforced: the requested one, capped by what the pool allows.
    public var window: Int
    public var eligible: [ChallengeType: [String]]
    public var small: Set<String>
    public var days: [ScheduledDay]
}

public enum ChallengesStage {
    /// The countries of world.geojson, checked for what the schedule relies on.
    public static func countries(from features: [Feature], file: String) throws -> [ChallengeCountry] {
        try CountryFile.check(features, file: file)
        var out: [ChallengeCountry] = []
        for (i, f) in features.enumerated() {
            let id = f.id!, name = f.string("name")!
            let ref = FeatureRef(index: i, name: name, id: id)
            guard let continent = f.string("continent"), !continent.isEmpty else { throw InputError(file: file, feature: ref, "has no continent") }
            let capital = f.string("capital").flatMap { $0.isEmpty ? nil : $0 }
            let isPoint = f.string("renderAs") == "point"  // CountryFile.check: exactly the Point geometries
            let area = isPoint ? 0 : Geodesic.wgs84.area(f.geometry) / 1e6
            out.append(ChallengeCountry(id: id, name: name, continent: continent, capital: capital, isPoint: isPoint, areaKm2: area))
        }
        return out.sorted { $0.id < $1.id }
    }

    /// Which countries each question type may ask about.
    public static func eligibility(_ countries: [ChallengeCountry], rules: ScheduleRules) -> [ChallengeType: [String]] {
        let sorted = countries.sorted { $0.id < $1.id }
        return [
            .country: sorted.filter { !$0.isPoint && $0.areaKm2 >= rules.minSilhouetteAreaKm2 }.map(\.id),
            .capital: sorted.filter { $0.capital != nil }.map(\.id),
            .flag: sorted.map(\.id),
        ]
    }

    /// The six orders of the three types; a block of three days takes one of them.
    static let permutations: [[ChallengeType]] = [
        [.country, .capital, .flag], [.country, .flag, .capital], [.capital, .country, .flag],
        [.capital, .flag, .country], [.flag, .country, .capital], [.flag, .capital, .country],
    ]

    /// The types of days 0..<days: every block of three days asks each type once, in a seeded
    /// order that does not start with the type the previous block ended with, so two
    /// consecutive days never ask the same type. Day k depends on (seed, k) only; each block's
    /// order depends on the previous block's last type, so they are computed in one pass.
    public static func types(days: Int, seed: UInt64) -> [ChallengeType] {
        var out: [ChallengeType] = []
        out.reserveCapacity(days + 2)
        var previousLast: ChallengeType?
        var b = 0
        while out.count < days {
            var rng = SplitMix64(seed: seed, purpose: SplitMix64.hash("types"), index: UInt64(b))
            let allowed = previousLast.map { last in permutations.filter { $0[0] != last } } ?? permutations
            let order = allowed[rng.below(allowed.count)]
            out += order
            previousLast = order[2]
            b += 1
        }
        return Array(out.prefix(days))
    }

    /// The largest window the pools allow: every answer within a window is distinct, and each
    /// type's pool is spent round by round, so the window is capped by the smallest pool and by
    /// 4/5 of all countries (the margin the small-country rule needs; measured: no rule gives
    /// way over 1,000 days for 30 seeds, windows up to the cap and silhouette pools of 40 to
    /// 169 countries). Depends on the pools only, never on the number of days.
    public static func feasibleWindow(requested: Int, eligible: [ChallengeType: [String]]) -> Int {
        let all = Set(eligible.values.flatMap { $0 }).count
        let smallest = eligible.values.map(\.count).min() ?? 0
        return max(1, min(requested, all * 4 / 5, smallest))
    }

    public static func schedule(_ countries: [ChallengeCountry], rules: ScheduleRules) throws -> Schedule {
        guard rules.days >= 0 else { throw StageError("the number of days must not be negative (got \(rules.days))") }
        guard rules.window >= 1 else { throw StageError("the repeat window must be at least 1 day (got \(rules.window))") }
        let eligible = eligibility(countries, rules: rules)
        for t in ChallengeType.allCases where eligible[t]!.isEmpty {
            throw StageError("no country is eligible for \(t.label) questions (min silhouette area \(rules.minSilhouetteAreaKm2) km²)")
        }
        let small = Set(countries.filter { $0.isPoint || $0.areaKm2 < rules.smallAreaKm2 }.map(\.id))
        let window = feasibleWindow(requested: rules.window, eligible: eligible)

        var uses: [String: Int] = [:]
        var last: [String: Int] = [:]
        var days: [ScheduledDay] = []
        days.reserveCapacity(rules.days)
        var previousSmall = false
        let dayTypes = types(days: rules.days, seed: rules.seed)
        for k in 0..<rules.days {
            let t = dayTypes[k]
            var rng = SplitMix64(seed: rules.seed, purpose: SplitMix64.hash("answer"), index: UInt64(k))
            let pool = eligible[t]!
            // 1. Rounds: only countries of this pool used the fewest times so far.
            let fewest = pool.map { uses[$0, default: 0] }.min()!
            let round = pool.filter { uses[$0, default: 0] == fewest }
            // 2. The repeat window.
            var relaxed: [String] = []
            var candidates = round.filter { last[$0].map { k - $0 >= window } ?? true }
            if candidates.isEmpty {
                // Keep the rounds; take the least recently used (ties by id).
                let oldest = round.map { last[$0] ?? Int.min }.min()!
                candidates = round.filter { (last[$0] ?? Int.min) == oldest }
                relaxed.append("window")
            }
            // 3. No two small countries in a row; and spend small countries early enough that
            //    a round never ends with small countries only: when at least a third of the
            //    candidates are small and a small one is allowed today, take a small one.
            let smallOnes = candidates.filter { small.contains($0) }
            let largeOnes = candidates.filter { !small.contains($0) }
            if previousSmall {
                if largeOnes.isEmpty { relaxed.append("small-after-small") } else { candidates = largeOnes }
            } else if !smallOnes.isEmpty && 2 * smallOnes.count >= largeOnes.count {
                candidates = smallOnes
            }
            let answer = candidates[rng.below(candidates.count)]
            uses[answer, default: 0] += 1
            last[answer] = k
            previousSmall = small.contains(answer)
            days.append(ScheduledDay(index: k, day: rules.start.adding(days: k), type: t, answer: answer, relaxed: relaxed))
        }
        return Schedule(rules: rules, window: window, eligible: eligible, small: small, days: days)
    }
}

extension Schedule {
    public func count(of t: ChallengeType) -> Int { days.reduce(0) { $0 + ($1.type == t ? 1 : 0) } }

    /// The longest run of one type on consecutive days.
    public var longestTypeRun: Int {
        var best = 0, run = 0
        for (i, d) in days.enumerated() {
            run = (i > 0 && days[i - 1].type == d.type) ? run + 1 : 1
            best = max(best, run)
        }
        return best
    }

    /// Days between consecutive uses of the same answer.
    public var repeatGaps: [Int] {
        var last: [String: Int] = [:]
        var gaps: [Int] = []
        for d in days {
            if let l = last[d.answer] { gaps.append(d.index - l) }
            last[d.answer] = d.index
        }
        return gaps
    }

    /// Rule violations found by re-checking the finished schedule (empty when it is sound).
    public func violations(countries: [ChallengeCountry]) -> [String] {
        var out: [String] = []
        let byID = Dictionary(uniqueKeysWithValues: countries.map { ($0.id, $0) })
        var uses: [String: Int] = [:]
        var last: [String: Int] = [:]
        for (i, d) in days.enumerated() {
            guard let c = byID[d.answer] else { out.append("\(d.day): answer \(d.answer) is not a country"); continue }
            if !eligible[d.type]!.contains(d.answer) { out.append("\(d.day): \(d.answer) is not eligible for a \(d.type.label) question") }
            if d.type == .capital && c.capital == nil { out.append("\(d.day): capital question on \(d.answer), which has no capital") }
            if d.type == .country && c.isPoint { out.append("\(d.day): silhouette question on point country \(d.answer)") }
            if let l = last[d.answer], d.index - l < window { out.append("\(d.day): \(d.answer) repeats after \(d.index - l) days (window \(window))") }
            let fewest = eligible[d.type]!.map { uses[$0, default: 0] }.min()!
            if uses[d.answer, default: 0] != fewest { out.append("\(d.day): \(d.answer) used a \(uses[d.answer, default: 0] + 1). time while another \(d.type.label) country was used only \(fewest) times") }
            if i > 0 && small.contains(d.answer) && small.contains(days[i - 1].answer) { out.append("\(d.day): small \(d.answer) follows small \(days[i - 1].answer)") }
            uses[d.answer, default: 0] += 1
            last[d.answer] = d.index
        }
        return out
    }
}

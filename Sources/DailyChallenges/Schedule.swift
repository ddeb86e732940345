// The daily-challenge schedule: which question type and which country on each day.
//
// Day k depends only on the seed and on days 0..<k: the type of day k comes from a seeded
// permutation of its block of three days, and the answer is chosen by rules that look only at
// earlier days, with random draws from a generator derived from (seed, k). So scheduling more
// days never changes an earlier row.
import CalendarDay
import GeoModel
import GeoPROJ
import GeoFormats
import SeededRandom


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
    /// Area in km² (0 for point countries): geodesic (WGS84, Karney), or, where
    /// `countries(from:file:exactNear:)` was told the thresholds it is compared with and it is
    /// far from all of them, the fast spherical estimate (`SphericalArea`), which is on the
    /// same side of each.
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

    /// The areas a country's area is compared with (`countries(from:file:exactNear:)`).
    public var areaThresholdsKm2: [Double] { [minSilhouetteAreaKm2, smallAreaKm2] }

    public init() {}
}

/// One row of the schedule already in the live table (read from its `\\copy … csv` export).
public struct ExistingDay: Sendable, Equatable {
    public var day: Day
    public var type: ChallengeType
    public var answer: String
    public init(day: Day, type: ChallengeType, answer: String) { self.day = day; self.type = type; self.answer = answer }
}

/// What a scheduled day does to the live table.
public enum DayChange: Sendable, Equatable {
    /// The date has no row yet: the seed inserts one.
    case added
    /// The date keeps its existing row (the default: existing rows are never changed).
    case kept
    /// `--replan-future`: the row is rewritten with a different question.
    case replanned(old: ExistingDay)
    /// `--replan-future`: the new plan asks the same question as the existing row.
    case unchanged
}

public struct ScheduledDay: Sendable, Equatable {
    public var index: Int
    public var day: Day
    public var type: ChallengeType
    public var answer: String
    /// Rules that had to give way on this day (empty when every rule held).
    public var relaxed: [String]
    public var change: DayChange = .added
}

public struct Schedule: Sendable {
    public var rules: ScheduleRules
    /// The window actually enforced: the requested one, capped by what the pool allows.
    public var window: Int
    public var eligible: [ChallengeType: [String]]
    public var small: Set<String>
    /// Days `rules.start ..< rules.start + rules.days`, one each, in order.
    public var days: [ScheduledDay]
    /// Existing rows outside those days (before `start`, or after the horizon): fixed, they only
    /// constrain the plan (repeat window, neighbouring types and small countries).
    public var context: [ExistingDay] = []
    /// Whether existing rows from `start` on were re-planned (`--replan-future`).
    public var replanFuture = false
}

extension DailyChallenges {
    /// The countries of world.geojson, checked for what the schedule relies on. With
    /// `exactNear` (the area thresholds the schedule compares with, km²), a country's area is
    /// measured on the ellipsoid only when its estimate is too close to one of them to decide:
    /// the authalic estimate (`authalicEstimateKm2`) within 1e-3 of its rings' areas, or, where
    /// that estimate does not apply, the vertex formula within a factor 4 (the world stage's
    /// margin for it). Every comparison comes out as with the geodesic area, and the countries'
    /// many vertices (the stage's main cost) skip Karney's algorithm.
    public static func countries(from features: [Feature], file: String, exactNear thresholds: [Double]? = nil) throws -> [ChallengeCountry] {
        try CountryFile.check(features, file: file)
        var out: [ChallengeCountry] = []
        for (i, f) in features.enumerated() {
            let id = f.id!, name = f.string("name")!
            let ref = FeatureRef(index: i, name: name, id: id)
            guard let continent = f.string("continent"), !continent.isEmpty else { throw InputError(file: file, feature: ref, "has no continent") }
            let capital = f.string("capital").flatMap { $0.isEmpty ? nil : $0 }
            let isPoint = f.string("renderAs") == "point"  // CountryFile.check: exactly the Point geometries
            let area = isPoint ? 0 : areaKm2(f.geometry, exactNear: thresholds)
            out.append(ChallengeCountry(id: id, name: name, continent: continent, capital: capital, isPoint: isPoint, areaKm2: area))
        }
        return out.sorted { $0.id < $1.id }
    }

    /// The area (km²) of a country's polygons: see `ChallengeCountry.areaKm2`.
    static func areaKm2(_ geometry: Geometry, exactNear thresholds: [Double]?) -> Double {
        if let thresholds, let (estimate, scale) = authalicEstimateKm2(geometry) {
            // The authalic estimate is within 2.7e-4 of each ring's geodesic area
            // (SphericalArea.authalicRingArea): a threshold farther than 1e-3 of the rings'
            // summed areas compares with it as with the geodesic area. Most countries near a
            // threshold are decided here, without Karney's algorithm.
            let slack = 1e-3 * scale
            if !thresholds.contains(where: { abs(estimate - $0) <= slack }) { return estimate }
        }
        if let thresholds {
            let radiusKm = Geodesic.authalicRadius / 1000
            var estimate = 0.0
            for p in geometry.polygons {
                estimate += SphericalArea.approximateRingArea(p.exterior, radius: radiusKm)
                for h in p.holes { estimate -= SphericalArea.approximateRingArea(h, radius: radiusKm) }
            }
            if !thresholds.contains(where: { estimate >= $0 / 4 && estimate <= $0 * 4 }) { return estimate }
        }
        return Geodesic.wgs84.area(geometry) / 1e6
    }

    /// The polygons' area (km²) estimated on the authalic sphere, and the sum of their rings'
    /// estimates (what the estimate's error scales with); nil where a ring is out of the
    /// estimate's range (a long edge, a pole).
    static func authalicEstimateKm2(_ geometry: Geometry) -> (area: Double, scale: Double)? {
        var area = 0.0, scale = 0.0
        for p in geometry.polygons {
            for (k, ring) in p.rings.enumerated() {
                guard let a = SphericalArea.authalicRingArea(ring) else { return nil }
                area += k == 0 ? a : -a
                scale += a
            }
        }
        return (area / 1e6, scale / 1e6)
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
    public static func types(days: Int, seed: UInt64, after previous: ChallengeType? = nil) -> [ChallengeType] {
        var out: [ChallengeType] = []
        out.reserveCapacity(days + 2)
        var previousLast: ChallengeType? = previous
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

    /// The schedule of `rules.days` days from `rules.start`, continuing `existing` (the live
    /// table's rows). Existing rows before `start` are never changed; from `start` on they are
    /// kept unless `replanFuture`. Every existing row that is not re-planned counts for the rules
    /// (the repeat window looks back and ahead across it, two consecutive days never ask the
    /// same type, two small countries never follow each other). Without existing rows this is
    /// exactly the plain schedule: day k depends only on the seed and days before k.
    public static func schedule(_ countries: [ChallengeCountry], rules: ScheduleRules,
                                existing: [ExistingDay] = [], replanFuture: Bool = false) throws -> Schedule {
        guard rules.days >= 0 else { throw StageError("the number of days must not be negative (got \(rules.days))") }
        guard rules.window >= 1 else { throw StageError("the repeat window must be at least 1 day (got \(rules.window))") }
        let eligible = eligibility(countries, rules: rules)
        for t in ChallengeType.allCases where eligible[t]!.isEmpty {
            throw StageError("no country is eligible for \(t.label) questions (min silhouette area \(rules.minSilhouetteAreaKm2) km²)")
        }
        let small = Set(countries.filter { $0.isPoint || $0.areaKm2 < rules.smallAreaKm2 }.map(\.id))
        let window = feasibleWindow(requested: rules.window, eligible: eligible)

        // Existing rows by day index relative to start; `fixed` are those the plan must keep.
        var existingAt: [Int: ExistingDay] = [:]
        for e in existing {
            let k = e.day.ordinal - rules.start.ordinal
            guard existingAt[k] == nil else { throw StageError("the existing schedule has two rows on \(e.day)") }
            existingAt[k] = e
        }
        func isFixed(_ k: Int) -> Bool { existingAt[k] != nil && (k < 0 || k >= rules.days || !replanFuture) }
        var fixedUses: [String: [Int]] = [:]   // answer → fixed indices ≥ 0, ascending
        for k in existingAt.keys.sorted() where k >= 0 && isFixed(k) { fixedUses[existingAt[k]!.answer, default: []].append(k) }

        var uses: [String: Int] = [:]
        var last: [String: Int] = [:]
        for k in existingAt.keys.sorted() where k < 0 { last[existingAt[k]!.answer] = k }
        var typeAt: [Int: ChallengeType] = [:]
        var smallAt: [Int: Bool] = [:]
        for (k, e) in existingAt where isFixed(k) { typeAt[k] = e.type; smallAt[k] = small.contains(e.answer) }

        var days: [ScheduledDay] = []
        days.reserveCapacity(rules.days)
        let dayTypes = types(days: rules.days, seed: rules.seed, after: existingAt[-1]?.type)
        for k in 0..<rules.days {
            let day = rules.start.adding(days: k)
            if isFixed(k) {
                let e = existingAt[k]!
                last[e.answer] = k
                days.append(ScheduledDay(index: k, day: day, type: e.type, answer: e.answer, relaxed: [], change: .kept))
                continue
            }
            // The type of the block plan, unless a neighbouring day already asks it.
            var t = dayTypes[k]
            let taken = Set([typeAt[k - 1], typeAt[k + 1]].compactMap { $0 })
            if taken.contains(t) {
                let free = ChallengeType.allCases.filter { !taken.contains($0) }
                t = free.first { $0 != typeAt[k - 2] } ?? free[0]
            }
            var rng = SplitMix64(seed: rules.seed, purpose: SplitMix64.hash("answer"), index: UInt64(k))
            let pool = eligible[t]!
            // 1. Rounds: only countries of this pool used the fewest times so far.
            let fewest = pool.map { uses[$0, default: 0] }.min()!
            let round = pool.filter { uses[$0, default: 0] == fewest }
            // 2. The repeat window, back to earlier days and ahead to kept existing days.
            var relaxed: [String] = []
            func clear(_ c: String) -> Bool {
                if let l = last[c], k - l < window { return false }
                if let next = fixedUses[c]?.first(where: { $0 > k }), next - k < window { return false }
                return true
            }
            var candidates = round.filter(clear)
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
            if smallAt[k - 1] == true || smallAt[k + 1] == true {
                if largeOnes.isEmpty { relaxed.append("small-after-small") } else { candidates = largeOnes }
            } else if !smallOnes.isEmpty && 2 * smallOnes.count >= largeOnes.count {
                candidates = smallOnes
            }
            let answer = candidates[rng.below(candidates.count)]
            uses[answer, default: 0] += 1
            last[answer] = k
            typeAt[k] = t
            smallAt[k] = small.contains(answer)
            var change = DayChange.added
            if let old = existingAt[k] { change = (old.type == t && old.answer == answer) ? .unchanged : .replanned(old: old) }
            days.append(ScheduledDay(index: k, day: day, type: t, answer: answer, relaxed: relaxed, change: change))
        }
        let context = existingAt.keys.sorted().filter { $0 < 0 || $0 >= rules.days }.map { existingAt[$0]! }
        return Schedule(rules: rules, window: window, eligible: eligible, small: small, days: days,
                        context: context, replanFuture: replanFuture)
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

    /// Days whose question this run writes (added or re-planned), as opposed to kept rows.
    public var planned: [ScheduledDay] { days.filter { $0.change != .kept } }

    /// What the seed changes: rows added, rows re-planned (a different question), existing rows
    /// left as they are from `start` on, and rows before `start` touched (0 by construction; the
    /// seed's SQL guards it again).
    public var changeCounts: (added: Int, replanned: Int, kept: Int, pastTouched: Int) {
        var a = 0, r = 0, k = 0
        for d in days {
            switch d.change {
            case .added: a += 1
            case .replanned: r += 1
            case .kept, .unchanged: k += 1
            }
        }
        return (a, r, k, days.filter { $0.day < rules.start && $0.change != .kept }.count)
    }

    /// Rule violations found by re-checking the finished schedule, with the existing rows around
    /// it (empty when it is sound). Only days this run plans are judged: a kept row of the
    /// hand-written schedule may break the rules, but no planned day may break them against it.
    public func violations(countries: [ChallengeCountry]) -> [String] {
        var out: [String] = []
        let byID = Dictionary(uniqueKeysWithValues: countries.map { ($0.id, $0) })
        // The timeline: context rows and this run's days, by day index.
        var timeline: [(index: Int, day: Day, type: ChallengeType, answer: String, planned: Bool)] =
            context.map { ($0.day.ordinal - rules.start.ordinal, $0.day, $0.type, $0.answer, false) }
        timeline += days.map { ($0.index, $0.day, $0.type, $0.answer, $0.change != .kept) }
        timeline.sort { $0.index < $1.index }
        var uses: [String: Int] = [:]
        var lastSeen: [String: (index: Int, planned: Bool)] = [:]
        for (i, d) in timeline.enumerated() {
            let prev = i > 0 && timeline[i - 1].index == d.index - 1 ? timeline[i - 1] : nil
            if let p = prev, d.planned || p.planned {
                let on = d.planned ? d.day : p.day
                if p.type == d.type { out.append("\(on): \(p.day) and \(d.day) both ask a \(d.type.label) question") }
                if small.contains(d.answer) && small.contains(p.answer) { out.append("\(on): small \(d.answer) follows small \(p.answer)") }
            }
            if let l = lastSeen[d.answer], d.index - l.index < window, d.planned || l.planned {
                let on = d.planned ? d.day : rules.start.adding(days: l.index)
                out.append("\(on): \(d.answer) repeats after \(d.index - l.index) days (window \(window))")
            }
            lastSeen[d.answer] = (d.index, d.planned)
            guard d.planned else { continue }
            guard let c = byID[d.answer] else { out.append("\(d.day): answer \(d.answer) is not a country"); continue }
            if !eligible[d.type]!.contains(d.answer) { out.append("\(d.day): \(d.answer) is not eligible for a \(d.type.label) question") }
            if d.type == .capital && c.capital == nil { out.append("\(d.day): capital question on \(d.answer), which has no capital") }
            if d.type == .country && c.isPoint { out.append("\(d.day): silhouette question on point country \(d.answer)") }
            let fewest = eligible[d.type]!.map { uses[$0, default: 0] }.min()!
            if uses[d.answer, default: 0] != fewest { out.append("\(d.day): \(d.answer) used a \(uses[d.answer, default: 0] + 1). time while another \(d.type.label) country was used only \(fewest) times") }
            uses[d.answer, default: 0] += 1
        }
        return out
    }
}

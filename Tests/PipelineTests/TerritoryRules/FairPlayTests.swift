import Foundation
import Geodesy
import Testing
import TerritoryGame
import TerritoryRules

/// CONTRACTS §8c's rules in TerritoryRules: records, the loop cap, simulated fixes, replays.
@Suite struct TerritoryRulesFairPlayTests {
    /// The replay plane's scale is Geodesy's WGS84 radius, bit for bit the figure
    /// submit_run_rules writes out (the fair_play migration), so both pair the same fixes.
    @Test func replayPlaneMatchesTheSQLMirror() throws {
        #expect(Replay.metresPerDegree == 111319.49079327357)
        let sql = try #require(GameMigration.all.first { $0.name.hasSuffix("_fair_play.sql") }).sql
        #expect(sql.contains("* 111319.49079327357;") && sql.contains("cos(lat[1] * 0.017453292519943295)"))
    }

    let rules = Rules()
    func codes(_ v: Verdict) -> [String] { v.reasons.map(\.code.rawValue) }

    /// A circle of `radius` m run at `kmh`, a fix every `step` s.
    func loop(radius: Double, kmh: Double, step: Double = 3) -> Run {
        let circumference = 2 * Double.pi * radius
        let n = max(12, Int((circumference / (kmh / 3.6 * step)).rounded()))
        let (p, _) = RunBuilder.circle(radius: radius, n: n)
        let dt = Int64((circumference / Double(n) / (kmh / 3.6) * 1e6).rounded())
        return RunBuilder.run(p, (0...n).map { Int64($0) * dt })
    }

    @Test func theRecordsAreStated() {
        #expect(rules.recordWindows.map(\.name) == ["1 km", "1 mile", "2 km", "3 km", "5 km", "10 km", "half marathon", "marathon", "100 km"])
        #expect(abs(rules.maxLoopArea / 1e6 - 8129.1) < 0.1)
        #expect(Reason.Code.allCases.filter(\.refusedAtSubmission).map(\.rawValue) == ["faster_than_record", "over_cap", "simulated_fix", "replay"])
    }

    @Test func aRunnersPaceIsValidAVehiclesIsNot() {
        let honest = rules.judge(loop(radius: 800, kmh: 14))
        #expect(honest.valid, "\(honest.reasons)")
        // 35 km/h: under the speed spike's 43 km/h, over 1 km in 103 s < 131.96 s.
        let car = rules.judge(loop(radius: 800, kmh: 35))
        #expect(codes(car) == ["faster_than_record"])
        #expect(car.reasons[0].detail.hasPrefix("fixes 0…"))
        #expect(car.reasons[0].detail.hasSuffix("faster than the men's world record for 1 km (131.96 s)"))
        // 25.2 km/h: 1 km in 143 s, the mile in 230 s, 2 km in 286 s pass; 3 km in 429 s fails (7:17.55).
        let bike = rules.judge(loop(radius: 800, kmh: 25.2))
        #expect(codes(bike) == ["faster_than_record"])
        #expect(bike.reasons[0].detail.contains("for 3 km (437.55 s)"), "\(bike.reasons)")
    }

    @Test func theStretchIsTheShortestCoveringTheWindow() {
        // 2 km of walking (fixes 0…80), then 1.2 km at 30 km/h (fixes 81…128, no runner holds it).
        var pts: [Point] = [], times: [Int64] = [], t: Int64 = 0
        for i in 0...80 { pts.append(RunBuilder.direct(RunBuilder.start, 90, Double(i) * 25)); times.append(t); t += 18_000_000 }
        for i in 1...48 { pts.append(RunBuilder.direct(RunBuilder.start, 90, 2000 + Double(i) * 25)); times.append(t); t += 3_000_000 }
        let v = rules.judge(RunBuilder.run(pts, times))
        let r = v.reasons.first { $0.code == .fasterThanRecord }
        #expect(r?.detail.hasPrefix("fixes 81…121 cover 1000.0 m in 120.0 s") == true, "\(v.reasons)")
    }

    @Test func aLoopOverTheCapIsRefused() {
        // A 60 km circle (11,300 km² on the plane) walked at 8 km/h.
        let big = rules.judge(loop(radius: 60_000, kmh: 8, step: 300))
        #expect(codes(big) == ["over_cap"], "\(big.reasons)")
        #expect(big.reasons[0].detail.hasPrefix("the loop encloses 1126"), "\(big.reasons)")
        let park = rules.judge(loop(radius: 800, kmh: 12))
        #expect(abs(park.loopArea - Double.pi * 800 * 800) < 0.01 * Double.pi * 800 * 800)
    }

    @Test func aSimulatedFixIsRefused() {
        var run = loop(radius: 300, kmh: 12)
        run.simulated = Array(repeating: false, count: run.fixCount)
        #expect(rules.judge(run).valid)
        run.simulated[7] = true; run.simulated[9] = true
        let v = rules.judge(run)
        #expect(codes(v) == ["simulated_fix"])
        #expect(v.reasons[0].detail == "fix 7 is marked simulated (properties.simulated), 2 of \(run.fixCount) fixes")
    }

    /// Deterministic noise (a linear congruential generator), the GPS error of a run: a slowly
    /// wandering offset plus a little jitter, metres.
    struct Noise {
        var s: UInt64
        mutating func uniform() -> Double { s = s &* 6364136223846793005 &+ 1442695040888963407; return Double(s >> 11) / Double(1 << 53) }
        mutating func gauss() -> Double { (-2 * log(max(uniform(), 1e-12))).squareRoot() * cos(2 * .pi * uniform()) }
    }

    /// The 2 km park loop run at `kmh` with a fix a second and GPS error (seed), starting at `phase`.
    func rerun(seed: UInt64, kmh: Double, phase: Double = 0) -> Run {
        var noise = Noise(s: seed)
        let radius = 2000 / (2 * Double.pi), speed = kmh / 3.6
        let n = Int(2000 / speed)
        var ox = 0.0, oy = 0.0, pts: [Point] = []
        for i in 0...n {
            ox = 0.98 * ox + 0.6 * noise.gauss(); oy = 0.98 * oy + 0.6 * noise.gauss()
            let a = (phase + Double(i) * speed / radius) * 180 / .pi
            let p = RunBuilder.direct(RunBuilder.start, a, radius)
            pts.append(RunBuilder.direct(RunBuilder.direct(p, 90, ox + 0.5 * noise.gauss()), 0, oy + 0.5 * noise.gauss()))
        }
        return RunBuilder.run(pts, (0...n).map { Int64($0) * 1_000_000 })
    }

    @Test func aReplayPairsItsFixesARerunDoesNot() {
        let first = rerun(seed: 1, kmh: 11)
        let lon = first.lon, lat = first.lat
        func share(_ l: [Double], _ a: [Double]) -> Double {
            Double(Replay.pairs(lon: l, lat: a, storedLon: lon, storedLat: lat, within: 2)) / Double(l.count)
        }
        #expect(share(lon, lat) == 1)
        // Every other fix, from the middle of the loop, backwards: still every fix paired.
        let rotated = Array(stride(from: lon.count / 2, to: lon.count, by: 2)) + Array(stride(from: 0, to: lon.count / 2, by: 2))
        #expect(share(rotated.reversed().map { lon[$0] }, rotated.reversed().map { lat[$0] }) == 1)
        // The same loop run again (other days, other paces): a few fixes pair by chance.
        for seed in 2...6 {
            let again = rerun(seed: UInt64(seed), kmh: 9 + Double(seed), phase: Double(seed) / 10)
            let s = share(again.lon, again.lat)
            #expect(s < 0.5, "seed \(seed): \(s)")
            #expect(rules.judge(again).valid)
        }
    }

    @Test func theIndexFindsAReplayAmongStoredRuns() {
        var index = ReplayIndex()
        let first = rerun(seed: 1, kmh: 11)
        let kept = Array(0..<first.fixCount)
        #expect(index.check(first, kept: kept, rules: rules) == nil)
        index.add(first, kept: kept)
        for seed in 2...4 {
            var again = rerun(seed: UInt64(seed), kmh: 10)
            again.id = "00000000-0000-4000-8000-00000000000\(seed)"
            #expect(index.check(again, kept: Array(0..<again.fixCount), rules: rules) == nil)
            index.add(again, kept: Array(0..<again.fixCount))
        }
        // Another runner's replay with new times and a new id.
        var copy = first
        copy.id = "00000000-0000-4000-8000-0000000000ff"; copy.userID = "00000000-0000-4000-8000-0000000000bb"
        copy.time = copy.time.map { $0 + 86_400_000_000 * 3 }
        let r = index.check(copy, kept: kept, rules: rules)
        #expect(r?.code == .replay)
        #expect(r?.detail == "\(kept.count) of \(kept.count) kept fixes repeat, one to one and in order within 2 m, the fixes of stored run \(first.id)")
        // The same run sent again (same id) is not a replay of itself.
        #expect(index.check(first, kept: kept, rules: rules) == nil)
    }
}

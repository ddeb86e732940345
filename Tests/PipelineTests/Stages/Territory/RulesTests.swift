import Foundation
import GeoModel
import Geodesy
import GeoPROJ
import Testing
@testable import TerritoryStage
@testable import TerritoryGame
import TerritoryRules

/// Builds runs whose geodesic figures are known, from a start in Vondelpark.
struct RunBuilder {
    static let start = Point(4.8683, 52.3584)

    /// The point `distance` m from `p` at `azimuth` degrees (PROJ's geodesic direct problem).
    static func direct(_ p: Point, _ azimuth: Double, _ distance: Double) -> Point {
        let d = Geodesic.wgs84.direct(lat: p.y, lon: p.x, azimuth: azimuth, distance: distance)
        return Point(d.lon, d.lat)
    }

    /// `n` fixes `step` µs apart on a circle of `radius` m around `start` (the first fix due
    /// north of it, clockwise), then the first fix again: a closed loop of n + 1 fixes.
    static func circle(radius: Double, n: Int = 20, step: Int64 = 3_000_000) -> ([Point], [Int64]) {
        var pts = (0..<n).map { direct(start, Double($0) * 360 / Double(n), radius) }
        pts.append(pts[0])
        return (pts, (0...n).map { Int64($0) * step })
    }

    static func run(_ pts: [Point], _ times: [Int64], accuracy: [Double]? = nil, id: String = "00000000-0000-4000-8000-000000000001",
                    user: String = "00000000-0000-4000-8000-0000000000aa") -> Run {
        Run(index: 0, id: id, userID: user, lon: pts.map(\.x), lat: pts.map(\.y),
            time: times.map { $0 + 1_795_000_000_000_000 }, accuracy: accuracy ?? Array(repeating: 5, count: pts.count))
    }
}

@Suite struct TerritoryRulesTests {
    let rules = Rules()
    func codes(_ v: Verdict) -> [String] { v.reasons.map(\.code.rawValue) }

    @Test func aNormalLoopIsValid() {
        let (p, t) = RunBuilder.circle(radius: 100)
        let v = rules.judge(RunBuilder.run(p, t))
        #expect(v.valid, "\(v.reasons)")
        #expect(abs(v.distance - 20 * 2 * 100 * sin(Double.pi / 20)) < 0.01)  // 20 chords of a 100 m circle
        #expect(v.duration == 60)
        #expect(v.closure == 0)
    }

    /// 99 m is too short, 100 m is enough: an out-and-back of 12 fixes, 10 s apart. (The
    /// geodesic is exact to nanometres, not to the last bit: "100 m" is built as 100 m + 1 µm.)
    @Test func distanceBoundary() {
        func outAndBack(_ total: Double) -> Verdict {
            var pts: [Point] = []
            for i in 0...5 { pts.append(RunBuilder.direct(RunBuilder.start, 0, total / 10 * Double(i))) }
            for i in (0...4).reversed() { pts.append(RunBuilder.direct(RunBuilder.start, 0, total / 10 * Double(i))) }
            pts.append(RunBuilder.start)
            return rules.judge(RunBuilder.run(pts, (0..<pts.count).map { Int64($0) * 10_000_000 }))
        }
        let short = outAndBack(99)
        #expect(codes(short) == ["too_short"])
        #expect(short.reasons[0].detail == "distance 99.0 m < 100 m")
        let enough = outAndBack(100 + 1e-6)
        #expect(abs(enough.distance - 100) < 2e-6)
        #expect(enough.valid, "\(enough.reasons)")
    }

    /// 29 s is too brief, 30 s is enough (times are exact microseconds).
    @Test func durationBoundary() {
        let (p, _) = RunBuilder.circle(radius: 30)   // 187 m in 21 fixes
        func judged(_ total: Int64) -> Verdict {
            let t = (0..<p.count).map { Int64($0) * total / Int64(p.count - 1) }
            return rules.judge(RunBuilder.run(p, t))
        }
        let brief = judged(29_000_000)
        #expect(codes(brief) == ["too_brief"])
        #expect(brief.reasons[0].detail == "duration 29.0 s < 30 s")
        #expect(judged(30_000_000).valid)
    }

    /// 9 fixes are too few, 10 are enough.
    @Test func fixCountBoundary() {
        func judged(_ n: Int) -> Verdict {
            var pts: [Point] = []
            for i in 0..<(n - 1) { pts.append(RunBuilder.direct(RunBuilder.start, Double(i) * 360 / Double(n - 1), 40)) }
            pts.append(pts[0])
            return rules.judge(RunBuilder.run(pts, (0..<n).map { Int64($0) * 10_000_000 }))
        }
        let few = judged(9)
        #expect(codes(few) == ["too_few_fixes"])
        #expect(few.reasons[0].detail == "9 fixes < 10")
        #expect(judged(10).valid)
    }

    /// Start and end 50 m apart close the loop; 51 m do not.
    @Test func closureBoundary() {
        let (p, t) = RunBuilder.circle(radius: 300, n: 60, step: 10_000_000)  // 11 km/h: a runner
        func judged(_ gap: Double) -> Verdict {
            var q = p
            q[q.count - 1] = RunBuilder.direct(q[0], 270, gap)
            return rules.judge(RunBuilder.run(q, t))
        }
        let closed = judged(50 - 1e-6)
        #expect(abs(closed.closure! - 50) < 2e-6)
        #expect(closed.valid, "\(closed.reasons)")
        let open = judged(51)
        #expect(codes(open) == ["not_closed"])
        #expect(open.reasons[0].detail == "start and end 51.0 m apart > 50 m")
    }

    /// 43 km/h between two fixes is allowed (43 m − 1 µm in 3.6 s); 44 km/h is a speed spike.
    @Test func speedBoundary() {
        func judged(_ metres: Double) -> Verdict {
            let (p, t) = RunBuilder.circle(radius: 300, n: 60, step: 10_000_000)
            // A fix inserted after the first: `metres` from it in 3.6 s, then on to the second
            // fix (about 36 m) in 10 s.
            var q = p, u = t.map { $0 + 10_000_000 }
            q.insert(RunBuilder.direct(p[0], 180, metres), at: 1)
            u.insert(3_600_000, at: 1)
            u[0] = 0
            return rules.judge(RunBuilder.run(q, u))
        }
        let legal = judged(43 - 1e-6)
        #expect(abs(legal.maxSpeedKmh - 43) < 1e-5)
        #expect(legal.valid, "\(legal.reasons)")
        let spike = judged(44)
        #expect(codes(spike) == ["speed_spike"])
        #expect(spike.reasons[0].detail == "44.0 km/h > 43 km/h between fixes 0 and 1")
    }

    /// A fix of accuracy exactly 50 m counts; 50.1 m is ignored. The test fix is thrown 2 km
    /// away, so counting it makes a teleport (and a speed spike).
    @Test func accuracyBoundary() {
        let (p, t) = RunBuilder.circle(radius: 100)
        var q = p
        q[7] = RunBuilder.direct(q[7], 90, 2000)
        func judged(_ acc: Double) -> Verdict {
            var a = Array(repeating: 5.0, count: q.count)
            a[7] = acc
            return rules.judge(RunBuilder.run(q, t, accuracy: a))
        }
        let counted = judged(50)
        #expect(counted.kept.count == q.count)
        #expect(codes(counted) == ["speed_spike", "teleport"])
        let ignored = judged(50.1)
        #expect(ignored.kept.count == q.count - 1)
        #expect(ignored.valid, "\(ignored.reasons)")
    }

    /// A jump over 1 km between consecutive kept fixes is a teleport whatever the time between
    /// them: 12 fixes on a circle whose chords are 1,001 m, 10 minutes apart (6 km/h, no
    /// speed spike); with 999 m chords the same run is valid.
    @Test func teleportIsAJumpWhateverTheTime() {
        func judged(_ chord: Double) -> Verdict {
            let (p, t) = RunBuilder.circle(radius: chord / (2 * sin(Double.pi / 12)), n: 12, step: 600_000_000)
            return rules.judge(RunBuilder.run(p, t))
        }
        let far = judged(1001)
        #expect(codes(far) == ["teleport"])
        #expect(far.maxJump > 1000 && far.maxJump < 1002)
        let near = judged(999)
        #expect(near.valid, "\(near.reasons)")
    }

    /// A rejected run carries every reason, and the bad-accuracy-only run says nothing is left.
    @Test func everyReasonIsListed() {
        let pts = [RunBuilder.start, RunBuilder.direct(RunBuilder.start, 0, 30), RunBuilder.direct(RunBuilder.start, 0, 1500)]
        let v = rules.judge(RunBuilder.run(pts, [0, 10_000_000, 5_000_000]))
        #expect(codes(v) == ["too_few_fixes", "too_brief", "not_closed", "speed_spike", "teleport", "time_backwards"])
        #expect(!codes(v).contains("too_short"))
        let none = rules.judge(RunBuilder.run(pts, [0, 1, 2], accuracy: [60, 70, 80]))
        #expect(codes(none) == ["no_fixes", "too_few_fixes", "too_short", "too_brief"])
        #expect(none.reasons[0].detail == "all 3 fixes are less accurate than 50 m")
    }

    /// Two fixes with the same time in different places cannot be judged by speed: a spike.
    @Test func sameTimeDifferentPlaceIsASpike() {
        let (p, t) = RunBuilder.circle(radius: 100)
        var u = t
        u[3] = u[2]
        let v = rules.judge(RunBuilder.run(p, u))
        #expect(codes(v) == ["speed_spike"])
        #expect(v.maxSpeedKmh == .infinity)
    }
}

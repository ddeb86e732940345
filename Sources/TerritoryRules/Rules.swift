import Foundation
import Geodesy

/// The game's rules (CONTRACTS §8), with every threshold in one place. A run is judged on the
/// fixes whose accuracy is at most `maxAccuracy`; the others are ignored as if never recorded.
public struct Rules: Sendable, Equatable {
    /// Fixes with accuracy worse (larger) than this are dropped; exactly this is kept.
    public var maxAccuracy = 50.0
    /// The path along the kept fixes must be at least this long (metres, on the ellipsoid).
    public var minDistance = 100.0
    /// First to last kept fix, at least this many seconds.
    public var minDuration = 30.0
    public var minFixes = 10
    /// First and last kept fix at most this far apart (metres).
    public var maxClosure = 50.0
    /// No pair of consecutive kept fixes faster than this (km/h); exactly this is allowed.
    public var maxSpeedKmh = 43.0
    /// A teleport: consecutive kept fixes farther apart than this (metres), whatever the time
    /// between them. A phone records a runner every few metres; a kilometre with nothing in
    /// between is a position glitch or a ride, and the path in between is unknown either way.
    public var maxJump = 1000.0

    /// No stretch of kept fixes covers one of these distances faster than the men's world
    /// record for it (CONTRACTS §8c: Strava excludes efforts faster than world records the same
    /// way). The records (World Athletics, men, as of 2026; the lowest time where track and road
    /// differ, so the rule errs on the runner's side):
    ///   1 km            2:11.96    Noah Ngeny, Rieti 1999
    ///   1 mile          3:43.13    Hicham El Guerrouj, Rome 1999
    ///   2 km            4:43.13    Jakob Ingebrigtsen, Brussels 2023
    ///   3 km            7:17.55    Jakob Ingebrigtsen, Chorzów 2024
    ///   5 km           12:35.36    Joshua Cheptegei, Monaco 2020
    ///   10 km          26:11.00    Joshua Cheptegei, Valencia 2020
    ///   half marathon  56:42       Jacob Kiplimo, Barcelona 2025
    ///   marathon     2:00:35       Kelvin Kiptum, Chicago 2023
    ///   100 km       6:05:41       Aleksandr Sorokin, Verona 2022
    /// A stretch is the shortest run of consecutive kept fixes, ending at each fix, whose path
    /// is at least the window's distance; it is too fast when its time is under the record.
    public var recordWindows: [RecordWindow] = [
        RecordWindow(name: "1 km", metres: 1000, seconds: 131.96),
        RecordWindow(name: "1 mile", metres: 1609.344, seconds: 223.13),
        RecordWindow(name: "2 km", metres: 2000, seconds: 283.13),
        RecordWindow(name: "3 km", metres: 3000, seconds: 437.55),
        RecordWindow(name: "5 km", metres: 5000, seconds: 755.36),
        RecordWindow(name: "10 km", metres: 10000, seconds: 1571),
        RecordWindow(name: "half marathon", metres: 21097.5, seconds: 3402),
        RecordWindow(name: "marathon", metres: 42195, seconds: 7235),
        RecordWindow(name: "100 km", metres: 100000, seconds: 21941),
    ]
    /// The most one run's loop may enclose (m²): the largest area a loop of the 24-hour record's
    /// length encloses (319.614 km, Aleksandr Sorokin, Verona 2022; a circle, by the
    /// isoperimetric inequality A ≤ L²/4π): about 8,129 km². The loop is the kept fixes closed
    /// back to the first; its area is measured on the authalic sphere (`Sphere.approximateRingArea`).
    public var maxLoopArea = 319_614.0 * 319_614.0 / (4 * Double.pi)
    /// Replays (`Replay`): a fix of the run and a fix of a stored run are the same fix when at
    /// most this far apart (m) …
    public var replayPairDistance = 2.0
    /// … and the run is a replay of the stored run when at least this share of its kept fixes
    /// pair, one to one and in order, with the stored run's fixes.
    public var replayShare = 0.8

    public init() {}
}

/// A distance and the men's world record over it (`Rules.recordWindows`).
public struct RecordWindow: Sendable, Equatable {
    public var name: String
    public var metres: Double
    public var seconds: Double
    public init(name: String, metres: Double, seconds: Double) { self.name = name; self.metres = metres; self.seconds = seconds }
    /// The record in whole microseconds (the runs' time unit).
    public var micros: Int64 { Int64((seconds * 1e6).rounded()) }
}

/// Why a run is not a valid loop. Each kind has a stable code (for the report and tests) and
/// a detail with the measured figure.
public struct Reason: Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        case noFixes = "no_fixes"
        case tooFewFixes = "too_few_fixes"
        case tooShort = "too_short"
        case tooBrief = "too_brief"
        case notClosed = "not_closed"
        case speedSpike = "speed_spike"
        case teleport = "teleport"
        case timeBackwards = "time_backwards"
        // CONTRACTS §8c: what is not a run. submit_run refuses a run with any of these (nothing
        // stored); the night and the followers judge a run with them invalid.
        case fasterThanRecord = "faster_than_record"
        case overCap = "over_cap"
        case simulatedFix = "simulated_fix"
        case replay = "replay"

        /// The reasons submit_run refuses a run for (the others: stored and judged invalid).
        public var refusedAtSubmission: Bool {
            switch self {
            case .fasterThanRecord, .overCap, .simulatedFix, .replay: true
            default: false
            }
        }
    }
    public var code: Code
    public var detail: String
    public init(code: Code, detail: String) { self.code = code; self.detail = detail }
    public var description: String { "\(code.rawValue) (\(detail))" }
}

/// What the rules measured on one run and what they decided.
public struct Verdict: Sendable {
    public var fixes: Int
    /// Indices (into the run's fixes) of the fixes the rules kept.
    public var kept: [Int]
    /// Path length along the kept fixes (m), first to last kept fix (s).
    public var distance = 0.0
    public var duration = 0.0
    /// Distance between first and last kept fix (m); nil without kept fixes.
    public var closure: Double?
    /// The fastest pair of consecutive kept fixes (km/h; infinite when two fixes share a time
    /// but not a place) and the longest jump (m).
    public var maxSpeedKmh = 0.0
    public var maxJump = 0.0
    /// The area the loop of the kept fixes encloses (m², `Rules.maxLoopArea`); 0 without a loop.
    public var loopArea = 0.0
    public var reasons: [Reason] = []
    public var valid: Bool { reasons.isEmpty }
}

extension Rules {
    /// Judges one run. Every rule is checked, so a rejected run carries all its reasons.
    ///
    /// Distances are the Swift geodesic's (`Ellipsoid.wgs84`, within 30 nm of PROJ's on a
    /// run's steps). A decision whose figure lies within that error of its threshold (a step's
    /// speed, the longest jump, the path's length, the gap between start and end) is made on
    /// `exact(a, b)` instead — the night passes PROJ's `geod_inverse` — so the verdict is the
    /// one PROJ's distances give; the figures reported may differ from PROJ's in the last
    /// millimetre. Without `exact` (the app) the Swift figure decides.
    public func judge(_ run: Run, exact: ((_ a: Int, _ b: Int) -> Double)? = nil) -> Verdict {
        var v = Verdict(fixes: run.fixCount, kept: [])
        v.kept.reserveCapacity(run.fixCount)
        for i in 0..<run.fixCount where run.accuracy[i] <= maxAccuracy { v.kept.append(i) }
        let k = v.kept
        func fmt(_ x: Double, _ d: Int = 1) -> String { x.isFinite ? String(format: "%.\(d)f", x) : "∞" }
        let earth = Ellipsoid.wgs84
        // The distance from fix a to fix b and its error bound (0 when exact).
        @inline(__always) func measure(_ a: Int, _ b: Int, _ p: Ellipsoid.ECEF, _ q: Ellipsoid.ECEF) -> (Double, Double) {
            let c = p.chord(q)
            if c <= Ellipsoid.shortChord { let s = earth.arc(chord: c); return (s, earth.shortErrorBound(s)) }
            if let exact { return (exact(a, b), 0) }
            return earth.inverse(lat1: run.lat[a], lon1: run.lon[a], lat2: run.lat[b], lon2: run.lon[b])
        }
        func refine(_ d: inout Double, _ e: inout Double, _ a: Int, _ b: Int, near threshold: Double, scale: Double = 1) {
            if e > 0, let exact, abs(d * scale - threshold) <= e * scale { d = exact(a, b); e = 0 }
        }

        var fastest: (Double, Int, Int)? = nil, longest: (Double, Int, Int, Double)? = nil, backwards: Int? = nil
        var spike = false, error = 0.0
        // The path's length from the first kept fix to each kept fix (for the record windows).
        var along = [Double](repeating: 0, count: k.count)
        var p = k.first.map { earth.ecef(lat: run.lat[$0], lon: run.lon[$0]) } ?? Ellipsoid.ECEF(x: 0, y: 0, z: 0)
        let start = p
        for j in 1..<max(k.count, 1) {
            let a = k[j - 1], b = k[j]
            let q = earth.ecef(lat: run.lat[b], lon: run.lon[b])
            var (d, e) = measure(a, b, p, q)
            p = q
            let dtMicros = run.time[b] - run.time[a]
            if dtMicros < 0 && backwards == nil { backwards = b }
            // km/h = m / µs × 3.6e6; compared without dividing, so exactly the limit passes.
            refine(&d, &e, a, b, near: dtMicros > 0 ? maxSpeedKmh * Double(dtMicros) : 0, scale: dtMicros > 0 ? 3.6e6 : 1)
            v.distance += d
            along[j] = v.distance
            error += e
            if dtMicros > 0 ? d * 3.6e6 > maxSpeedKmh * Double(dtMicros) : d > 0 { spike = true }
            let speed = dtMicros > 0 ? d / Double(dtMicros) * 3.6e6 : (d > 0 ? Double.infinity : 0)  // same time, same place: a repeated fix
            if speed > (fastest?.0 ?? -1) { fastest = (speed, a, b) }
            if d > (longest?.0 ?? -1) { longest = (d, a, b, e) }
        }
        if var l = longest {
            var e = l.3
            refine(&l.0, &e, l.1, l.2, near: maxJump)
            longest = l
        }
        if error > 0, let exact, abs(v.distance - minDistance) <= error {
            v.distance = 0
            for j in 1..<k.count { v.distance += exact(k[j - 1], k[j]) }
        }
        if let f = fastest { v.maxSpeedKmh = f.0 }
        if let l = longest { v.maxJump = l.0 }
        if let first = k.first, let last = k.last {
            v.duration = Double(run.time[last] - run.time[first]) / 1e6
            var (c, e) = measure(first, last, start, p)
            refine(&c, &e, first, last, near: maxClosure)
            v.closure = c
        }

        if k.isEmpty {
            v.reasons.append(Reason(code: .noFixes, detail: run.fixCount == 0 ? "the run has no fixes" : "all \(run.fixCount) fixes are less accurate than \(fmt(maxAccuracy, 0)) m"))
        }
        if k.count < minFixes {
            v.reasons.append(Reason(code: .tooFewFixes, detail: "\(k.count) fixes < \(minFixes)" + (k.count < run.fixCount ? " (\(run.fixCount - k.count) of \(run.fixCount) dropped for accuracy > \(fmt(maxAccuracy, 0)) m)" : "")))
        }
        if v.distance < minDistance { v.reasons.append(Reason(code: .tooShort, detail: "distance \(fmt(v.distance)) m < \(fmt(minDistance, 0)) m")) }
        if v.duration < minDuration { v.reasons.append(Reason(code: .tooBrief, detail: "duration \(fmt(v.duration)) s < \(fmt(minDuration, 0)) s")) }
        if let c = v.closure, c > maxClosure { v.reasons.append(Reason(code: .notClosed, detail: "start and end \(fmt(c)) m apart > \(fmt(maxClosure, 0)) m")) }
        if spike, let f = fastest {
            v.reasons.append(Reason(code: .speedSpike, detail: "\(fmt(f.0)) km/h > \(fmt(maxSpeedKmh, 0)) km/h between fixes \(f.1) and \(f.2)"))
        }
        if let l = longest, l.0 > maxJump {
            v.reasons.append(Reason(code: .teleport, detail: "a \(fmt(l.0)) m jump > \(fmt(maxJump, 0)) m between fixes \(l.1) and \(l.2)"))
        }
        if let b = backwards { v.reasons.append(Reason(code: .timeBackwards, detail: "fix \(b) is earlier than the fix before it")) }

        // CONTRACTS §8c. Faster than a world record: two pointers per window, O(n · windows);
        // the first window (in the table's order) with a stretch under its record, its first
        // such stretch by end fix. A run with a speed spike, a teleport or times that go
        // backwards has its reasons above (a glitch is not a pace) and is not measured here.
        if backwards == nil, !spike, v.maxJump <= maxJump, k.count >= 2 {
            search: for w in recordWindows {
                var i = 0
                let record = w.micros
                for j in 1..<k.count where along[j] >= w.metres {
                    while along[j] - along[i + 1] >= w.metres { i += 1 }
                    let dt = run.time[k[j]] - run.time[k[i]]
                    if dt < record {
                        v.reasons.append(Reason(code: .fasterThanRecord, detail: "fixes \(k[i])…\(k[j]) cover \(Self.tenths(along[j] - along[i])) m in \(Self.tenths(micros: dt)) s, faster than the men's world record for \(w.name) (\(fmt(w.seconds, 2)) s)"))
                        break search
                    }
                }
            }
        }
        if let area = Self.loopArea(run, kept: k) {
            v.loopArea = area
            if area > maxLoopArea {
                v.reasons.append(Reason(code: .overCap, detail: "the loop encloses \(Self.tenths(area / 1e6)) km², more than the \(Self.tenths(maxLoopArea / 1e6)) km² a loop of the 24-hour record's length (319.614 km) can"))
            }
        }
        if let s = run.simulated.firstIndex(of: true) {
            v.reasons.append(Reason(code: .simulatedFix, detail: "fix \(s) is marked simulated (properties.simulated), \(run.simulated.lazy.filter { $0 }.count) of \(run.fixCount) fixes"))
        }
        return v
    }

    /// The area (m², authalic sphere) of the kept fixes' loop, closed back to the first; nil
    /// for fewer than three distinct fixes (as `RunLoop`). A loop around a pole (its longitude
    /// steps add up to a whole turn) encloses the cap on the pole's side: the sphere's half
    /// less what `Sphere.approximateRingArea` gives (the area from the ring to the equator).
    public static func loopArea(_ run: Run, kept: [Int]) -> Double? {
        guard let first = kept.first else { return nil }
        var ring = kept.map { Point(run.lon[$0], run.lat[$0]) }
        if ring[ring.count - 1] != ring[0] { ring.append(Point(run.lon[first], run.lat[first])) }
        guard ring.count >= 4 else { return nil }
        let r = Earth.authalicRadiusKm * 1000
        let a = Sphere.approximateRingArea(ring, radius: r)
        var turn = 0.0
        for i in 1..<ring.count {
            var d = ring[i].x - ring[i - 1].x
            if d > 180 { d -= 360 } else if d < -180 { d += 360 }
            turn += d
        }
        return abs(turn) > 180 ? abs(2 * Double.pi * (r * r) - a) : a
    }

    /// A figure ≥ 0 to a tenth, halves up: ⌊10x + 0.5⌋ tenths. The SQL mirror (submit_run_rules)
    /// writes the same digits with the same arithmetic (printf's %.1f and numeric rounding differ
    /// on some halves).
    public static func tenths(_ x: Double) -> String {
        let t = Int64((x * 10 + 0.5).rounded(.down))
        return "\(t / 10).\(t % 10)"
    }
    /// Microseconds ≥ 0 as seconds to a tenth, halves up (integer arithmetic).
    public static func tenths(micros: Int64) -> String {
        let t = (micros + 50_000) / 100_000
        return "\(t / 10).\(t % 10)"
    }
}

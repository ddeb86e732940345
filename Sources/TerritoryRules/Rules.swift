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

    public init() {}
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
    }
    public var code: Code
    public var detail: String
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
        return v
    }
}

import Foundation
import GeoModel
import TerritoryRules
import Parallelism

/// A run the reader refused (a field missing, malformed or inconsistent): quarantined with the
/// reason naming the field, while the night goes on without it.
public typealias RejectedRun = FeatureStream.Rejected

/// Reads the runs FeatureCollection with GeoModel's streaming reader (`FeatureStream` over a
/// `MappedFile`): a nightly file holds millions of fixes with a time string each, so each run
/// is decoded straight into arrays of numbers (`JSONCursor.run`, below; no JSON tree, no
/// String per time). A feature that breaks the format (a run without a user, times that do not
/// parse or do not match the fixes, a number that is NaN) is a malformed run: it is quarantined
/// with the file, the feature and the problem (`RejectedRun`); so is a run whose id an earlier
/// run has (that rule is the game's, kept here). A file that is not JSON or not a
/// FeatureCollection stops the reading at once.
public enum RunsReader {
    /// The runs, throwing the first malformed run's error (for callers that take no rejects).
    public static func read(path: String, workers: Int = Parallel.defaultWorkers) throws -> [Run] {
        try parse(try FileIO.readBytes(path), file: path, workers: workers)
    }

    public static func parse(_ bytes: [UInt8], file: String, workers: Int = Parallel.defaultWorkers) throws -> [Run] {
        let (runs, rejected) = try bytes.withUnsafeBufferPointer { try parse(buffer: $0, file: file, workers: workers) }
        if let first = rejected.first { throw first.error(file: file) }
        return runs
    }

    /// The plain reader: one pass finds the features, a second decodes them in parallel. The
    /// runs and the malformed features, each in file order.
    static func parse(buffer buf: UnsafeBufferPointer<UInt8>, file: String, workers: Int) throws -> ([Run], [RejectedRun]) {
        var read = try FeatureStream.read(buf, file: file, workers: workers) { c, index in
            try c.run(index: index)
        }
        quarantineDuplicates(&read, id: \.id)
        return (read.features.map(\.value), read.rejected)
    }

    /// How far past the server's clock a run may end (a phone's clock a little fast), µs: a run
    /// ending later is refused (CONTRACTS §8c, fair time). submit_run refuses the same, in the
    /// same words (`future`), against `now()`; a night from a file against its clock.
    public static let clockSkew: Int64 = 120_000_000

    /// The refusal of a run whose `times[k]` is the first past the clock and its skew.
    public static func future(_ k: Int) -> String {
        "times[\(k)] is in the future: more than 2 minutes past the server's clock"
    }

    static func duplicate(_ first: Int) -> String { "the run id appears twice (also feature #\(first))" }

    /// A worker's decoding storage (reused from run to run) and its own state.
    final class Scratch<S> {
        var run = Run(index: 0, id: "", userID: "", lon: [], lat: [], time: [], accuracy: [])
        let state: S
        init(_ s: S) { state = s }
    }

    /// The night as read: each run's result with its feature index and id, and the features
    /// that were quarantined, both in file order.
    public struct Read<R> {
        public var runs: [(index: Int, id: String, value: R)] = []
        public var rejected: [RejectedRun] = []
        public var features: Int { runs.count + rejected.count }
        public init() {}
    }

    /// Decodes every run of the FeatureCollection and hands each to `body` as soon as it is
    /// decoded, on all workers at once (`FeatureStream.each`); results in file order, with each
    /// run's id. A malformed feature is skipped and listed in `rejected` (a later feature with an
    /// id seen before too). An error from `body` is thrown for the first run, in file order, that
    /// is not a duplicate, naming it as a single reader would.
    public static func eachRun<S, R: Sendable>(
        _ buf: UnsafeBufferPointer<UInt8>, file: String, workers: Int, makeState: @Sendable () -> S, endsBy: Int64? = nil,
        released: (@Sendable (Range<Int>) -> Void)? = nil, _ body: @Sendable (inout Run, S) throws -> R
    ) throws -> Read<R> {
        // A run `body` failed on is kept as decoded (its index the ranged pass's, counted from
        // its range's start) so that it can be redone under its index in the file.
        var read = try FeatureStream.each(buf, file: file, workers: workers, makeState: { Scratch(makeState()) },
                                          released: released) { c, index, scratch -> (id: String, value: Result<R, BodyFailed>) in
            try c.run(index: index, into: &scratch.run)
            if let endsBy, let k = scratch.run.time.firstIndex(where: { $0 > endsBy }) { throw c.reject(future(k)) }
            let decoded = scratch.run
            do { return (decoded.id, .success(try body(&scratch.run, scratch.state))) } catch { return (decoded.id, .failure(BodyFailed(run: decoded))) }
        }
        quarantineDuplicates(&read, id: \.id)
        var out = Read<R>()
        out.rejected = read.rejected
        out.runs.reserveCapacity(read.features.count)
        for f in read.features {
            switch f.value.value {
            case .success(let value): out.runs.append((f.index, f.value.id, value))
            case .failure(var failed):
                // The first failed run in file order, redone under its index in the file: its
                // error names it as a single reader would.
                failed.run.index = f.index
                out.runs.append((f.index, f.value.id, try body(&failed.run, makeState())))
            }
        }
        return out
    }

    /// A run `body` threw for in the ranged pass, as it was decoded.
    struct BodyFailed: Error { var run: Run }

    /// A run whose id an earlier run has is quarantined (the first keeps it).
    static func quarantineDuplicates<T>(_ read: inout FeatureStream.Read<T>, id: (T) -> String) {
        var seen: [String: Int] = [:]
        var dup: [RejectedRun] = []
        read.features.removeAll { f in
            let runID = id(f.value)
            if let first = seen[runID] { dup.append(RejectedRun(index: f.index, id: runID, reason: duplicate(first))); return true }
            seen[runID] = f.index
            return false
        }
        if !dup.isEmpty { read.rejected = (read.rejected + dup).sorted { $0.index < $1.index } }
    }

    /// The most characters of a client's text a refusal quotes (a run id, a time…): a longer
    /// text is cut to its first `quotedMaximum - 1` and "…", so that a refusal, its log line and
    /// the server's log stay small whatever a client sends. Characters are Unicode scalars, as
    /// PostgreSQL counts them: submit_run's refusals quote the same (submit_run_clip).
    public static let quotedMaximum = 80

    /// `s` as a refusal quotes it (`quotedMaximum`).
    public static func clip(_ s: String) -> String {
        let u = s.unicodeScalars
        guard let cut = u.index(u.startIndex, offsetBy: quotedMaximum - 1, limitedBy: u.endIndex), cut != u.endIndex,
              u.index(after: cut) != u.endIndex else { return s }
        return String(u[..<cut]) + "…"
    }

    /// A canonical lower-case UUID, or nil when `s` is not one (8-4-4-4-12 hex digits).
    public static func canonicalUUID(_ s: String) -> String? {
        let u = Array(s.utf8)
        guard u.count == 36 else { return nil }
        var out = [UInt8](); out.reserveCapacity(36)
        for (i, c) in u.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 { guard c == 0x2D else { return nil }; out.append(c); continue }
            switch c {
            case 0x30...0x39, 0x61...0x66: out.append(c)
            case 0x41...0x46: out.append(c + 0x20)
            default: return nil
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension JSONCursor {
    /// One run feature, decoded and checked against the format of CONTRACTS §8.
    mutating func run(index: Int) throws -> Run {
        var decoded = Run(index: index, id: "", userID: "", lon: [], lat: [], time: [], accuracy: [])
        try run(index: index, into: &decoded)
        return decoded
    }

    /// The same into `run`, whose arrays are reused (a worker decodes thousands of runs
    /// into the same storage instead of growing fresh arrays for each).
    mutating func run(index: Int, into run: inout Run) throws {
        featureIndex = index
        featureID = nil
        var id: String?, user: String?, hasUserKey = false
        // Moved out of `run` (not copied), emptied, refilled, moved back.
        var lon = run.lon, lat = run.lat, times = run.time, acc = run.accuracy, simulated = run.simulated
        run.lon = []; run.lat = []; run.time = []; run.accuracy = []; run.simulated = []
        lon.removeAll(keepingCapacity: true); lat.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true); acc.removeAll(keepingCapacity: true); simulated.removeAll(keepingCapacity: true)
        // properties.simulated (CONTRACTS §8c, optional; null is as if absent): whether it is
        // present, not an array, and its first entry that is not a boolean.
        var hasSimulated = false, simulatedNotArray = false, badSimulated: Int? = nil
        var geomType: String?, hasTimes = false, hasAcc = false, type: String?
        var badTime: (Int, String)? = nil
        try object { c, key in
            switch key {
            case "type": type = try c.string()
            case "id":
                if try c.peek() == 0x22 { id = try c.string(); c.featureID = id.map(RunsReader.clip) } else { try c.skip(); id = "" }
            case "geometry":
                if try c.peek() == 0x6E { try c.skip(); return }  // null geometry: reported below
                try c.object { c, key in
                    switch key {
                    case "type": geomType = try c.string()
                    case "coordinates":
                        // Not an array of positions (a Point's, say): skipped, the type check names it.
                        let save = c.pos
                        try c.expect(0x5B)
                        let first = try c.peek()
                        c.pos = save
                        if first != 0x5B && first != 0x5D { try c.skip(); return }
                        var k = 0
                        try c.array { c in
                            var n = 0
                            try c.array { c in
                                let v = try c.number("coordinate \(k)")
                                if n == 0 { lon.append(v) } else if n == 1 { lat.append(v) }
                                n += 1
                            }
                            guard n >= 2 else { throw c.reject("coordinate \(k) has \(n) numbers, not [lon, lat]") }
                            k += 1
                        }
                    default: try c.skip()
                    }
                }
            case "properties":
                if try c.peek() == 0x6E { try c.skip(); return }
                try c.object { c, key in
                    switch key {
                    case "user_id":
                        hasUserKey = true
                        if try c.peek() == 0x22 { user = try c.string() } else { try c.skip() }
                    case "times":
                        hasTimes = true
                        var sameDay = Timestamp.SameDay()
                        try c.array { c in
                            let i = times.count
                            let save = c.pos
                            if let raw = try c.rawString(), let t = Timestamp.parse(raw, sameDay: &sameDay) {
                                times.append(t)
                            } else {
                                c.pos = save
                                let text = try c.peek() == 0x22 ? try c.string() : { try c.skip(); return "a non-string value" }()
                                if badTime == nil { badTime = (i, text) }
                                times.append(0)
                            }
                        }
                    case "accuracy_m":
                        hasAcc = true
                        try c.array { c in acc.append(try c.number("accuracy_m[\(acc.count)]")) }
                    case "simulated":
                        switch try c.peek() {
                        case 0x6E: try c.skip()
                        case 0x5B:
                            hasSimulated = true
                            try c.array { c in
                                switch try c.peek() {
                                case 0x74: try c.literal("true"); simulated.append(true)
                                case 0x66: try c.literal("false"); simulated.append(false)
                                default:
                                    try c.skip()
                                    if badSimulated == nil { badSimulated = simulated.count }
                                    simulated.append(false)
                                }
                            }
                        default: try c.skip(); hasSimulated = true; simulatedNotArray = true
                        }
                    default: try c.skip()
                    }
                }
            default: try c.skip()
            }
        }
        // Every problem below names the run; the id first, since everything else refers to it.
        guard type == "Feature" else { throw reject("is not a GeoJSON Feature (type is \(type.map { "\"\(RunsReader.clip($0))\"" } ?? "missing"))") }
        guard let rawID = id else { throw reject("the run has no id") }
        guard let runID = RunsReader.canonicalUUID(rawID) else { throw reject("the run id \(rawID.isEmpty ? "is not a string" : "\"\(RunsReader.clip(rawID))\" is not a UUID")") }
        featureID = runID
        guard geomType == "LineString" else { throw reject("the geometry is \(geomType.map { "a \(RunsReader.clip($0))" } ?? "missing"), not a LineString of fixes") }
        guard let rawUser = user else { throw reject(hasUserKey ? "properties.user_id is not a string" : "the run has no properties.user_id") }
        guard let userID = RunsReader.canonicalUUID(rawUser) else { throw reject("properties.user_id \"\(RunsReader.clip(rawUser))\" is not a UUID") }
        guard hasTimes else { throw reject("the run has no properties.times") }
        guard hasAcc else { throw reject("the run has no properties.accuracy_m") }
        if let (i, text) = badTime { throw reject("times[\(i)] \(RunsReader.clip(text).debugDescription) is not an ISO 8601 time with a zone (e.g. 2026-11-21T07:02:11Z)") }
        guard times.count == lon.count else { throw reject("properties.times has \(times.count) entries for \(lon.count) fixes") }
        guard acc.count == lon.count else { throw reject("properties.accuracy_m has \(acc.count) entries for \(lon.count) fixes") }
        for i in 0..<lon.count {
            guard lon[i] >= -180, lon[i] <= 180, lat[i] >= -90, lat[i] <= 90 else {
                throw reject("fix \(i) [\(lon[i]), \(lat[i])] is outside longitude −180…180, latitude −90…90")
            }
            guard acc[i] >= 0 else { throw reject("accuracy_m[\(i)] is \(acc[i]), a negative accuracy") }
        }
        if hasSimulated {
            guard !simulatedNotArray else { throw reject("properties.simulated is not an array of booleans") }
            if let i = badSimulated { throw reject("simulated[\(i)] is not a boolean (true or false)") }
            guard simulated.count == lon.count else { throw reject("properties.simulated has \(simulated.count) entries for \(lon.count) fixes") }
        }
        run.index = index; run.id = runID; run.userID = userID
        run.lon = lon; run.lat = lat; run.time = times; run.accuracy = acc; run.simulated = simulated
    }
}

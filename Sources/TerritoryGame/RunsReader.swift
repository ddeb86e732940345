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
        _ buf: UnsafeBufferPointer<UInt8>, file: String, workers: Int, makeState: @Sendable () -> S,
        released: (@Sendable (Range<Int>) -> Void)? = nil, _ body: @Sendable (inout Run, S) throws -> R
    ) throws -> Read<R> {
        // A run `body` failed on is kept as decoded (its index the ranged pass's, counted from
        // its range's start) so that it can be redone under its index in the file.
        var read = try FeatureStream.each(buf, file: file, workers: workers, makeState: { Scratch(makeState()) },
                                          released: released) { c, index, scratch -> (id: String, value: Result<R, BodyFailed>) in
            try c.run(index: index, into: &scratch.run)
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
        var lon = run.lon, lat = run.lat, times = run.time, acc = run.accuracy
        run.lon = []; run.lat = []; run.time = []; run.accuracy = []
        lon.removeAll(keepingCapacity: true); lat.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true); acc.removeAll(keepingCapacity: true)
        var geomType: String?, hasTimes = false, hasAcc = false, type: String?
        var badTime: (Int, String)? = nil
        try object { c, key in
            switch key {
            case "type": type = try c.string()
            case "id":
                if try c.peek() == 0x22 { id = try c.string(); c.featureID = id } else { try c.skip(); id = "" }
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
                    default: try c.skip()
                    }
                }
            default: try c.skip()
            }
        }
        // Every problem below names the run; the id first, since everything else refers to it.
        guard type == "Feature" else { throw reject("is not a GeoJSON Feature (type is \(type.map { "\"\($0)\"" } ?? "missing"))") }
        guard let rawID = id else { throw reject("the run has no id") }
        guard let runID = RunsReader.canonicalUUID(rawID) else { throw reject("the run id \(rawID.isEmpty ? "is not a string" : "\"\(rawID)\" is not a UUID")") }
        featureID = runID
        guard geomType == "LineString" else { throw reject("the geometry is \(geomType.map { "a \($0)" } ?? "missing"), not a LineString of fixes") }
        guard let rawUser = user else { throw reject(hasUserKey ? "properties.user_id is not a string" : "the run has no properties.user_id") }
        guard let userID = RunsReader.canonicalUUID(rawUser) else { throw reject("properties.user_id \"\(rawUser)\" is not a UUID") }
        guard hasTimes else { throw reject("the run has no properties.times") }
        guard hasAcc else { throw reject("the run has no properties.accuracy_m") }
        if let (i, text) = badTime { throw reject("times[\(i)] \(text.debugDescription) is not an ISO 8601 time with a zone (e.g. 2026-11-21T07:02:11Z)") }
        guard times.count == lon.count else { throw reject("properties.times has \(times.count) entries for \(lon.count) fixes") }
        guard acc.count == lon.count else { throw reject("properties.accuracy_m has \(acc.count) entries for \(lon.count) fixes") }
        for i in 0..<lon.count {
            guard lon[i] >= -180, lon[i] <= 180, lat[i] >= -90, lat[i] <= 90 else {
                throw reject("fix \(i) [\(lon[i]), \(lat[i])] is outside longitude −180…180, latitude −90…90")
            }
            guard acc[i] >= 0 else { throw reject("accuracy_m[\(i)] is \(acc[i]), a negative accuracy") }
        }
        run.index = index; run.id = runID; run.userID = userID
        run.lon = lon; run.lat = lat; run.time = times; run.accuracy = acc
    }
}

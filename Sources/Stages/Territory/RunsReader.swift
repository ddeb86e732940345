import Foundation
import GeoModel

/// A run the reader refused (a field missing, malformed or inconsistent): quarantined with the
/// reason naming the field, while the night goes on without it.
public struct RejectedRun: Sendable, Equatable {
    /// 0-based position of the feature in its file.
    public var index: Int
    /// The run's id when it has one (canonical when it is a UUID).
    public var id: String?
    public var reason: String
    public init(index: Int, id: String?, reason: String) { self.index = index; self.id = id; self.reason = reason }

    /// The error the plain reader gives for it (file, feature, id, problem).
    public func error(file: String) -> InputError { InputError(file: file, feature: FeatureRef(index: index, name: nil, id: id), reason) }
}

/// A problem with one feature's fields (as opposed to the file's JSON): that run is malformed,
/// the features after it can still be read.
struct MalformedRun: Error, CustomStringConvertible {
    var error: InputError
    var description: String { error.description }
    func rejected(index: Int) -> RejectedRun { RejectedRun(index: index, id: error.feature?.id, reason: error.problem) }
}

/// Reads the runs FeatureCollection. A nightly file holds millions of fixes with a time string
/// each, so this is a typed reader over the bytes: one pass finds the features, then they are
/// decoded in parallel straight into arrays of numbers (no JSON tree, no String per time).
/// A feature that breaks the format (a run without a user, times that do not parse or do not
/// match the fixes, a number that is NaN, an id seen before) is a malformed run: it is
/// quarantined with the file, the feature and the problem (`RejectedRun`). A file that is not
/// JSON or not a FeatureCollection stops the reading at once.
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
        var c = Cursor(buf: buf, file: file)
        let ranges = try c.featureRanges()
        let base = UInt(bitPattern: buf.baseAddress)
        let count = buf.count
        let decoded = try Parallel.map(Array(ranges.enumerated()), workers: workers, makeState: { () }) { item, _ -> Result<Run, MalformedRun> in
            let (index, range) = item
            let b = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: base), count: count)
            var fc = Cursor(buf: b, file: file)
            fc.pos = range.lowerBound
            do { return .success(try fc.feature(index: index)) } catch let m as MalformedRun { return .failure(m) }
        }
        var runs: [Run] = [], rejected: [RejectedRun] = []
        var seen: [String: Int] = [:]
        for (i, d) in decoded.enumerated() {
            switch d {
            case .failure(let m): rejected.append(m.rejected(index: i))
            case .success(let r):
                if let first = seen[r.id] { rejected.append(RejectedRun(index: i, id: r.id, reason: duplicate(first))); continue }
                seen[r.id] = i
                runs.append(r)
            }
        }
        return (runs, rejected)
    }

    static func duplicate(_ first: Int) -> String { "the run id appears twice (also feature #\(first))" }

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

    struct Cursor {
        let buf: UnsafeBufferPointer<UInt8>
        let file: String
        var pos = 0
        var featureIndex: Int? = nil
        var featureID: String? = nil

        init(buf: UnsafeBufferPointer<UInt8>, file: String) { self.buf = buf; self.file = file }

        func fail(_ problem: String) -> InputError {
            InputError(file: file, feature: featureIndex.map { FeatureRef(index: $0, name: nil, id: featureID) }, problem)
        }
        /// A problem with one run's fields: the run is malformed, the file around it is not.
        func reject(_ problem: String) -> MalformedRun { MalformedRun(error: fail(problem)) }
        func syntax(_ message: String) -> InputError {
            var line = 1, col = 1, i = 0
            while i < min(pos, buf.count) { if buf[i] == 0x0A { line += 1; col = 1 } else { col += 1 }; i += 1 }
            return fail("invalid JSON at line \(line), column \(col): \(message)")
        }

        @inline(__always) mutating func ws() {
            while pos < buf.count {
                let c = buf[pos]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { return }
            }
        }
        @inline(__always) mutating func peek() throws -> UInt8 {
            ws()
            guard pos < buf.count else { throw syntax("the file ends early") }
            return buf[pos]
        }
        mutating func expect(_ c: UInt8) throws {
            let p = try peek()
            guard p == c else { throw syntax("expected '\(Character(UnicodeScalar(c)))', found '\(Character(UnicodeScalar(p)))'") }
            pos += 1
        }

        /// Iterates an object's members: `body` is called with the key, positioned on the value,
        /// and must consume the value.
        mutating func object(_ body: (inout Cursor, String) throws -> Void) throws {
            try expect(0x7B)
            if try peek() == 0x7D { pos += 1; return }
            while true {
                let key = try string()
                try expect(0x3A)
                try body(&self, key)
                let c = try peek()
                pos += 1
                if c == 0x7D { return }
                guard c == 0x2C else { pos -= 1; throw syntax("expected ',' or '}' in an object") }
            }
        }

        /// Iterates an array's elements; `body` must consume one value.
        mutating func array(_ body: (inout Cursor) throws -> Void) throws {
            try expect(0x5B)
            if try peek() == 0x5D { pos += 1; return }
            while true {
                try body(&self)
                let c = try peek()
                pos += 1
                if c == 0x5D { return }
                guard c == 0x2C else { pos -= 1; throw syntax("expected ',' or ']' in an array") }
            }
        }

        /// The raw bytes of a string without escapes (the common case), or nil when it has escapes.
        mutating func rawString() throws -> UnsafeBufferPointer<UInt8>? {
            guard try peek() == 0x22 else { throw syntax("expected a string") }
            let start = pos + 1
            var i = start
            while i < buf.count {
                let c = buf[i]
                if c == 0x22 { pos = i + 1; return UnsafeBufferPointer(rebasing: buf[start..<i]) }
                if c == 0x5C { return nil }
                if c < 0x20 { pos = i; throw syntax("a control character inside a string") }
                i += 1
            }
            pos = i
            throw syntax("the file ends inside a string")
        }

        mutating func string() throws -> String {
            let save = pos
            if let raw = try rawString() {
                guard let s = String(validating: raw, as: UTF8.self) else { throw syntax("a string that is not UTF-8") }
                return s
            }
            pos = save
            ws(); pos += 1
            var out = [UInt8]()
            while pos < buf.count {
                let c = buf[pos]; pos += 1
                if c == 0x22 {
                    guard let s = String(validating: out, as: UTF8.self) else { throw syntax("a string that is not UTF-8") }
                    return s
                }
                if c != 0x5C { out.append(c); continue }
                guard pos < buf.count else { break }
                let e = buf[pos]; pos += 1
                switch e {
                case 0x22, 0x5C, 0x2F: out.append(e)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    guard pos + 4 <= buf.count, let v = UInt32(String(decoding: buf[pos..<pos + 4], as: UTF8.self), radix: 16) else { throw syntax("a bad \\u escape") }
                    pos += 4
                    var scalar = v
                    if (0xD800..<0xDC00).contains(v), pos + 6 <= buf.count, buf[pos] == 0x5C, buf[pos + 1] == 0x75,
                       let lo = UInt32(String(decoding: buf[pos + 2..<pos + 6], as: UTF8.self), radix: 16), (0xDC00..<0xE000).contains(lo) {
                        pos += 6
                        scalar = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00)
                    }
                    out.append(contentsOf: Array(String(UnicodeScalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
                default: throw syntax("a bad escape in a string")
                }
            }
            throw syntax("the file ends inside a string")
        }

        /// A JSON number. NaN and Infinity are not JSON; some writers emit them anyway, and
        /// they get their own message.
        mutating func number(_ what: @autoclosure () -> String) throws -> Double {
            let c = try peek()
            if c == 0x4E || c == 0x49 || (c == 0x2D && pos + 1 < buf.count && buf[pos + 1] == 0x49) {
                throw reject("\(what()) is \(c == 0x4E ? "NaN" : "infinite"), not a finite number")
            }
            if c == 0x6E, pos + 4 <= buf.count, buf[pos + 1] == 0x75 { throw reject("\(what()) is null, not a number") }
            if c == 0x22 { throw reject("\(what()) is a string, not a number") }
            let start = pos
            var neg = false
            if buf[pos] == 0x2D { neg = true; pos += 1 }
            var mant: UInt64 = 0, digits = 0, exp10 = 0
            var any = false
            while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 {
                if digits < 19 { mant = mant * 10 + UInt64(buf[pos] - 0x30); if mant > 0 { digits += 1 } } else { exp10 += 1 }
                pos += 1; any = true
            }
            if pos < buf.count, buf[pos] == 0x2E {
                pos += 1
                var fr = false
                while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 {
                    if digits < 19 { mant = mant * 10 + UInt64(buf[pos] - 0x30); exp10 -= 1; if mant > 0 { digits += 1 } }
                    pos += 1; fr = true
                }
                guard fr else { throw syntax("a number with no digits after '.'") }
            }
            guard any else { throw reject("\(what()) is not a number") }
            var slow = digits > 15
            if pos < buf.count, buf[pos] == 0x65 || buf[pos] == 0x45 { slow = true; pos += 1
                if pos < buf.count, buf[pos] == 0x2B || buf[pos] == 0x2D { pos += 1 }
                var e = false
                while pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x39 { pos += 1; e = true }
                guard e else { throw syntax("a number with an empty exponent") }
            }
            if !slow && exp10 >= -22 && exp10 <= 22 {
                // Exact: both the mantissa (< 2^53) and 10^|e| (≤ 10^22) are exact doubles, and
                // one IEEE multiplication or division rounds correctly.
                var v = Double(mant)
                v = exp10 < 0 ? v / PowersOfTen.table[-exp10] : v * PowersOfTen.table[exp10]
                return neg ? -v : v
            }
            guard let v = Double(String(decoding: buf[start..<pos], as: UTF8.self)) else { throw reject("\(what()) is not a number") }
            guard v.isFinite else { throw reject("\(what()) is out of range") }
            return v
        }

        /// Skips one value of any kind, checking its structure only as far as needed to find its end.
        mutating func skip() throws {
            let c = try peek()
            switch c {
            case 0x22: if try rawString() == nil { _ = try string() }
            case 0x7B, 0x5B:
                var depth = 0
                while pos < buf.count {
                    let b = buf[pos]
                    if b == 0x22 { if try rawString() == nil { _ = try string() }; continue }
                    pos += 1
                    if b == 0x7B || b == 0x5B { depth += 1 } else if b == 0x7D || b == 0x5D { depth -= 1; if depth == 0 { return } }
                }
                throw syntax("the file ends inside an object or array")
            default:
                let start = pos
                while pos < buf.count, !(buf[pos] == 0x2C || buf[pos] == 0x7D || buf[pos] == 0x5D || buf[pos] == 0x20 || buf[pos] == 0x0A || buf[pos] == 0x0D || buf[pos] == 0x09) { pos += 1 }
                if pos == start { throw syntax("expected a value") }
            }
        }

        /// Pass 1: the byte ranges of the features of the top-level FeatureCollection.
        mutating func featureRanges() throws -> [Range<Int>] {
            if buf.count >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF { pos = 3 }
            var ranges: [Range<Int>]? = nil
            var type: String? = nil
            try object { c, key in
                switch key {
                case "type": type = try c.string()
                case "features":
                    var r: [Range<Int>] = []
                    try c.array { c in
                        c.ws()
                        let s = c.pos
                        guard c.buf[s] == 0x7B else { throw c.syntax("a feature must be an object") }
                        try c.skip()
                        r.append(s..<c.pos)
                    }
                    ranges = r
                default: try c.skip()
                }
            }
            ws()
            guard pos == buf.count else { throw syntax("unexpected characters after the FeatureCollection") }
            guard type == "FeatureCollection" else { throw fail("is not a GeoJSON FeatureCollection (type is \(type.map { "\"\($0)\"" } ?? "missing"))") }
            guard let r = ranges else { throw fail("the FeatureCollection has no features array") }
            return r
        }

        /// Pass 2: one feature, decoded and checked against the format of CONTRACTS §8.
        mutating func feature(index: Int) throws -> Run {
            var run = Run(index: index, id: "", userID: "", lon: [], lat: [], time: [], accuracy: [])
            try feature(index: index, into: &run)
            return run
        }

        /// The same into `run`, whose arrays are reused (a worker decodes thousands of runs
        /// into the same storage instead of growing fresh arrays for each).
        mutating func feature(index: Int, into run: inout Run) throws {
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
                            try c.array { c in
                                let i = times.count
                                let save = c.pos
                                if let raw = try c.rawString(), let t = Timestamp.parse(raw) {
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
}

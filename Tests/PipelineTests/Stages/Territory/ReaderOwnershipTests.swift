import Foundation
import GeoModel
import H3
import SeededRandom
import Testing
@testable import TerritoryStage
@testable import TerritoryGame
import TerritoryRules

@Suite struct TerritoryReaderTests {
    static let runID = "7f0c1a52-3b4d-4e5f-8a9b-0c1d2e3f4a5b"
    static let user = "11111111-2222-4333-8444-555555555555"

    /// A one-run FeatureCollection; `props` replaces the properties' JSON when given.
    func file(coords: String = "[[4.86,52.35],[4.861,52.35],[4.861,52.351]]",
              times: String = "[\"2026-11-21T07:00:00Z\",\"2026-11-21T07:00:10Z\",\"2026-11-21T07:00:20.5Z\"]",
              acc: String = "[4.8,5,6]", user: String? = "\"\(user)\"", id: String = "\"\(runID)\"") -> [UInt8] {
        let u = user.map { "\"user_id\":\($0)," } ?? ""
        return Array("""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":\(id),"geometry":{"type":"LineString","coordinates":\(coords)},
         "properties":{\(u)"times":\(times),"accuracy_m":\(acc)}}]}
        """.utf8)
    }

    func error(_ bytes: [UInt8]) -> String {
        do { _ = try RunsReader.parse(bytes, file: "runs.geojson", workers: 1); return "no error" } catch { return "\(error)" }
    }

    @Test func readsARun() throws {
        let runs = try RunsReader.parse(file(), file: "runs.geojson", workers: 1)
        #expect(runs.count == 1)
        let r = runs[0]
        #expect(r.id == Self.runID && r.userID == Self.user)
        #expect(r.lon == [4.86, 4.861, 4.861] && r.lat == [52.35, 52.35, 52.351])
        #expect(r.time[2] - r.time[0] == 20_500_000)
        #expect(Timestamp.iso(r.time[0]) == "2026-11-21T07:00:00Z")
        #expect(r.accuracy == [4.8, 5, 6])
    }

    /// properties.simulated (CONTRACTS §8c): optional, null as if absent, else one boolean a fix.
    @Test func simulatedIsRead() throws {
        #expect(try RunsReader.parse(file(), file: "runs.geojson", workers: 1)[0].simulated == [])
        let sim = try RunsReader.parse(file(acc: "[4.8,5,6],\"simulated\":[false,true,false]"), file: "runs.geojson", workers: 1)
        #expect(sim[0].simulated == [false, true, false])
        #expect(try RunsReader.parse(file(acc: "[4.8,5,6],\"simulated\":null"), file: "runs.geojson", workers: 1)[0].simulated == [])
        #expect(error(file(acc: "[4.8,5,6],\"simulated\":true")).contains("properties.simulated is not an array of booleans"))
        #expect(error(file(acc: "[4.8,5,6],\"simulated\":[false,1,false]")).contains("simulated[1] is not a boolean (true or false)"))
        #expect(error(file(acc: "[4.8,5,6],\"simulated\":[false,false]")).contains("properties.simulated has 2 entries for 3 fixes"))
    }

    /// A FeatureCollection of `count` runs, big enough to be cut into many ranges; every run has
    /// two look-alikes of a feature's start (`},{"` in an array of objects and across the end
    /// of a string), and run `bad` (if any) has a time that does not parse.
    func manyRuns(_ count: Int, bad: Set<Int> = []) -> [UInt8] {
        let fixes = (0..<40).map { "[4.\(860 + $0),52.35]" }.joined(separator: ",")
        let times = (0..<40).map { "\"2026-11-21T07:\(String(format: "%02d", $0)):00Z\"" }
        let acc = Array(repeating: "5", count: 40).joined(separator: ",")
        var s = "{\"type\": \"FeatureCollection\", \"features\": [\n"
        for i in 0..<count {
            let id = String(format: "7f0c1a52-3b4d-4e5f-8a9b-%012x", i)
            let t = (bad.contains(i) ? ["\"soon\""] + times.dropFirst() : times).joined(separator: ",")
            s += (i > 0 ? ",\n" : "") + "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(fixes)]},"
            s += "\"properties\":{\"laps\":[{\"a\":1},\n{\"a\":2}],\"note\":\"x} ,{\",\"user_id\":\"\(Self.user)\",\"times\":[\(t)],\"accuracy_m\":[\(acc)]}}"
        }
        return Array((s + "\n], \"name\": \"night\"}\n").utf8)
    }

    /// Runs decoded on many workers from guessed places in the file are exactly the runs one
    /// reader finds from the start, in order; look-alikes inside strings change nothing; an error
    /// names the same run as the plain reader does.
    @Test func rangesDecodeLikeOneReader() throws {
        let bytes = manyRuns(3000)
        #expect(bytes.count > 1 << 20)
        let plain = try RunsReader.parse(bytes, file: "f", workers: 1)
        for workers in [1, 2, 3] {
            let got = try bytes.withUnsafeBufferPointer { b in
                try RunsReader.eachRun(b, file: "f", workers: workers, makeState: { () }) { run, _ in (run.lon, run.time, run.userID) }
            }
            #expect(got.runs.map(\.id) == plain.map(\.id) && got.rejected.isEmpty)
            #expect(got.runs.map(\.index) == Array(0..<3000))
            #expect(got.runs.map(\.value.0) == plain.map(\.lon) && got.runs.map(\.value.1) == plain.map(\.time))
        }
        // A malformed run in the middle is quarantined with its index, id and reason, and every
        // other run is read, whatever the ranges; the plain reader throws it.
        let broken = manyRuns(3000, bad: [2345])
        let expected = error(broken)
        #expect(expected.hasPrefix("runs.geojson: feature #2345 "))
        for workers in [1, 2, 3] {
            let got = try broken.withUnsafeBufferPointer { b in
                try RunsReader.eachRun(b, file: "runs.geojson", workers: workers, makeState: { () }) { run, _ in run.id }
            }
            #expect(got.rejected.count == 1 && got.runs.count == 2999 && got.features == 3000)
            #expect(got.rejected.first.map { "\($0.error(file: "runs.geojson"))" } == expected)
            #expect(got.runs.map(\.index) == Array(0..<2345) + Array(2346..<3000))
        }
        // An error from the work done on each run names that run too.
        struct Boom: Error {}
        let thrown: String = bytes.withUnsafeBufferPointer { b in
            do {
                _ = try RunsReader.eachRun(b, file: "f", workers: 2, makeState: { () }) { run, _ in
                    try forFeature(file: "f", FeatureRef(index: run.index, name: nil, id: run.id)) { if run.id.hasSuffix("0000000007d0") { throw Boom() } }
                }
                return "no error"
            } catch { return "\(error)" }
        }
        #expect(thrown.hasPrefix("f: feature #2000 (id 7f0c1a52-3b4d-4e5f-8a9b-0000000007d0)"), "\(thrown)")
    }

    /// The night goes on with up to 10 malformed runs or 1 % of the night (whichever is larger),
    /// listing them in rejects.tsv; one more stops it, and nothing is written.
    @Test func quarantineThreshold() throws {
        let dir = NSTemporaryDirectory() + "territory-quarantine-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        func night(_ n: Int, bad: Int, maxRejects: Int? = nil) throws -> (TerritoryStage.Report?, String) {
            let input = "\(dir)/runs-\(n)-\(bad).geojson", out = "\(dir)/out-\(n)-\(bad)-\(maxRejects ?? -1)"
            try Data(manyRuns(n, bad: Set(stride(from: 3, to: n, by: n / bad).prefix(bad)))).write(to: URL(fileURLWithPath: input))
            var o = TerritoryStage.Options()
            o.input = input; o.outputDir = out; o.runs.threads = 2; o.runs.maxRejects = maxRejects
            do { return (try TerritoryStage.run(o, log: StageLog(stage: "test", quiet: true)), out) } catch { return (nil, "\(error)") }
        }
        let (ok, out) = try night(1500, bad: 15)
        #expect(ok?.rejected == 15 && ok?.runs == 1485)
        let rows = try String(contentsOfFile: out + "/rejects.tsv", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 16 && rows[0] == "feature\trun_id\treason")
        #expect(rows[1] == "3\t7f0c1a52-3b4d-4e5f-8a9b-000000000003\ttimes[0] \"soon\" is not an ISO 8601 time with a zone (e.g. 2026-11-21T07:02:11Z)")
        let (stopped, message) = try night(1500, bad: 16)
        #expect(stopped == nil && message.contains("16 of 1,500 runs are malformed, more than the 15 a night may quarantine"))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out-1500-16--1"))
        #expect(try night(200, bad: 10).0?.rejected == 10)   // the floor of 10
        #expect(try night(200, bad: 11).0 == nil)
        #expect(try night(200, bad: 3, maxRejects: 2).0 == nil)
    }

    /// A second run with an id seen before is quarantined; the first keeps it.
    @Test func aRepeatedIdIsQuarantined() throws {
        var s = String(decoding: manyRuns(300), as: UTF8.self)
        s = s.replacingOccurrences(of: "7f0c1a52-3b4d-4e5f-8a9b-000000000100", with: "7f0c1a52-3b4d-4e5f-8a9b-000000000007")
        let got = try Array(s.utf8).withUnsafeBufferPointer { b in
            try RunsReader.eachRun(b, file: "f", workers: 2, makeState: { () }) { run, _ in run.id }
        }
        #expect(got.rejected == [RejectedRun(index: 256, id: "7f0c1a52-3b4d-4e5f-8a9b-000000000007", reason: "the run id appears twice (also feature #7)")])
        #expect(got.runs.count == 299)
    }

    @Test func upperCaseIdsAreCanonicalised() throws {
        let r = try RunsReader.parse(file(user: "\"\(Self.user.uppercased())\"", id: "\"\(Self.runID.uppercased())\""), file: "f", workers: 1)[0]
        #expect(r.id == Self.runID && r.userID == Self.user)
    }

    /// Each broken run is an error that names the file, the feature and the run.
    @Test func badInputNamesTheRun() {
        let at = "runs.geojson: feature #0 (id \(Self.runID)): "
        #expect(error(file(times: "[\"2026-11-21T07:00:00Z\",\"yesterday\",\"2026-11-21T07:00:20Z\"]"))
                == at + "times[1] \"yesterday\" is not an ISO 8601 time with a zone (e.g. 2026-11-21T07:02:11Z)")
        #expect(error(file(times: "[\"2026-11-21T07:00:00Z\",\"2026-11-21T07:00:10Z\"]")) == at + "properties.times has 2 entries for 3 fixes")
        #expect(error(file(times: "[\"2026-11-21T07:00:00\",\"2026-11-21T07:00:10Z\",\"2026-11-21T07:00:20Z\"]"))
                == at + "times[0] \"2026-11-21T07:00:00\" is not an ISO 8601 time with a zone (e.g. 2026-11-21T07:02:11Z)")
        #expect(error(file(coords: "[[4.86,52.35],[NaN,52.35],[4.861,52.351]]")) == "runs.geojson: feature #0 (id \(Self.runID)): coordinate 1 is NaN, not a finite number")
        #expect(error(file(acc: "[4.8,NaN,6]")) == at + "accuracy_m[1] is NaN, not a finite number")
        #expect(error(file(user: nil)) == at + "the run has no properties.user_id")
        #expect(error(file(user: "null")) == at + "properties.user_id is not a string")
        #expect(error(file(user: "\"bob\"")) == at + "properties.user_id \"bob\" is not a UUID")
        #expect(error(file(id: "\"run-1\"")) == "runs.geojson: feature #0 (id run-1): the run id \"run-1\" is not a UUID")
        #expect(error(file(acc: "[4.8,5]")) == at + "properties.accuracy_m has 2 entries for 3 fixes")
        #expect(error(file(coords: "[[4.86,52.35],[4.861,95],[4.861,52.351]]")) == at + "fix 1 [4.861, 95.0] is outside longitude −180…180, latitude −90…90")
        #expect(error(Array("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\"".utf8)).hasPrefix("runs.geojson: invalid JSON"))
    }

    @Test func aRepeatedRunIdIsAnError() {
        let one = String(decoding: file(), as: UTF8.self)
        let feature = one[one.range(of: "{\"type\":\"Feature\"")!.lowerBound..<one.index(one.endIndex, offsetBy: -2)]
        let two = "{\"type\":\"FeatureCollection\",\"features\":[\(feature),\(feature)]}"
        #expect(error(Array(two.utf8)) == "runs.geojson: feature #1 (id \(Self.runID)): the run id appears twice (also feature #0)")
    }

    @Test func timestamps() {
        #expect(Timestamp.parse("1970-01-01T00:00:00Z") == 0)
        #expect(Timestamp.parse("2026-11-21 07:02:11+00") == Timestamp.parse("2026-11-21T07:02:11Z"))
        #expect(Timestamp.parse("2026-11-21T08:02:11+01:00") == Timestamp.parse("2026-11-21T07:02:11Z"))
        #expect(Timestamp.parse("2026-11-21T07:02:11.123456Z")! - Timestamp.parse("2026-11-21T07:02:11Z")! == 123_456)
        #expect(Timestamp.parse("2026-11-21T07:02:11.1234567Z") == nil)  // finer than PostgreSQL keeps
        #expect(Timestamp.parse("2026-02-29T00:00:00Z") == nil)
        #expect(Timestamp.parse("2028-02-29T00:00:00Z") != nil)
        for s in ["2026-11-21T07:02:11Z", "1999-12-31T23:59:59.5Z", "2000-02-29T12:00:00.000001Z"] {
            #expect(Timestamp.iso(Timestamp.parse(s)!) == s)
        }
    }

    /// The same-date shortcut gives `parse`'s answer for every time, whatever came before it.
    @Test func sameDayTimesAreParsedAlike() {
        let times = ["2026-11-21T07:02:11Z", "2026-11-21T07:02:12Z", "2026-11-21T23:59:59Z", "2026-11-21T24:00:00Z",
                     "2026-11-21T07:60:00Z", "2026-11-21T07:02:60Z", "2026-11-21T07:02:1xZ", "2026-11-21T07-02:11Z",
                     "2026-11-21T07:02:11z", "2026-11-21T07:02:11+01", "2026-11-21T07:02:11.5Z", "2026-11-21t07:02:11Z",
                     "2026-11-21 07:02:11Z", "2026-11-21T07:02:11Z ", "2026-11-22T00:00:00Z", "2026-02-29T07:02:11Z",
                     "2026-02-29T07:02:12Z", "1969-12-31T23:59:59Z", "1969-12-31T00:00:01Z", "2026-11-21T0/:02:11Z",
                     "2026-11-21T07:02:11Z", "2026-11-21T00:00:00Z", "2026-11-21t23:00:00Z", "2026-11-21T23:00:00Z"]
        var day = Timestamp.SameDay()
        for order in [times, times.reversed(), { var g = SplitMix64(state: 7); return times.shuffled(using: &g) }()] {
            for t in order {
                let fast = Array(t.utf8).withUnsafeBufferPointer { Timestamp.parse($0, sameDay: &day) }
                #expect(fast == Timestamp.parse(t), "\(t)")
            }
        }
    }
}

@Suite struct TerritoryOwnershipTests {
    static func uuid(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    @Test func theLaterRunWinsAndTiesGoToTheLargerRunId() {
        var t = Territory()
        t.offer(Claim(cell: 1, owner: Self.uuid(1), run: Self.uuid(10), claimedAt: 200))
        t.offer(Claim(cell: 1, owner: Self.uuid(2), run: Self.uuid(11), claimedAt: 100))   // earlier: loses
        #expect(t.cells[1]!.owner == Self.uuid(1))
        t.offer(Claim(cell: 1, owner: Self.uuid(3), run: Self.uuid(12), claimedAt: 300))   // later: steals
        #expect(t.cells[1]!.owner == Self.uuid(3))
        t.offer(Claim(cell: 1, owner: Self.uuid(4), run: Self.uuid(9), claimedAt: 300))    // tie, smaller id: loses
        #expect(t.cells[1]!.run == Self.uuid(12))
        t.offer(Claim(cell: 1, owner: Self.uuid(5), run: Self.uuid(13), claimedAt: 300))   // tie, larger id: wins
        #expect(t.cells[1]!.run == Self.uuid(13))
    }

    /// Any split of the claims into "yesterday's table" and "tonight's runs", folded in any
    /// order, gives the full recompute.
    @Test func incrementalEqualsFull() {
        var rng = SplitMix64(state: 20261121)   // seeded: the same claims every run
        var claims: [Claim] = []
        for i in 0..<400 {
            claims.append(Claim(cell: UInt64.random(in: 0..<60, using: &rng), owner: Self.uuid(i % 7),
                                run: Self.uuid(Int.random(in: 0..<150, using: &rng)), claimedAt: Int64.random(in: 0..<40, using: &rng)))
        }
        var full = Territory()
        for c in claims { full.offer(c) }
        for cut in [0, 1, 137, 399, 400] {
            var yesterday = Territory()
            for c in claims[..<cut].shuffled(using: &rng) { yesterday.offer(c) }
            var night = Territory()
            for c in yesterday.sorted { night.offer(c) }                  // what \copy gives back
            for c in claims[cut...].shuffled(using: &rng) { night.offer(c) }
            #expect(night.sorted == full.sorted, "cut at \(cut)")
        }
    }

    @Test func readsWhatPsqlCopyWrites() throws {
        let path = NSTemporaryDirectory() + "territory-\(getpid()).csv"
        try """
        hex_id,owner_user_id,last_run_id,claimed_at
        89283082803ffff,\(Self.uuid(1)),\(Self.uuid(2)),2026-11-21 07:02:11+00
        "89283082807ffff","\(Self.uuid(3).uppercased())",\(Self.uuid(4)),2026-11-21 08:02:11.5+01
        89283082813ffff,,,

        """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let rows = try ExistingTerritory.read(path)
        #expect(rows.count == 2)
        #expect(rows[0] == Claim(cell: 0x89283082803ffff, owner: Self.uuid(1), run: Self.uuid(2), claimedAt: Timestamp.parse("2026-11-21T07:02:11Z")!))
        #expect(rows[1].owner == Self.uuid(3) && rows[1].claimedAt == Timestamp.parse("2026-11-21T07:02:11.5Z")!)
        try "hex_id,owner_user_id,last_run_id,claimed_at\n8828308281fffff,\(Self.uuid(1)),\(Self.uuid(2)),2026-11-21 07:02:11+00\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: InputError.self) { try ExistingTerritory.read(path) }  // a resolution-8 cell
    }

    @Test func parentByMasking() {
        // 89283082803ffff (res 9, San Francisco) → its resolution-3 parent 832830fffffffff.
        #expect(H3Cell.parent(0x89283082803ffff, res: 3) == 0x832830fffffffff)
        #expect(H3.getResolution(H3Index(0x89283082803ffff)) == 9)
    }
}

import Foundation
import GeoGEOS
import GeoModel
import Geodesy
import GeoPROJ
import H3
import StageContract
import Testing
@testable import TerritoryStage
@testable import TerritoryGame
import TerritoryRules

/// The stage's loops, claims and ownership on runs built around Vondelpark.
@Suite struct TerritoryStageTests {
    static func uuid(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    /// A valid lap of a circle, ending at `end` (µs after the builder's epoch), at a runner's
    /// pace (at most 11.3 km/h: no stretch faster than a world record).
    func lap(id: Int, user: Int, end: Int64, radius: Double = 600) -> Run {
        let (p, t) = RunBuilder.circle(radius: radius, n: 60, step: Int64(10_000_000 * max(1, radius / 300)))
        let shift = end - t.last!
        return RunBuilder.run(p, t.map { $0 + shift }, id: Self.uuid(id), user: Self.uuid(100 + user))
    }

    func judge(_ runs: [Run]) throws -> [TerritoryGame.Judged] {
        try TerritoryGame.judge(runs.enumerated().map { var r = $0.element; r.index = $0.offset; return r },
                                 rules: Rules(), resolution: 9, file: "test", threads: 1)
    }

    /// The later run owns the cells, whatever order the runs come in; at the same end time
    /// the later arrival wins, and between runs without one (a file's) the larger run id.
    @Test func twoRunsOnTheSameCellsResolveByEndTime() throws {
        let early = lap(id: 1, user: 1, end: 600_000_000), late = lap(id: 2, user: 2, end: 900_000_000)
        for order in [[early, late], [late, early]] {
            let t = TerritoryGame.territory(existing: [], judged: try judge(order))
            #expect(t.cells.count >= 8)   // a 600 m circle holds 1.1 km², about 11 cells of 0.1 km²
            #expect(t.cells.values.allSatisfy { $0.owner == Self.uuid(102) && $0.run == Self.uuid(2) })
        }
        let tie = lap(id: 3, user: 3, end: 900_000_000)
        let t = TerritoryGame.territory(existing: [], judged: try judge([tie, late]))
        #expect(t.cells.values.allSatisfy { $0.run == Self.uuid(3) })
        let claims = [(run: 3, arrival: Int64(7)), (run: 2, arrival: 9)]
        for order in [claims, claims.reversed()] {
            var arrived = Territory()
            for c in order { arrived.offer(Claim(cell: 1, owner: Self.uuid(100), run: Self.uuid(c.run), claimedAt: 900, arrival: c.arrival)) }
            #expect(arrived.cells[1]?.run == Self.uuid(2))   // arrived later, though its id is smaller
        }
    }

    /// Yesterday's table (as the stage wrote it) plus tonight's runs = all runs at once.
    @Test func incrementalNightEqualsFullRecompute() throws {
        let runs = [lap(id: 1, user: 1, end: 100_000_000_000), lap(id: 2, user: 2, end: 200_000_000_000, radius: 400),
                    lap(id: 3, user: 3, end: 150_000_000_000, radius: 800), lap(id: 4, user: 1, end: 300_000_000_000, radius: 300)]
        let full = TerritoryGame.territory(existing: [], judged: try judge(runs)).sorted
        for cut in 0...runs.count {
            let yesterday = TerritoryGame.territory(existing: [], judged: try judge(Array(runs[..<cut]))).sorted
            let night = TerritoryGame.territory(existing: yesterday, judged: try judge(Array(runs[cut...]))).sorted
            #expect(night == full, "cut after \(cut) runs")
        }
        #expect(Set(full.map(\.owner)).count == 3)   // user 1's last 300 m lap took the middle back
    }

    /// A figure-eight is two lobes that touch, never a bow-tie; the cells are both lobes'.
    @Test func aFigureEightIsTwoLobes() throws {
        var pts: [Point] = []
        for i in 0..<80 {
            let t = Double(i) / 80 * 2 * Double.pi
            // x = a·sin t, y = b·sin 2t around the start, in metres
            let e = 600 * sin(t), n = 250 * sin(2 * t)
            let p = RunBuilder.direct(RunBuilder.start, 90, e)
            pts.append(RunBuilder.direct(p, 0, n))
        }
        pts.append(pts[0])
        let run = RunBuilder.run(pts, (0..<pts.count).map { Int64($0) * 10_000_000 })
        let j = try judge([run])[0]
        #expect(j.verdict.valid, "\(j.verdict.reasons)")
        #expect(j.loop.count == 2)
        let lobes = try j.loop.map { try Loop.cells([$0], res: 9) }
        #expect(lobes.allSatisfy { !$0.isEmpty })
        #expect(Set(j.cells) == Set(lobes.joined()))
        let geos = GEOSContext()
        for p in j.loop { #expect(try geos.polygon(p).isValid()) }
    }

    /// The parent by masking agrees with the H3 library, and every claimed cell's centre is
    /// inside the loop (H3's own containment).
    @Test func claimedCellsAreInsideTheLoop() throws {
        let j = try judge([lap(id: 1, user: 1, end: 600_000_000)])[0]
        let geos = GEOSContext()
        let loop = try geos.polygon(j.loop[0])
        for c in j.cells {
            let centre = try H3.cellToLatLng(H3Index(c))
            #expect(try loop.contains(try geos.point(Point(centre.lngDegrees, centre.latDegrees))))
            #expect(H3Cell.parent(c, res: 3) == (try H3.cellToParent(H3Index(c), res: 3)).value)
        }
    }

    @Test func shardOption() throws {
        #expect(try Shard(parsing: "2/4") == Shard(index: 2, count: 4))
        for bad in ["4/4", "-1/2", "1", "a/b", "0/0"] {
            #expect(throws: ShardError.self) { try Shard(parsing: bad) }
        }
        // Every cell in exactly one shard.
        let cells = (0..<200).map { UInt64(0x8919_6953_1db_ffff) &+ UInt64($0) << 20 }
        for c in cells { #expect((0..<5).filter { Shard(index: $0, count: 5).contains(cell: c) }.count == 1) }
    }
}

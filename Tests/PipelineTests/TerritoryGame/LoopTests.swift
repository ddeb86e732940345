import Foundation
import GeoGEOS
import GeoModel
import Geodesy
import GeoPROJ
import H3
import SeededRandom
import Testing
@testable import TerritoryGame
@testable import TerritoryRules

/// The loop's fast path (a simple ring skips GEOS) must give exactly what GEOS's make-valid
/// gives, vertex for vertex, and must hand every ring it is unsure of to GEOS.
@Suite struct LoopTests {
    /// A deterministic generator (SplitMix64), so a failure names a reproducible ring.
    struct Mix { var rng: SplitMix64
        init(s: UInt64) { rng = SplitMix64(state: s) }
        mutating func next() -> Double { rng.unit() }
    }

    /// A run-like ring around Berlin: a wobbly circle of `n` fixes on the 7-decimal grid, either
    /// way round, sometimes standing still (repeated fixes), sometimes overshooting the start
    /// (the closing segment then crosses the first ones), closed back to the first fix.
    static func ring(_ seed: UInt64, n: Int) -> Ring {
        var r = Mix(s: seed)
        let ccw = r.next() < 0.5, overshoot = r.next() < 0.4 ? 0.03 + 0.1 * r.next() : 0
        let rx = 0.005 + 0.02 * r.next(), ry = rx * (0.5 + r.next())
        var pts: Ring = []
        for i in 0..<n {
            let t = (Double(i) / Double(n) * (1 + overshoot)) * 2 * .pi * (ccw ? 1 : -1)
            let wob = 1 + 0.15 * sin(7 * t) + 0.03 * (r.next() - 0.5)
            let p = Point(((13.4 + rx * wob * cos(t)) * 1e7).rounded() / 1e7, ((52.5 + ry * wob * sin(t)) * 1e7).rounded() / 1e7)
            pts.append(p)
            if r.next() < 0.05 { pts.append(p) }
        }
        pts.append(pts[0])
        return pts
    }

    /// The ring `Loop.shape` finds simple, or nil.
    func simpleRing(_ ring: Ring) -> Ring? {
        if case .simple(let r) = Loop.shape(ring) { return r }
        return nil
    }

    @Test func simpleRingsMatchGEOS() throws {
        let geos = GEOSContext()
        var fast = 0, slow = 0
        for seed in 0..<400 as Range<UInt64> {
            let ring = Self.ring(seed, n: 50 + Int(seed % 7) * 150)
            let viaGEOS = try Loop.madeValid(ring, geos: geos)
            if let s = simpleRing(ring) {
                fast += 1
                #expect(viaGEOS.count == 1 && viaGEOS.first?.rings == [s], "ring \(seed)")
            } else { slow += 1 }
        }
        // Both paths are exercised (the generator makes both kinds).
        #expect(fast > 100 && slow > 100, "\(fast) simple, \(slow) for GEOS")
    }

    @Test func unsureRingsGoToGEOS() {
        let sq: Ring = [Point(0, 0), Point(0, 1), Point(1, 1), Point(1, 0), Point(0, 0)]
        #expect(simpleRing(sq) == sq)  // clockwise already
        #expect(simpleRing(sq.reversed()) == sq.reversed().reversed())
        // A bow-tie, a spike, a touch at a vertex, a ring without area.
        #expect(simpleRing([Point(0, 0), Point(1, 1), Point(1, 0), Point(0, 1), Point(0, 0)]) == nil)
        #expect(simpleRing([Point(0, 0), Point(0, 1), Point(1, 1), Point(2, 1), Point(1, 1), Point(1, 0), Point(0, 0)]) == nil)
        #expect(simpleRing([Point(0, 0), Point(0, 2), Point(1, 1), Point(2, 2), Point(2, 0), Point(1, 1), Point(0, 0)]) == nil)
        #expect(simpleRing([Point(0, 0), Point(1, 1), Point(2, 2), Point(0, 0)]) == nil)
    }

    /// A ring that only crosses itself the same way round (an overshoot past the start, a lap
    /// and a bit) is repaired with one zero buffer instead of two: the result must be GEOS's
    /// make-valid exactly, and a figure-eight (a lobe the other way round) must not take that
    /// path.
    @Test func oneSidedRingsMatchGEOS() throws {
        let geos = GEOSContext()
        var oneSided = 0, unsure = 0
        for seed in 0..<400 as Range<UInt64> {
            let ring = Self.ring(seed &+ 1000, n: 50 + Int(seed % 7) * 150)
            switch Loop.shape(ring) {
            case .oneSided:
                oneSided += 1
                let full = try Loop.madeValid(ring, geos: geos)
                let one = try Loop.madeValid(ring, geos: geos, oneSided: true)
                #expect(full.map(\.rings) == one.map(\.rings), "ring \(seed &+ 1000)")
            case .unsure: unsure += 1
            case .simple: break
            }
        }
        #expect(oneSided > 50, "\(oneSided) one-sided, \(unsure) unsure")
        // Figure-eights, either way round: two lobes of opposite senses.
        let eight: Ring = [Point(0, 0), Point(1, 1), Point(1, 0.2), Point(0, 0.9), Point(0, 0)]
        #expect(Loop.shape(eight) == .unsure)
        #expect(Loop.shape(eight.reversed()) == .unsure)
        // A square lap run a bit more than once (the end crosses the start): one-sided, and
        // its repair is one polygon.
        let lap: Ring = [Point(0, 0.1), Point(0, 1), Point(1, 1), Point(1, 0), Point(-0.2, 0), Point(0.3, 0.4), Point(0, 0.1)]
        #expect(Loop.shape(lap) == .oneSided)
        #expect(try Loop.madeValid(lap, geos: geos).map(\.rings) == Loop.madeValid(lap, geos: geos, oneSided: true).map(\.rings))
    }
}

/// Loops where a plane of longitude and latitude breaks: across ±180° and at the poles.
@Suite struct LoopEdgeTests {
    /// A lap of `n` fixes 1 s apart on an ellipse of semi-axes a (east) and b (north) metres
    /// about `centre` (PROJ's geodesic direct problem), closed.
    func lap(_ centre: Point, a: Double, b: Double, n: Int = 600) -> Run {
        var pts = (0..<n).map { i -> Point in
            let t = Double(i) / Double(n) * 2 * .pi, x = a * sin(t), y = b * cos(t)
            return RunBuilder.direct(centre, atan2(x, y) * 180 / .pi, (x * x + y * y).squareRoot())
        }
        pts = pts.map { Point($0.x > 180 ? $0.x - 360 : $0.x < -180 ? $0.x + 360 : $0.x, $0.y) }
        pts.append(pts[0])
        return RunBuilder.run(pts, (0...n).map { Int64($0) * 1_000_000 })
    }

    /// One part, the geodesic area of the fixes' own ring (PROJ) within 1 %, valid in GEOS, and
    /// the cells inside it.
    func check(_ run: Run, cells expected: ClosedRange<Int>, _ name: String) throws {
        let v = Rules().judge(run)
        #expect(v.valid, "\(name): \(v.reasons)")
        let loop = try Loop.polygons(run, kept: v.kept, geos: GEOSContext())
        #expect(loop.count == 1, "\(name): \(loop.count) parts")
        let truth = abs(Geodesic.wgs84.ringArea((0..<run.fixCount).map { Point(run.lon[$0], run.lat[$0]) }))
        let area = loop.reduce(0.0) { $0 + Loop.area($1) }
        #expect(abs(area - truth) < 0.01 * truth, "\(name): \(area) m² against \(truth) m²")
        #expect(try GEOSContext().polygon(loop[0]).isValid(), "\(name)")
        let cells = try Loop.cells(loop, res: 9)
        #expect(expected.contains(cells.count), "\(name): \(cells.count) cells")
        #expect(cells.allSatisfy { H3.getResolution(H3Index($0)) == 9 })
        // The app's rules alone (TerritoryRules: no GEOS, no PROJ) give the same verdict and cells.
        let app = try RunResult(run)
        #expect(app.verdict.valid && app.cells == cells, "\(name): the app claims \(app.cells.count) cells")
    }

    @Test func taveuniAcrossTheAntimeridian() throws {
        let run = lap(Point(179.9995, -16.805), a: 330, b: 330)
        #expect(run.lon.contains { $0 < 0 } && run.lon.contains { $0 > 0 })
        try check(run, cells: 2...5, "Taveuni")
    }

    @Test func chukotkaAcrossTheAntimeridian() throws {
        try check(lap(Point(-179.998, 67.5), a: 500, b: 300, n: 900), cells: 3...7, "Chukotka")
    }

    @Test func nearTheNorthPole() throws {
        try check(lap(Point(45, 89.99), a: 400, b: 400, n: 900), cells: 3...7, "1 km from the North Pole")
    }

    /// A lap around the South Pole: closed through the pole, the cap it circles, its cells.
    @Test func aroundTheSouthPole() throws {
        let pts = (0...1000).map { Point(-180 + 360 * Double($0 % 1000) / 1000, -89.9946) }
        let run = RunBuilder.run(pts, (0...1000).map { Int64($0) * 1_000_000 })
        try check(run, cells: 9...13, "around the South Pole")
        let loop = try Loop.polygons(run, kept: Array(0...1000), geos: GEOSContext())
        #expect(loop[0].exterior.contains { $0.y == -90 })
    }
}

/// `shape`'s sweep order: every segment once, by least x.
@Suite struct LoopSweepTests {
    @Test func segmentsSortedByLeastX() {
        for seed in 0..<200 as Range<UInt64> {
            var pts: Ring = []
            for p in LoopTests.ring(seed, n: 20 + Int(seed) * 7) where pts.last != p { pts.append(p) }
            let n = pts.count - 1
            let xs = pts.map(\.x)
            let segs = Loop.sortedSegments(pts, n, minX: xs.min()!, maxX: xs.max()!)
            #expect(segs.map(\.i).sorted() == Array(0..<n), "ring \(seed)")
            #expect(zip(segs, segs.dropFirst()).allSatisfy { $0.lox <= $1.lox }, "ring \(seed)")
            #expect(segs.allSatisfy { $0.lox == min(pts[$0.i].x, pts[$0.i + 1].x) && $0.hiy == max(pts[$0.i].y, pts[$0.i + 1].y) })
        }
        // All segments in one bucket but one: still in order.
        let spike: Ring = [Point(0, 0), Point(0, 1), Point(1e-9, 2), Point(1000, 0), Point(0, 0)]
        let segs = Loop.sortedSegments(spike, 4, minX: 0, maxX: 1000)
        #expect(zip(segs, segs.dropFirst()).allSatisfy { $0.lox <= $1.lox })
        // Fixes going west inside one bucket's width, every segment in that bucket: as many as
        // it sorts by insertion, and thousands (insertion there is quadratic: a hostile run of
        // 100,000 such fixes took seconds), which go to the comparison sort.
        for crowd in [Int(Loop.maxBucket) - 2, 3000] {
            var ring: Ring = [Point(13, 52), Point(14, 52)]
            for i in 0..<crowd { ring.append(Point(13 + 1e-6 - Double(i) * 1e-13, 52.001 + 1e-4 * Double(i % 2))) }
            ring.append(ring[0])
            let n = ring.count - 1
            let sorted = Loop.sortedSegments(ring, n, minX: 13, maxX: 14)
            #expect(sorted.map(\.i).sorted() == Array(0..<n), "crowd \(crowd)")
            #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $0.lox <= $1.lox }, "crowd \(crowd)")
        }
    }
}

/// The app's cell test, one pass over the ring for all candidate centres, must count each
/// centre's winding as the whole ring does.
@Suite struct RunLoopWindingTests {
    @Test func onePassWindingsAreTheRingsWindings() {
        var rng = SplitMix64(state: 14)
        for seed in 0..<60 as Range<UInt64> {
            let ring = LoopTests.ring(seed, n: 10 + Int(seed) * 13)
            let lon = ring.map(\.x), lat = ring.map(\.y)
            let south = lat.min()!, north = lat.max()!, west = lon.min()!, east = lon.max()!
            // Points in and around the box, on fix latitudes too (the half-open rule's edge),
            // some repeated.
            var points: [(x: Double, y: Double)] = []
            for k in 0..<2000 {
                let y = k % 5 == 0 ? lat[Int(rng.next() % UInt64(lat.count))] : south + (north - south) * (1.4 * rng.unit() - 0.2)
                points.append((west + (east - west) * (1.4 * rng.unit() - 0.2), y))
                if k % 97 == 0 { points.append(points[points.count - 1]) }
            }
            let each = points.map { RunLoop.winding($0.x, $0.y, lon, lat) }
            #expect(RunLoop.windings(points, lon, lat) == each, "ring \(seed)")
            #expect(each.filter { $0 != 0 }.count > 100, "ring \(seed)")
        }
        #expect(RunLoop.windings([], [0, 1, 1, 0], [0, 0, 1, 0]) == [])
    }
}

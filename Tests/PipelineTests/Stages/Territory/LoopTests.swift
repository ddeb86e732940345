import Foundation
import GeoGEOS
import GeoModel
import Testing
@testable import TerritoryStage

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

    @Test func simpleRingsMatchGEOS() throws {
        let geos = GEOSContext()
        var fast = 0, slow = 0
        for seed in 0..<400 as Range<UInt64> {
            let ring = Self.ring(seed, n: 50 + Int(seed % 7) * 150)
            let viaGEOS = try Loop.madeValid(ring, geos: geos)
            if let s = Loop.simpleRing(ring) {
                fast += 1
                #expect(viaGEOS.count == 1 && viaGEOS.first?.rings == [s], "ring \(seed)")
            } else { slow += 1 }
        }
        // Both paths are exercised (the generator makes both kinds).
        #expect(fast > 100 && slow > 100, "\(fast) simple, \(slow) for GEOS")
    }

    @Test func unsureRingsGoToGEOS() {
        let sq: Ring = [Point(0, 0), Point(0, 1), Point(1, 1), Point(1, 0), Point(0, 0)]
        #expect(Loop.simpleRing(sq) == sq)  // clockwise already
        #expect(Loop.simpleRing(sq.reversed()) == sq.reversed().reversed())
        // A bow-tie, a spike, a touch at a vertex, a ring without area.
        #expect(Loop.simpleRing([Point(0, 0), Point(1, 1), Point(1, 0), Point(0, 1), Point(0, 0)]) == nil)
        #expect(Loop.simpleRing([Point(0, 0), Point(0, 1), Point(1, 1), Point(2, 1), Point(1, 1), Point(1, 0), Point(0, 0)]) == nil)
        #expect(Loop.simpleRing([Point(0, 0), Point(0, 2), Point(1, 1), Point(2, 2), Point(2, 0), Point(1, 1), Point(0, 0)]) == nil)
        #expect(Loop.simpleRing([Point(0, 0), Point(1, 1), Point(2, 2), Point(0, 0)]) == nil)
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

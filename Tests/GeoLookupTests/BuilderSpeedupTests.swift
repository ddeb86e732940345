import Foundation
import Testing
@testable import GeoLookup
import Geodesy

/// The builder's faster paths against the plain ones they replaced, on real borders: the
/// edge table, the coast search through the cap tree, and the rows built on several threads.
@Suite struct BuilderSpeedupTests {
    static let builder = LookupIndexBuilder(countries: Slices.ligurian.map { .init(code: $0, rings: Slices.units[$0]!.rings) }, cities: [])

    /// The edge table as a dictionary of owner lists (the first implementation).
    static func plainEdges(_ countries: [LookupIndexBuilder.Country]) -> [(Int64, Int64, Int64, Int64, UInt16, UInt16)] {
        struct Key: Hashable { let p: Int64, q: Int64 }
        var index: [Key: Int] = [:]
        var geometry: [(Int64, Int64, Int64, Int64)] = []
        var owners: [[UInt16]] = []
        for (ci, country) in countries.sorted(by: { $0.code < $1.code }).enumerated() {
            for ring in country.rings where ring.count >= 2 {
                var pts = ring.map { (LookupIndexBuilder.micro($0.longitude), LookupIndexBuilder.micro($0.latitude)) }
                if pts.first! != pts.last! { pts.append(pts[0]) }
                for i in 0..<(pts.count - 1) {
                    let a = pts[i], b = pts[i + 1]
                    if a == b { continue }
                    let pa = (a.0 + 200_000_000) << 29 | (a.1 + 100_000_000), pb = (b.0 + 200_000_000) << 29 | (b.1 + 100_000_000)
                    let key = Key(p: min(pa, pb), q: max(pa, pb))
                    if let k = index[key] {
                        if let at = owners[k].firstIndex(of: UInt16(ci)) { owners[k].remove(at: at) } else { owners[k].append(UInt16(ci)) }
                    } else {
                        index[key] = geometry.count; geometry.append((a.0, a.1, b.0, b.1)); owners.append([UInt16(ci)])
                    }
                }
            }
        }
        var out: [(Int64, Int64, Int64, Int64, UInt16, UInt16)] = []
        for (k, g) in geometry.enumerated() {
            let o = owners[k].sorted()
            var i = 0
            while i < o.count { out.append((g.0, g.1, g.2, g.3, o[i], i + 1 < o.count ? o[i + 1] : IndexFormat.noCountry16)); i += 2 }
        }
        return out
    }

    static func table(_ e: LookupIndexBuilder.Edges) -> [(Int64, Int64, Int64, Int64, UInt16, UInt16)] {
        (0..<e.count).map { (e.ax[$0], e.ay[$0], e.bx[$0], e.by[$0], e.ownerA[$0], e.ownerB[$0]) }
    }

    @Test func edgeTableEqualsDictionaryOfOwnerLists() throws {
        let real = Slices.ligurian.map { LookupIndexBuilder.Country(code: $0, rings: Slices.units[$0]!.rings) }
        let e = try Self.builder.makeEdges()
        #expect(e.count > 5_000)
        #expect(Self.table(e).elementsEqual(Self.plainEdges(real), by: ==))
        // three countries on one edge, a ring that runs an edge twice (cancels), an open ring
        func c(_ code: String, _ pts: [(Double, Double)]) -> LookupIndexBuilder.Country {
            .init(code: code, rings: [pts.map { Coordinate(latitude: $0.1, longitude: $0.0) }])
        }
        let odd = [c("AA", [(0, 0), (1, 0), (1, 1), (0, 0)]), c("BB", [(1, 0), (0, 0), (0, -1), (1, 0)]),
                   c("CC", [(0, 0), (1, 0), (2, 2), (1, 0), (0, 0)]), c("DD", [(5, 5), (6, 5), (6, 6)]),
                   c("EE", [(0, 0), (1, 0), (1, 1)])]
        let b = LookupIndexBuilder(countries: odd, cities: [])
        let oddTable = Self.table(try b.makeEdges())
        #expect(oddTable.elementsEqual(Self.plainEdges(odd), by: ==))
        #expect(oddTable.contains { $0.4 == 0 && $0.5 == 1 } && oddTable.contains { $0.4 == 4 && $0.5 == IndexFormat.noCountry16 })
        // vertex vectors as computed per edge end
        let vectors = try Self.builder.makeEdges()
        for i in stride(from: 0, to: vectors.count, by: 97) {
            let v = Sphere.vector(latitude: Double(vectors.ay[i]) / 1e6, longitude: Double(vectors.ax[i]) / 1e6)
            let w = Sphere.vector(latitude: Double(vectors.by[i]) / 1e6, longitude: Double(vectors.bx[i]) / 1e6)
            #expect(vectors.va[i].x == v.x && vectors.va[i].y == v.y && vectors.va[i].z == v.z)
            #expect(vectors.vb[i].x == w.x && vectors.vb[i].y == w.y && vectors.vb[i].z == w.z)
        }
    }

    /// Every edge within the limit is handed out, also while the limit falls.
    @Test func capTreeHandsOutEveryEdgeWithinTheLimit() throws {
        let e = try Self.builder.makeEdges()
        let tree = CapTree(va: e.va, vb: e.vb, ownerA: e.ownerA, ownerB: e.ownerB)
        var rng = SplitMix(seed: 12)
        var visitedTotal = 0
        for round in 0..<200 {
            let p = Sphere.vector(latitude: 42 + rng.unit() * 3, longitude: 6 + rng.unit() * 4)
            let limit = (rng.unit() * 40 + 0.01) / Sphere.earthRadiusKm
            let falling = round % 2 == 1
            var visited = Set<Int>(), lowest = limit
            tree.search(p, limit: limit) { i in
                visited.insert(i)
                if falling { lowest = min(lowest, max(Sphere.angleToArc(p, e.va[i], e.vb[i]), limit / 4)) }
                return lowest
            }
            visitedTotal += visited.count
            for i in 0..<e.count where Sphere.angleToArc(p, e.va[i], e.vb[i]) <= lowest {
                #expect(visited.contains(i), "edge \(i) within \(lowest) of the point, not handed out")
            }
        }
        // and it prunes: far fewer than every edge for every point
        #expect(visitedTotal < 200 * e.count / 4)
    }

    /// The sea classification through the cap tree equals measuring every edge in the box.
    @Test func seaClassificationEqualsAScanOfEveryEdge() throws {
        let b = Self.builder
        let e = try b.makeEdges()
        let st = LookupIndexBuilder.State(e: e, grid: .init(e), caps: CapTree(va: e.va, vb: e.vb, ownerA: e.ownerA, ownerB: e.ownerB), countries: Slices.ligurian.count)
        var rng = SplitMix(seed: 22)
        var kinds = [0, 0, 0]
        for _ in 0..<1500 {
            let size = 1.0 / Double(1 << Int(rng.unit() * 11))
            let rect = LookupIndexBuilder.Rect(lon0: 6 + rng.unit() * 4, lat0: 42 + rng.unit() * 3, w: size, h: size)
            let fast = b.classifySea(st, rect), plain = Self.scan(b, st, rect)
            #expect("\(fast)" == "\(plain)", "cell \(rect)")
            switch plain { case .open: kinds[0] += 1; case .owned: kinds[1] += 1; case .nearest: kinds[2] += 1 }
        }
        #expect(kinds.allSatisfy { $0 > 50 }, "\(kinds)")
    }

    /// The first implementation: every edge of the grid cells under the box, measured.
    static func scan(_ b: LookupIndexBuilder, _ st: LookupIndexBuilder.State, _ rect: LookupIndexBuilder.Rect) -> LookupIndexBuilder.Sea {
        let cLat = rect.lat0 + rect.h / 2, cLon = rect.lon0 + rect.w / 2
        let c = Sphere.vector(latitude: cLat, longitude: cLon)
        var half = 0.0
        for (fx, fy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            half = max(half, Sphere.angle(c, Sphere.vector(latitude: rect.lat0 + fy * rect.h, longitude: rect.lon0 + fx * rect.w)))
        }
        half = half * 1.001 + 1e-9
        let d = b.parameters.coastBufferKm / Sphere.earthRadiusKm
        let reach = d + half
        let reachDeg = reach / Sphere.degrees * 1.01 + 1e-6
        let lat0 = max(-90, cLat - reachDeg), lat1 = min(90, cLat + reachDeg)
        let maxAbs = max(abs(lat0), abs(lat1))
        var boxes: [(Double, Double)] = []
        if maxAbs >= 89.9 || reachDeg / cos(maxAbs * Sphere.degrees) >= 180 { boxes = [(-180, 180)] } else {
            let span = reachDeg / cos(maxAbs * Sphere.degrees)
            let l0 = cLon - span, l1 = cLon + span
            boxes.append((max(-180, l0), min(180, l1)))
            if l0 < -180 { boxes.append((l0 + 360, 180)) }
            if l1 > 180 { boxes.append((-180, l1 - 360)) }
        }
        var cand: [Int32] = []
        st.mark += 1
        for (a, z) in boxes {
            st.grid.query(lon0: LookupIndexBuilder.micro(a), lon1: LookupIndexBuilder.micro(z), lat0: LookupIndexBuilder.micro(lat0),
                          lat1: LookupIndexBuilder.micro(lat1), stamp: &st.stamp, mark: st.mark, into: &cand)
        }
        var near: [(UInt16, Double)] = []
        func note(_ o: UInt16, _ dist: Double) {
            if o == IndexFormat.noCountry16 { return }
            if let k = near.firstIndex(where: { $0.0 == o }) { near[k].1 = min(near[k].1, dist) } else { near.append((o, dist)) }
        }
        for i32 in cand {
            let i = Int(i32)
            let dist = Sphere.angleToArc(c, st.e.va[i], st.e.vb[i])
            if dist <= reach { note(st.e.ownerA[i], dist); note(st.e.ownerB[i], dist) }
        }
        guard let best = near.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return .open }
        if best.1 - half > d { return .open }
        if best.1 + half <= d && near.allSatisfy({ $0.0 == best.0 || $0.1 - half > best.1 + half }) { return .owned(best.0) }
        return .nearest
    }

    @Test func oneThreadOrThreeSameBytes() throws {
        let countries = Slices.ligurian.map { LookupIndexBuilder.Country(code: $0, rings: Slices.units[$0]!.rings) }
        var bytes: [[UInt8]] = []
        for t in [1, 3] {
            var p = LookupIndexBuilder.Parameters()
            p.threads = t
            var b = LookupIndexBuilder(countries: countries, cities: [], parameters: p)
            bytes.append(try b.build())
        }
        #expect(bytes[0] == bytes[1])
        #expect(bytes[0] == Slices.ligurianIndex.1)
    }
}

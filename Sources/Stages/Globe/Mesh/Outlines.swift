import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ
import GeoFormats
import Parallelism

/// Border outlines as ribbons of zero width: each centre-line vertex appears twice (left and
/// right) at the same position, carrying ± its miter direction (a tangent vector to the
/// sphere, of length 1/cos(half the turning angle), capped), so a vertex shader widens the
/// line to a constant on-screen width: `position + miter · halfWidth · (world units per pixel)`.
/// The ribbon is a triangle strip L0 R0 L1 R1 … per run (its triangles face outward once
/// widened); runs in one primitive are joined by repeating the last and the next first index,
/// which only makes zero-area triangles and keeps the strip's parity.
public struct OutlineSector: Sendable {
    public var index: Int
    /// Unit vectors on the centre line (scale by the outline radius when writing).
    public var positions: [Vec3] = []
    public var miters: [Vec3] = []
    /// Triangle-strip indices, relative to each part's first vertex.
    public var strip: [Int32] = []
    /// The runs (polylines) drawn in this sector: first vertex (a left/right pair per point) and point count.
    public var runs: [(vertex: Int, points: Int)] = []
    /// Centre-line segments in this sector.
    public var segmentCount = 0
    /// Where each primitive's vertices and indices start: a sector is cut into parts of at
    /// most 65,535 vertices so that 16-bit indices suffice (indices are per part, from 0).
    public var parts: [(vertex: Int, index: Int)] = [(0, 0)]
    public init(index: Int) { self.index = index }
}

public enum Outlines {
    public static let lonBands = 12, latBands = 4
    /// Miters longer than this (very sharp turns) are capped; also the scale of the stored _MITER.
    public static let maxMiterLength = 2.0
    public static let maxPartVertices = 65535

    /// Sector N = latBand · 12 + lonBand, lonBand = ⌊(lon + 180) / 30⌋, latBand = ⌊(lat + 90) / 45⌋
    /// (the last band of each closed at 180 / 90).
    @inlinable public static func sector(lon: Double, lat: Double) -> Int {
        let lb = min(lonBands - 1, max(0, Int(((lon + 180) / 30).rounded(.down))))
        let tb = min(latBands - 1, max(0, Int(((lat + 90) / 45).rounded(.down))))
        return tb * lonBands + lb
    }

    /// A segment that draws nothing real: the antimeridian cut (both ends on the same ±180
    /// meridian, either sign), the pole line (both ends at, or within `PolarCap.poleTolerance` of, the same
    /// pole: Natural Earth's 1:50m pole line is at −89.998926), or a segment whose two ends are
    /// (nearly) the same point on the sphere (±180 twins, points that differ only in longitude
    /// at a pole).
    static func isArtificial(_ a: Point, _ b: Point) -> Bool {
        if a == b { return true }
        if abs(a.x) == 180 && abs(b.x) == 180 { return true }
        if PolarCap.onPoleLine(a) && PolarCap.onPoleLine(b) && (a.y > 0) == (b.y > 0) { return true }
        // Ends whose latitudes (as SphereMap.unit clamps them) differ by more than 1e-7° are
        // more than 1.7e-9 apart on the unit sphere (the chord is at least 2·sin(Δlat / 2)):
        // most segments, decided without trigonometry.
        if abs(min(90, max(-90, a.y)) - min(90, max(-90, b.y))) > 1e-7 { return false }
        return (SphereMap.unit(a) - SphereMap.unit(b)).length < sameUnitTolerance
    }

    /// Ends closer than this on the unit sphere (≈ 6 mm on the Earth) are the same point.
    public static let sameUnitTolerance = 1e-9

    /// One country's share of the outlines: its runs' centre-line points and miters, cut into
    /// pieces by sector (consecutive pieces of a run share their end point).
    struct CountryOutline {
        var units: [Vec3] = []
        var miters: [Vec3] = []
        var pieces: [(sector: Int, from: Int, to: Int)] = []
    }

    /// The outlines of the prepared rings of `meshes` (taken in the given order), each shared
    /// border once, split into the 48 sectors. Which country draws a shared segment (the first
    /// in order) is decided in one pass; the runs' geometry is then computed per country on
    /// `threads` threads and appended to the sectors in country order, so the result does not
    /// depend on the thread count.
    public static func build(_ meshes: [CountryMesh], threads: Int = 1) -> [OutlineSector] {
        // Segments drawn so far, either way round (0.0 and −0.0 are one point, as for Double
        // equality).
        var seen = PointPairTable(capacity: meshes.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } })
        // Per country: runs as (ring, first index, last index, closed).
        var runs: [[(ring: Int, from: Int, to: Int, closed: Bool)]] = []
        runs.reserveCapacity(meshes.count)
        for m in meshes {
            var mine: [(ring: Int, from: Int, to: Int, closed: Bool)] = []
            for (ri, ring) in m.rings.enumerated() {
                // Runs of consecutive segments that are new and real.
                var start = -1
                let first = mine.count
                let n = ring.count - 1
                var allNew = true
                for i in 0..<n {
                    let a = ring[i], b = ring[i + 1]
                    let key = PointPairTable.undirected(a, b)
                    if isArtificial(a, b) || !seen.insert(key.0, key.1).inserted {
                        allNew = false
                        if start >= 0 && i - start >= 1 { mine.append((ri, start, i, false)) }
                        start = -1
                        continue
                    }
                    if start < 0 { start = i }
                }
                if start >= 0 && n - start >= 1 { mine.append((ri, start, n, false)) }
                if allNew && mine.count - first == 1 { mine[first].closed = true }
            }
            runs.append(mine)
        }
        var outlines = (try? Parallel.map(Array(meshes.indices), workers: max(1, threads), makeState: { () }) { [runs] k, _ -> CountryOutline in
            var o = CountryOutline()
            for r in runs[k] { emit(meshes[k].rings[r.ring][r.from...r.to], closed: r.closed, into: &o) }
            return o
        }) ?? []
        var sectors = (0..<(lonBands * latBands)).map { OutlineSector(index: $0) }
        var points = [Int](repeating: 0, count: sectors.count), pieces = [Int](repeating: 0, count: sectors.count)
        for o in outlines { for p in o.pieces { points[p.sector] += p.to - p.from + 1; pieces[p.sector] += 1 } }
        for k in sectors.indices {
            sectors[k].positions.reserveCapacity(2 * points[k]); sectors[k].miters.reserveCapacity(2 * points[k])
            sectors[k].strip.reserveCapacity(2 * points[k] + 2 * pieces[k])
        }
        for k in outlines.indices {
            for p in outlines[k].pieces { append(outlines[k].units, outlines[k].miters, p.from, p.to, to: &sectors[p.sector]) }
            outlines[k] = CountryOutline()
        }
        return sectors
    }

    static func emit(_ run: ArraySlice<Point>, closed: Bool, into out: inout CountryOutline) {
        let units = run.map(SphereMap.unit)
        let run = Array(run)
        let n = units.count
        // Side (left) normals of each segment, in the tangent plane at each end.
        func side(_ p: Vec3, _ q: Vec3, at v: Vec3) -> Vec3 {
            let d = q - p
            let t = (d - v * d.dot(v)).normalized
            return v.cross(t).normalized
        }
        var miters = [Vec3](repeating: Vec3(0, 0, 0), count: n)
        for i in 0..<n {
            let v = units[i]
            var prev: Vec3? = i > 0 ? units[i - 1] : nil
            var next: Vec3? = i < n - 1 ? units[i + 1] : nil
            if closed {
                if i == 0 { prev = units[n - 2] }
                if i == n - 1 { next = units[1] }
            }
            let s1 = prev.map { side($0, v, at: v) }
            let s2 = next.map { side(v, $0, at: v) }
            switch (s1, s2) {
            case let (a?, b?):
                let sum = a + b
                if sum.length < 1e-9 { miters[i] = a; break }
                let m = sum.normalized
                let c = m.dot(a)
                miters[i] = m * min(maxMiterLength, 1 / max(c, 1 / maxMiterLength))
            case let (a?, nil): miters[i] = a
            case let (nil, b?): miters[i] = b
            default: miters[i] = Vec3(0, 0, 0)
            }
        }
        // Split the run where its segments change sector; pieces share their end vertex.
        let base = out.units.count
        out.units += units
        out.miters += miters
        var start = 0
        var current = -1
        for i in 0..<(n - 1) {
            let a = run[i], b = run[i + 1]
            let s = sector(lon: (a.x + b.x) / 2, lat: (a.y + b.y) / 2)
            if s != current {
                if current >= 0 { out.pieces.append((current, base + start, base + i)) }
                current = s; start = i
            }
        }
        if current >= 0 { out.pieces.append((current, base + start, base + n - 1)) }
    }

    static func append(_ units: [Vec3], _ miters: [Vec3], _ from: Int, _ to: Int, to sector: inout OutlineSector) {
        if sector.positions.count - sector.parts.last!.vertex + 2 * (to - from + 1) > maxPartVertices {
            sector.parts.append((sector.positions.count, sector.strip.count))
        }
        let base = Int32(sector.positions.count - sector.parts.last!.vertex)
        sector.runs.append((sector.positions.count, to - from + 1))
        for i in from...to {
            sector.positions.append(units[i]); sector.miters.append(miters[i])
            sector.positions.append(units[i]); sector.miters.append(miters[i] * -1)
        }
        if sector.strip.count > sector.parts.last!.index {
            sector.strip += [sector.strip[sector.strip.count - 1], base]
        }
        for k in 0..<Int32(2 * (to - from + 1)) { sector.strip.append(base + k) }
        sector.segmentCount += to - from
    }
}

import Foundation
import GeoModel
import Geodesy
import GeoGEOS
import GeoPROJ
import Parallelism

/// The arc graph of the repaired countries with its rings' areas (km²).
struct MeasuredGraph {
    var graph: ArcGraph
    var ringAreas: [Double]
}

/// The coverage to simplify: the arc graph with the dropped rings and the point countries'
/// rings released, what was decided, and the point countries' parts given to neighbours.
struct Coverage {
    var graph: ArcGraph
    var ringAreas: [Double]
    var decision: PointCountries.Decision
    var fills: [PointGaps.Fill] = []
}

extension WorldStage {
    /// ±180° and the poles: vertices that never move.
    static func isPinned(_ p: Point) -> Bool { abs(p.x) == 180 || abs(p.y) == 90 }

    /// The arc graph and its rings' areas.
    static func arcGraph(_ polygons: [[Polygon]], _ o: Options, log: StageLog) throws -> MeasuredGraph {
        let graph = log.step("arc graph") { ArcGraph(countries: polygons, pinned: isPinned) }
        let areas = try log.step("ring areas") { try ringAreas(graph, exactBelowKm2: exactAreaBelowKm2(o), threads: o.threads) }
        return MeasuredGraph(graph: graph, ringAreas: areas)
    }

    /// Islands, holes and point countries (PointCountries), on the whole coverage.
    static func pointCountries(_ measured: MeasuredGraph, _ o: Options) -> Coverage {
        var graph = measured.graph
        let decision = PointCountries.decide(graph: &graph, ringAreaKm2: measured.ringAreas, minIslandKm2: o.minIslandKm2, pointAreaKm2: o.pointAreaKm2)
        return Coverage(graph: graph, ringAreas: measured.ringAreas, decision: decision)
    }

    /// Rings whose fast area is below this are measured on the ellipsoid: 4× the larger
    /// threshold, where a decision is made.
    static func exactAreaBelowKm2(_ o: Options) -> Double { 4 * max(o.minIslandKm2, o.pointAreaKm2) }

    /// Unsigned area (km²) of every graph ring: first on the authalic sphere with the fast
    /// vertex formula (SphericalArea); rings that come out below `exactBelowKm2` (where a
    /// threshold decision is made) are measured again on the WGS84 ellipsoid (geodesic,
    /// Karney), which is what the thresholds mean.
    /// `known[r]`, where not NaN, is ring r's area already (kept as is).
    static func ringAreas(_ graph: ArcGraph, exactBelowKm2: Double, threads: Int, known: [Double]? = nil) throws -> [Double] {
        let radiusKm = Geodesic.authalicRadius / 1000
        return try parallelMap(graph.rings.count, threads: threads) { i, _ in
            if let k = known?[i], !k.isNaN { return k }
            let ring = graph.originalRing(i)
            let approx = SphericalArea.approximateRingArea(ring, radius: radiusKm)
            return approx < exactBelowKm2 ? abs(Geodesic.wgs84.ringArea(ring)) / 1e6 : approx
        }
    }
}

import Foundation
import GeoModel
import GeoGEOS
import Parallelism

// Dissolving the units of each country into one geometry with GEOS, and the output features.
extension IngestStage {
    /// One country of the set with its attributes resolved, before its geometry is dissolved.
    struct CountryJob {
        var id: String
        var group: [Unit]
        var name: String
        var continent: String
        var capital: Capital?
        var isPoint: Bool
        var aliases: [String]
        var capitalAliases: [String]
    }

    /// Every country's geometry, in parallel (one GEOS context per worker): its units dissolved,
    /// or a Point at the capital for a country without a polygon. With the fallback reason.
    static func dissolve(_ jobs: [CountryJob], file: String) throws -> [(Geometry, String?)] {
        try Parallel.map(jobs, makeState: { GEOSContext() }) { job, geos -> (Geometry, String?) in
            if job.isPoint { return (.point(job.capital!.position), nil) }
            do {
                return try dissolve(job.group, id: job.id, geos: geos, file: file)
            } catch let e as GEOSError {
                throw InputError(file: file, feature: job.group[0].ref, "dissolving \(job.id) (\(job.name)): \(e)")
            }
        }
    }

    /// The output features (CONTRACTS §1): each country's properties and dissolved geometry.
    static func countryFeatures(_ jobs: [CountryJob], _ dissolved: [(Geometry, String?)], report: inout Report) -> [Feature] {
        var out: [Feature] = []
        for (job, (geometry, fallback)) in zip(jobs, dissolved) {
            if let reason = fallback { report.unionFallbacks.append((job.id, reason)) }
            if job.isPoint { report.pointsFromCapital.append(job.id) }
            var props = JSONObject()
            props["name"] = .string(job.name)
            props["continent"] = .string(job.continent)
            if let c = job.capital {
                props["capital"] = .string(c.name)
                props["capitalLat"] = .number(c.position.y)
                props["capitalLon"] = .number(c.position.x)
                props["capitalAliases"] = .array(job.capitalAliases.map { .string($0) })
            }
            props["aliases"] = .array(job.aliases.map { .string($0) })
            props["neUnits"] = .array(job.group.map(\.suA3).sorted().map { .string($0) })
            out.append(Feature(id: job.id, properties: props, geometry: geometry))
            report.vertices += geometry.vertexCount
        }
        return out
    }

    /// Dissolves the units of one country. Only polygons that can touch a polygon of another
    /// unit (overlapping bounding boxes) are merged, each such cluster by GEOS coverage union,
    /// or by a general union where the units do not meet edge to edge; every other polygon
    /// (islands, Svalbard, the US minor islands) is taken as it is. Returns the geometry and,
    /// for a fallback, the reason.
    static func dissolve(_ group: [Unit], id: String, geos: GEOSContext, file: String) throws -> (Geometry, String?) {
        var fallback: String?
        var polygons: [Polygon] = []
        for cluster in touchingClusters(group) {
            if cluster.count == 1 { polygons.append(cluster[0]); continue }
            let parts = try cluster.map { try geos.polygon($0) }
            do {
                let merged = try geos.coverageUnion(parts)
                guard try merged.isValid() else { throw StageError(merged.validityReason()) }
                polygons += try merged.polygons()
            } catch {
                fallback = "\(error)"
                let repaired = try cluster.map { p -> GEOSGeometry in
                    let g = try geos.polygon(p)
                    return try g.isValid() ? g : try g.makeValid()
                }
                polygons += try geos.unaryUnion(repaired).polygons()
            }
        }
        guard !polygons.isEmpty else { throw InputError(file: file, feature: group[0].ref, "dissolving \(id) left no polygon") }
        return (Geometry.areal(polygons.map(RingMath.orientedForRFC7946)), fallback)
    }

    /// The group's polygons in clusters: polygons of different units whose bounding boxes
    /// overlap end up in one cluster. Order follows the units' order, then the polygons'.
    static func touchingClusters(_ units: [Unit]) -> [[Polygon]] {
        var polys: [Polygon] = [], owner: [Int] = [], boxes: [BoundingBox] = []
        for (u, unit) in units.enumerated() {
            for p in unit.feature.geometry.polygons {
                polys.append(p); owner.append(u)
                boxes.append(Geometry.polygon(Polygon(rings: [p.exterior])).boundingBox ?? .empty)
            }
        }
        var parent = Array(polys.indices)
        func find(_ i: Int) -> Int { var i = i; while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }; return i }
        if units.count > 1 {
            for i in polys.indices {
                for j in (i + 1)..<polys.count where owner[j] != owner[i] && boxes[i].intersects(boxes[j]) {
                    let a = find(i), b = find(j)
                    if a != b { parent[max(a, b)] = min(a, b) }
                }
            }
        }
        var order: [Int] = []
        var members: [Int: [Polygon]] = [:]
        for i in polys.indices {
            let r = find(i)
            if members[r] == nil { order.append(r) }
            members[r, default: []].append(polys[i])
        }
        return order.map { members[$0]! }
    }
}

import Foundation
import GeoModel
import Geodesy
import GeoPROJ
import GeoFormats

// The globe's manifest (globe.manifest.json): the parameters, per-node counts, boxes and
// areas, and which file holds what; and the name of the .usdc layer it records.
extension GlobeStage {
    /// The name of the .usdc layer inside the package: the package's own name (globe.usdz → globe.usdc).
    static func usdRootLayer(_ usdzPath: String) -> String {
        let base = URL(fileURLWithPath: usdzPath).deletingPathExtension().lastPathComponent
        return (USDIdentifier.isValid(base) ? base : "scene") + ".usdc"
    }

    static func box(_ b: BoundingBox) -> JSONValue {
        .array([b.minX, b.minY, b.maxX, b.maxY].map { .number(($0 * 1e6).rounded() / 1e6) })
    }
    static func r6(_ d: Double) -> JSONValue { .number((d * 1e6).rounded() / 1e6) }
    static func sig(_ d: Double) -> JSONValue {
        guard d != 0 else { return .number(0) }
        let e = Int(floor(log10(abs(d)))) - 8
        let s = pow(10.0, Double(-e))
        return .number((d * s).rounded() / s)
    }

    static func buildManifest(_ o: Options, meshes: [CountryMesh], points: [PointCountry], capitals: [(id: String, at: Point)],
                              sectors: [OutlineSector], nodeStats: [String: NodeStats]) -> [UInt8] {
        var params = JSONObject()
        params["maxEdgeDegrees"] = .number(o.maxEdgeDegrees)
        params["maxLonStep"] = .number(o.maxLonStep)
        params["oceanRadius"] = .number(o.oceanRadius)
        params["fillRadius"] = .number(o.fillRadius)
        params["outlineRadius"] = .number(o.outlineRadius)
        params["pointRadius"] = .number(o.pointRadius)
        params["discRadius"] = .number(o.discRadius)
        params["rimRadius"] = .number(o.rimRadius)
        params["capitalRadius"] = .number(o.capitalRadius)
        params["starSize"] = .number(o.starSize)
        params["atmosphereRadius"] = .number(o.atmosphereRadius)
        params["sphereMaxEdgeDegrees"] = .number(o.sphereMaxEdgeDegrees)
        params["quantizeNormals"] = .bool(o.quantizeNormals)
        params["miterScale"] = .number(Outlines.maxMiterLength)
        params["sectors"] = .string("outline_sector_N, N = latBand·12 + lonBand, lonBand = ⌊(lon+180)/30⌋, latBand = ⌊(lat+90)/45⌋")

        var nodes = JSONObject()
        let km2 = Geodesic.authalicRadius * Geodesic.authalicRadius / 1e6
        var entries: [(String, JSONValue)] = []
        for m in meshes {
            let s = nodeStats[m.id]!
            entries.append((m.id, .object(JSONObject([
                ("iso", .string(m.id)), ("kind", .string("fill")),
                ("centroid", .array([r6(m.centroid.x), r6(m.centroid.y)])), ("bbox", box(m.bbox)),
                ("vertices", .number(Double(s.vertices))), ("triangles", .number(Double(s.triangles))),
                ("polygons", .number(Double(m.polygonCount))), ("inputVertices", .number(Double(m.inputVertices))),
                ("droppedFolds", .number(Double(m.droppedFolds))), ("lonLatFallbacks", .number(Double(m.lonLatFallbacks))),
                ("meshArea", sig(m.meshArea)), ("sphereArea", sig(m.sphereArea)),
                ("geodesicAreaKm2", .number((m.geodesicArea / 1e6 * 10).rounded() / 10)),
                ("sphereAreaKm2", .number((m.sphereArea * km2 * 10).rounded() / 10)),
            ]))))
        }
        for p in points {
            let s = nodeStats[p.id]!
            let bb = BoundingBox(minX: p.at.x, minY: p.at.y, maxX: p.at.x, maxY: p.at.y)
            entries.append((p.id, .object(JSONObject([
                ("iso", .string(p.id)), ("kind", .string("point")),
                ("centroid", .array([r6(p.at.x), r6(p.at.y)])), ("bbox", box(bb)),
                ("vertices", .number(Double(s.vertices))), ("triangles", .number(Double(s.triangles))),
            ]))))
        }
        for c in capitals {
            let name = "capital_\(c.id)", s = nodeStats[name]!
            let bb = BoundingBox(minX: c.at.x, minY: c.at.y, maxX: c.at.x, maxY: c.at.y)
            entries.append((name, .object(JSONObject([
                ("iso", .string(c.id)), ("kind", .string("capital")),
                ("centroid", .array([r6(c.at.x), r6(c.at.y)])), ("bbox", box(bb)),
                ("vertices", .number(Double(s.vertices))), ("triangles", .number(Double(s.triangles))),
            ]))))
        }
        entries.sort { $0.0 < $1.0 }
        for e in entries { nodes[e.0] = e.1 }
        var sec = JSONObject()
        for s in sectors {
            let name = "outline_sector_\(s.index)", st = nodeStats[name]!
            let lb = s.index % Outlines.lonBands, tb = s.index / Outlines.lonBands
            let bb = BoundingBox(minX: Double(-180 + 30 * lb), minY: Double(-90 + 45 * tb), maxX: Double(-150 + 30 * lb), maxY: Double(-45 + 45 * tb))
            sec[name] = .object(JSONObject([("bbox", box(bb)), ("segments", .number(Double(s.segmentCount))),
                                             ("vertices", .number(Double(st.vertices))), ("triangles", .number(Double(st.triangles)))]))
        }
        var totals = JSONObject()
        totals["fillVertices"] = .number(Double(meshes.reduce(0) { $0 + $1.vertexCount }))
        totals["fillTriangles"] = .number(Double(meshes.reduce(0) { $0 + nodeStats[$1.id]!.triangles }))  // as written, after the float32 check
        totals["outlineSegments"] = .number(Double(sectors.reduce(0) { $0 + $1.segmentCount }))
        totals["polygonCountries"] = .number(Double(meshes.count))
        totals["pointCountries"] = .number(Double(points.count))
        totals["capitals"] = .number(Double(capitals.count))
        var files: [(String, JSONValue)] = [("glb", .string(URL(fileURLWithPath: o.output).lastPathComponent))]
        if let u = o.usdz {
            // Which file holds what: the glb the whole scene; the usdz the same nodes as USD,
            // plus the materials scope, with each point country's rim as a GeomSubset.
            files.append(("usdz", .object(JSONObject([
                ("file", .string(URL(fileURLWithPath: u).lastPathComponent)), ("rootLayer", .string(usdRootLayer(u))),
                ("defaultPrim", .string("/globe")), ("materials", .string("/globe/\(GlobeUSD.materialsScope)")),
                ("pointRims", .string("<ISO>_rim is a GeomSubset of the <ISO> mesh (USD allows no mesh under a mesh)")),
            ]))))
        }
        let doc = JSONObject(files + [
            ("input", .string(URL(fileURLWithPath: o.input).lastPathComponent)),
            ("parameters", .object(params)), ("totals", .object(totals)),
            ("nodes", .object(nodes)), ("sectors", .object(sec)),
        ])
        var w = JSONWriter()
        w.value(.object(doc), indent: 1)
        w.bytes.append(0x0A)
        return w.bytes
    }
}

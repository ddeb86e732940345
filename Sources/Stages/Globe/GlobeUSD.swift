import Foundation
import GeoModel
import Geodesy
import GeoFormats

/// The shapes of the globe that are not country fills (ocean and atmosphere spheres, point
/// discs and rims, capital stars), made once per run and written by both the glTF and the USD
/// encoder, as the fills are.
public struct GlobeMarkers: Sendable {
    public var ocean: SceneMesh
    public var atmosphere: SceneMesh
    /// Parallel to the point countries.
    public var discs: [SceneMesh]
    public var rims: [SceneMesh]
    /// Parallel to the capitals.
    public var stars: [SceneMesh]

    init(_ o: GlobeStage.Options, points: [GlobeStage.PointCountry], capitals: [(id: String, at: Point)]) {
        ocean = GlobeShapes.sphere(radius: o.oceanRadius, maxEdgeDegrees: o.sphereMaxEdgeDegrees)
        atmosphere = GlobeShapes.sphere(radius: o.atmosphereRadius, maxEdgeDegrees: o.sphereMaxEdgeDegrees)
        discs = points.map { GlobeShapes.disc(at: $0.at, radius: o.pointRadius, discRadius: o.discRadius) }
        rims = points.map { GlobeShapes.annulus(at: $0.at, radius: o.pointRadius, inner: o.discRadius, outer: o.rimRadius) }
        stars = capitals.map { GlobeShapes.star(at: $0.at, radius: o.capitalRadius, size: o.starSize) }
    }
}

/// The globe as a USD layer, for `globe.usdz` (the file SceneKit and RealityKit load without a
/// glTF importer). Same nodes, names, order and geometry as the .glb written from the same
/// meshes:
///
///     /globe (Xform, the defaultPrim)
///         ocean (Mesh)
///         countries (Xform)
///             <ISO> (Mesh)        polygon country: the glb's fill triangles and float32
///                                 vertices, with its translation as xformOp:translate
///             <ISO> (Mesh)        point country: disc + rim in one mesh; the rim's faces are
///                 <ISO>_rim       the GeomSubset <ISO>_rim bound to the border material
///                                 (USD forbids a Mesh under a Mesh, where the glb has a child node)
///         outlines (Xform)
///             outline_sector_N    (Mesh: the ribbon strips as triangles, miter as primvars:miter;
///                                 an Xform where the sector has no border)
///         capitals (Xform)
///             capital_<ISO> (Mesh)
///         atmosphere (Mesh)
///         materials (Scope)       one Material + UsdPreviewSurface per palette entry
///
/// Every Mesh has points, normals (per vertex; not on the outline ribbons, see there), faceVertexCounts/Indices (triangles, wound
/// counter-clockwise seen from outside, USD's default right-handed orientation),
/// subdivisionScheme "none" (nothing is smoothed), extent, and a material binding.
enum GlobeUSD {
    static let materialsScope = "materials"
    static let shaderName = "surface"

    static func layer(_ o: GlobeStage.Options, meshes: [CountryMesh], fills: [FillNodeGeometry], points: [GlobeStage.PointCountry],
                      capitals: [(id: String, at: Point)], sectors: [OutlineSector], markers: GlobeMarkers) -> USDLayer {
        let materialPath = { (name: String) in "/globe/\(materialsScope)/\(name)" }

        var countries: [(id: String, prim: USDPrim)] = []
        for (m, f) in zip(meshes, fills) {
            var normals = [Float](repeating: 0, count: m.positions.count * 3)
            for (i, n) in m.positions.enumerated() { normals[3 * i] = Float(n.x); normals[3 * i + 1] = Float(n.y); normals[3 * i + 2] = Float(n.z) }
            var prim = mesh(m.id, points: f.positions, normals: normals, triangles: f.triangles, material: materialPath("land"))
            prim.properties += [
                .attribute(USDAttribute("xformOp:translate", "float3", .float3(f.translation[0], f.translation[1], f.translation[2]))),
                .attribute(USDAttribute("xformOpOrder", "token[]", .tokenArray(["xformOp:translate"]), uniform: true)),
            ]
            countries.append((m.id, prim))
        }
        for (k, p) in points.enumerated() {
            // Disc then rim in one mesh; the rim's faces form the subset bound to the border colour.
            let disc = markers.discs[k], rim = markers.rims[k]
            let base = Int32(disc.positions.count)
            let (dp, dn) = floats(disc), (rp, rn) = floats(rim)
            var prim = mesh(p.id, points: dp + rp, normals: dn + rn, triangles: disc.triangles + rim.triangles.map { $0 + base },
                            material: materialPath("land"))
            prim.properties.append(.attribute(USDAttribute("subsetFamily:materialBind:familyType", "token", .token("nonOverlapping"), uniform: true)))
            var subset = USDPrim(p.id + "_rim", type: "GeomSubset")
            subset.apiSchemas = ["MaterialBindingAPI"]
            subset.properties = [
                .attribute(USDAttribute("elementType", "token", .token("face"), uniform: true)),
                .attribute(USDAttribute("familyName", "token", .token("materialBind"), uniform: true)),
                .attribute(USDAttribute("indices", "int[]", .intArray((0..<Int32(rim.triangleCount)).map { $0 + Int32(disc.triangleCount) }))),
                .relationship(USDRelationship("material:binding", targets: [materialPath("border")])),
            ]
            prim.children = [subset]
            countries.append((p.id, prim))
        }
        // Countries in ISO order whatever their kind, as in the glb.
        var countriesPrim = USDPrim("countries", type: "Xform")
        countriesPrim.children = countries.enumerated().sorted { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) }.map(\.element.prim)

        var outlines = USDPrim("outlines", type: "Xform")
        for s in sectors {
            let name = "outline_sector_\(s.index)"
            guard !s.positions.isEmpty else { outlines.children.append(USDPrim(name, type: "Xform")); continue }
            var pos = [Float](repeating: 0, count: s.positions.count * 3)
            var miter = [UInt16](repeating: 0, count: s.positions.count * 3)
            for (i, p) in s.positions.enumerated() {
                pos[3 * i] = Float(p.x * o.outlineRadius); pos[3 * i + 1] = Float(p.y * o.outlineRadius); pos[3 * i + 2] = Float(p.z * o.outlineRadius)
                let m = s.miters[i]
                miter[3 * i] = Half.bits(Float(m.x)); miter[3 * i + 1] = Half.bits(Float(m.y)); miter[3 * i + 2] = Half.bits(Float(m.z))
            }
            // No normals on the ribbons, as in the glb: a zero-width ribbon draws nothing until a
            // renderer widens it along its miter, and its emissive material reads no normal;
            // radial normals would add 12 bytes a vertex (3.7 MB), past the 12 MB budget. The
            // miter is half precision (the glb stores it in bytes; half keeps 3 significant digits).
            var prim = mesh(name, points: pos, normals: nil, triangles: ribbonTriangles(s), material: materialPath("border"))
            // The ribbons are widened by a renderer that reads the miter; they can fold over at
            // sharp turns, so both sides are drawn (the glb's border material is double-sided).
            prim.properties += [
                .attribute(USDAttribute("doubleSided", "bool", .bool(true), uniform: true)),
                .attribute(USDAttribute("primvars:miter", "vector3h[]", .half3Array(miter), interpolation: "vertex")),
            ]
            outlines.children.append(prim)
        }

        var capitalsPrim = USDPrim("capitals", type: "Xform")
        for (k, c) in capitals.enumerated() {
            let (p, n) = floats(markers.stars[k])
            capitalsPrim.children.append(mesh("capital_\(c.id)", points: p, normals: n, triangles: markers.stars[k].triangles, material: materialPath("capital")))
        }

        let (op, on) = floats(markers.ocean), (ap, an) = floats(markers.atmosphere)
        var globe = USDPrim("globe", type: "Xform")
        globe.children = [
            mesh("ocean", points: op, normals: on, triangles: markers.ocean.triangles, material: materialPath("ocean")),
            countriesPrim, outlines, capitalsPrim,
            mesh("atmosphere", points: ap, normals: an, triangles: markers.atmosphere.triangles, material: materialPath("atmosphere")),
            materials(),
        ]
        var layer = USDLayer(defaultPrim: "globe")
        layer.upAxis = "Y"
        // One unit is the Earth's radius (a unit sphere, CONTRACTS §2). metersPerUnit = 1 keeps
        // scene units equal to SceneKit's and to the glb's (glTF units are metres), so the
        // app's camera distances stay what they are; Quick Look shows a 2 m globe.
        layer.metersPerUnit = 1
        layer.documentation = "Globe cache (CONTRACTS §2–3). Unit sphere, y up: x = r·cos(lat)·cos(-lon), y = r·sin(lat), z = r·cos(lat)·sin(-lon). "
            + "outline_sector_N: zero-width ribbons, vertices in pairs at the same centre-line position; primvars:miter is the tangent miter vector "
            + "of the left (+) or right (−) side: widen with position + miter · halfWidth. Materials are emissive (diffuse and specular black) so the "
            + "palette colour is what shows, as the glb's unlit materials."
        layer.rootPrims = [globe]
        return layer
    }

    /// A triangle mesh bound to `material`.
    static func mesh(_ name: String, points: [Float], normals: [Float]?, triangles: [Int32], material: String) -> USDPrim {
        var lo: [Float] = [.infinity, .infinity, .infinity], hi: [Float] = [-.infinity, -.infinity, -.infinity]
        for i in 0..<(points.count / 3) {
            for k in 0..<3 { lo[k] = min(lo[k], points[3 * i + k]); hi[k] = max(hi[k], points[3 * i + k]) }
        }
        var p = USDPrim(name, type: "Mesh")
        p.apiSchemas = ["MaterialBindingAPI"]
        p.properties = [
            .attribute(USDAttribute("extent", "float3[]", .float3Array(lo + hi))),
            .attribute(USDAttribute("faceVertexCounts", "int[]", .intArray([Int32](repeating: 3, count: triangles.count / 3)))),
            .attribute(USDAttribute("faceVertexIndices", "int[]", .intArray(triangles))),
            .relationship(USDRelationship("material:binding", targets: [material])),
        ]
        if let normals { p.properties.append(.attribute(USDAttribute("normals", "normal3f[]", .float3Array(normals), interpolation: "vertex"))) }
        p.properties += [
            .attribute(USDAttribute("points", "point3f[]", .float3Array(points))),
            .attribute(USDAttribute("subdivisionScheme", "token", .token("none"), uniform: true)),
        ]
        return p
    }

    static func floats(_ m: SceneMesh) -> (positions: [Float], normals: [Float]) {
        var p = [Float](repeating: 0, count: m.positions.count * 3), n = p
        for (i, v) in m.positions.enumerated() { p[3 * i] = Float(v.x); p[3 * i + 1] = Float(v.y); p[3 * i + 2] = Float(v.z) }
        for (i, v) in m.normals.enumerated() { n[3 * i] = Float(v.x); n[3 * i + 1] = Float(v.y); n[3 * i + 2] = Float(v.z) }
        return (p, n)
    }

    /// The sector's triangle strips as a triangle list over all its vertices: strip triangle k is
    /// (s[k], s[k+1], s[k+2]) for even k and (s[k+1], s[k], s[k+2]) for odd k (the glTF/GL rule,
    /// which keeps every triangle's winding); the zero-area triangles that join two runs (a
    /// repeated index) are left out, so each centre-line segment gives two triangles.
    static func ribbonTriangles(_ s: OutlineSector) -> [Int32] {
        var tris: [Int32] = []
        tris.reserveCapacity(6 * s.segmentCount)
        for (k, part) in s.parts.enumerated() {
            let iEnd = k + 1 < s.parts.count ? s.parts[k + 1].index : s.strip.count
            let base = Int32(part.vertex)
            guard iEnd - part.index >= 3 else { continue }
            for t in part.index..<(iEnd - 2) {
                let a = s.strip[t] + base, b = s.strip[t + 1] + base, c = s.strip[t + 2] + base
                if a == b || b == c || a == c { continue }
                // Parity counts from the part's first index, where the glTF primitive starts.
                if (t - part.index) % 2 == 0 { tris.append(a); tris.append(b) } else { tris.append(b); tris.append(a) }
                tris.append(c)
            }
        }
        return tris
    }

    /// One Material per palette entry, each a UsdPreviewSurface that shows the palette colour
    /// whatever the lights: diffuse black (no lit shading), specular black in the specular
    /// workflow and roughness 1 (no highlights), and the colour as emissiveColor. That is the
    /// look of the glb's unlit materials. USD colour inputs are linear, so the sRGB palette is
    /// converted exactly as the glb's baseColorFactor is. The atmosphere's opacity is its alpha.
    static func materials() -> USDPrim {
        var scope = USDPrim(materialsScope, type: "Scope")
        for p in GlobeStage.palette {
            let lin = [p.rgb.0, p.rgb.1, p.rgb.2].map { Float((GLTFBuilder.srgbToLinear($0) * 1e6).rounded() / 1e6) }
            var shader = USDPrim(shaderName, type: "Shader")
            shader.properties = [
                .attribute(USDAttribute("info:id", "token", .token("UsdPreviewSurface"), uniform: true)),
                .attribute(USDAttribute("inputs:diffuseColor", "color3f", .float3(0, 0, 0))),
                .attribute(USDAttribute("inputs:emissiveColor", "color3f", .float3(lin[0], lin[1], lin[2]))),
            ]
            if p.alpha < 1 { shader.properties.append(.attribute(USDAttribute("inputs:opacity", "float", .float(Float(p.alpha))))) }
            shader.properties += [
                .attribute(USDAttribute("inputs:roughness", "float", .float(1))),
                .attribute(USDAttribute("inputs:specularColor", "color3f", .float3(0, 0, 0))),
                .attribute(USDAttribute("inputs:useSpecularWorkflow", "int", .int(1))),
                .attribute(USDAttribute("outputs:surface", "token", nil)),
            ]
            var material = USDPrim(p.name, type: "Material")
            material.properties = [.attribute(USDAttribute("outputs:surface", "token", nil, connection: "/globe/\(materialsScope)/\(p.name)/\(shaderName).outputs:surface"))]
            material.children = [shader]
            scope.children.append(material)
        }
        return scope
    }
}

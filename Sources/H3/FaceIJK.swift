// Face-centred ijk coordinates on the icosahedron: projection to and from the sphere,
// overage onto neighbouring faces, and cell vertices (H3 C 4.5.0 faceijk.c semantics).

import Geodesy
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct FaceOrient {
    var face: Int, ti: Int, tj: Int, tk: Int, rot: Int
}

struct FaceIJK {
    var face: Int
    var coord: CoordIJK
}

enum Overage { case none, faceEdge, newFace }

/// Largest coordinate sum on a face at each Class II resolution (-1: Class III).
let maxDimByCIIres: [Int] = [2, -1, 14, -1, 98, -1, 686, -1, 4802, -1, 33614, -1, 235298, -1, 1647086, -1, 11529602]
/// Unit scale distance at each Class II resolution.
let unitScaleByCIIres: [Int] = [1, -1, 7, -1, 49, -1, 343, -1, 2401, -1, 16807, -1, 117649, -1, 823543, -1, 5764801]

@inline(__always) func isClassIII(_ res: Int) -> Bool { res & 1 == 1 }

// MARK: - Sphere → face

@inline(__always) func closestFace(_ v: Vec3) -> (face: Int, sqd: Double) {
    var face = 0
    var sqd = 5.0
    H3Tables.faceCenterPoint.withUnsafeBufferPointer { fc in
        for f in 0..<20 {
            let c = fc[f]
            let dx = c.x - v.x, dy = c.y - v.y, dz = c.z - v.z
            let d = dx * dx + dy * dy + dz * dz
            if d < sqd { face = f; sqd = d }
        }
    }
    return (face, sqd)
}

@inline(__always) func vec3ToHex2d(_ p: Vec3, _ res: Int) -> (face: Int, x: Double, y: Double) {
    let (face, sqd) = closestFace(p)
    var r = acos(1 - sqd * 0.5)
    if r < EPSILON_H3 { return (face, 0.0, 0.0) }
    let fc = H3Tables.faceCenterPoint[face]
    let basis = faceTangentBasis[face]
    var theta = posAngleRads(H3Tables.faceAxesAzRadsCII0[face] - posAngleRads(vec3AzimuthRads(fc, basis.north, basis.east, p)))
    if isClassIII(res) { theta = posAngleRads(theta - M_AP7_ROT_RADS_H3) }
    r = tan(r)
    r *= INV_RES0_U_GNOMONIC_H3
    for _ in 0..<res { r *= M_SQRT7_H3 }
    let sc = sinCos(theta)
    return (face, r * sc.cos, r * sc.sin)
}

/// Tangent basis at each face centre, computed once with the same arithmetic upstream
/// repeats on every call (so the bits are the same).
let faceTangentBasis: [(north: Vec3, east: Vec3)] = H3Tables.faceCenterPoint.map { tangentBasis($0) }

@inline(__always) func vec3ToFaceIjk(_ p: Vec3, _ res: Int) -> FaceIJK {
    let (face, x, y) = vec3ToHex2d(p, res)
    return FaceIJK(face: face, coord: CoordIJK.fromHex2d(x, y))
}

// MARK: - Face → sphere

func hex2dToVec3(_ vx: Double, _ vy: Double, _ face: Int, _ res: Int, _ substrate: Bool) -> Vec3 {
    var r = (vx * vx + vy * vy).squareRoot()
    let fc = H3Tables.faceCenterPoint[face]
    if r < EPSILON_H3 { return fc }
    var theta = atan2(vy, vx)
    for _ in 0..<res { r *= M_RSQRT7_H3 }
    if substrate {
        r *= M_ONETHIRD_H3
        if isClassIII(res) { r *= M_RSQRT7_H3 }
    }
    r *= RES0_U_GNOMONIC_H3
    r = atan(r)
    if !substrate && isClassIII(res) { theta = posAngleRads(theta + M_AP7_ROT_RADS_H3) }
    theta = posAngleRads(H3Tables.faceAxesAzRadsCII0[face] - theta)
    let (north, east) = faceTangentBasis[face]
    let st = sinCos(theta), sr = sinCos(r)
    let dir = linComb(st.cos, north, st.sin, east)
    return normalized(linComb(sr.cos, fc, sr.sin, dir))
}

/// Cosine and sine of each face's i-axis azimuth (for the vertex path below).
let faceAxisCosSin: [(cos: Double, sin: Double)] = H3Tables.faceAxesAzRadsCII0.map { (cos($0), sin($0)) }

/// Substrate-grid vertex → sphere, the same geometry as `hex2dToVec3(..., substrate: true)`
/// with the angles replaced by their cosines and sines (angle-difference identities,
/// cos atan x = 1/√(1+x²)): four fewer libm calls per vertex, and the result differs from
/// upstream's in the last bits only (≈1e-16 rad; the check bounds it by 1e-9 rad).
/// Cell centres keep the exact path, since containment tests depend on their bits.
@inline(__always) func substrateVertexToLatLng(_ vx: Double, _ vy: Double, _ face: Int, _ res: Int) -> LatLng {
    let r0 = (vx * vx + vy * vy).squareRoot()
    let fc = H3Tables.faceCenterPoint[face]
    if r0 < EPSILON_H3 { return vec3ToLatLng(fc) }
    var x = r0 * resScaleSubstrate[res]
    x *= RES0_U_GNOMONIC_H3
    let cosRho = 1.0 / (1.0 + x * x).squareRoot()
    let sinRho = x * cosRho
    let ct = vx / r0, st = vy / r0
    let az = faceAxisCosSin[face]
    let cosT = az.cos * ct + az.sin * st
    let sinT = az.sin * ct - az.cos * st
    let (north, east) = faceTangentBasis[face]
    let dir = linComb(cosT, north, sinT, east)
    let v = normalized(linComb(cosRho, fc, sinRho, dir))
    // Near a pole a last-bit difference in x, y turns into a large longitude difference:
    // there, take upstream's exact path.
    if abs(v.z) > 0.99 { return vec3ToLatLng(hex2dToVec3(vx, vy, face, res, true)) }
    return vec3ToLatLng(v)
}

@inline(__always) func vertexToLatLng(_ vx: Double, _ vy: Double, _ face: Int, _ res: Int, _ exact: Bool) -> LatLng {
    exact ? vec3ToLatLng(hex2dToVec3(vx, vy, face, res, true)) : substrateVertexToLatLng(vx, vy, face, res)
}

/// (1/√7)^res · 1/3 (· 1/√7 for Class III), the substrate scale of hex2dToVec3.
let resScaleSubstrate: [Double] = (0...16).map { res in
    var r = 1.0
    for _ in 0..<res { r *= M_RSQRT7_H3 }
    r *= M_ONETHIRD_H3
    if isClassIII(res) { r *= M_RSQRT7_H3 }
    return r
}

@inline(__always) func faceIjkToVec3(_ h: FaceIJK, _ res: Int) -> Vec3 {
    let v = h.coord.toHex2d()
    return hex2dToVec3(v.x, v.y, h.face, res, false)
}

// MARK: - Overage

/// Moves an ijk that lies beyond its face's edge onto the neighbouring face.
@inline(__always) func adjustOverageClassII(_ fijk: inout FaceIJK, _ res: Int, _ pentLeading4: Bool, _ substrate: Bool) -> Overage {
    var overage = Overage.none
    var maxDim = maxDimByCIIres[res]
    if substrate { maxDim *= 3 }
    let sum = fijk.coord.i + fijk.coord.j + fijk.coord.k
    if substrate && sum == maxDim {
        overage = .faceEdge
    } else if sum > maxDim {
        overage = .newFace
        let quadrant: Int
        if fijk.coord.k > 0 {
            if fijk.coord.j > 0 {
                quadrant = 3 // jk
            } else {
                quadrant = 2 // ki
                if pentLeading4 {
                    // rotate about the pentagon centre to skip the missing sequence
                    let origin = CoordIJK(maxDim, 0, 0)
                    var tmp = fijk.coord - origin
                    tmp.rotate60cw()
                    fijk.coord = tmp + origin
                }
            }
        } else {
            quadrant = 1 // ij
        }
        let o = H3Tables.faceNeighbors[fijk.face * 4 + quadrant]
        fijk.face = o.face
        for _ in 0..<o.rot { fijk.coord.rotate60ccw() }
        var unitScale = unitScaleByCIIres[res]
        if substrate { unitScale *= 3 }
        fijk.coord = fijk.coord + CoordIJK(o.ti, o.tj, o.tk).scaled(unitScale)
        fijk.coord.normalize()
        if substrate && fijk.coord.i + fijk.coord.j + fijk.coord.k == maxDim { overage = .faceEdge }
    }
    return overage
}

@inline(__always) func adjustPentVertOverage(_ fijk: inout FaceIJK, _ res: Int) -> Overage {
    var overage: Overage
    repeat { overage = adjustOverageClassII(&fijk, res, false, true) } while overage == .newFace
    return overage
}

// MARK: - Vertices

private let vertsCII: [CoordIJK] = [CoordIJK(2, 1, 0), CoordIJK(1, 2, 0), CoordIJK(0, 2, 1), CoordIJK(0, 1, 2), CoordIJK(1, 0, 2), CoordIJK(2, 0, 1)]
private let vertsCIII: [CoordIJK] = [CoordIJK(5, 4, 0), CoordIJK(1, 5, 0), CoordIJK(0, 5, 4), CoordIJK(0, 1, 5), CoordIJK(4, 0, 5), CoordIJK(5, 0, 1)]

/// Vertex FaceIJKs of a cell on the substrate grid (res is bumped for Class III).
@inline(__always) func faceIjkToVerts(_ fijk: inout FaceIJK, _ res: inout Int, count: Int, _ out: inout FixedVerts) {
    let verts = isClassIII(res) ? vertsCIII : vertsCII
    fijk.coord.downAp3()
    fijk.coord.downAp3r()
    if isClassIII(res) {
        fijk.coord.downAp7r()
        res += 1
    }
    for v in 0..<count {
        var c = fijk.coord + verts[v]
        c.normalize()
        out[v] = FaceIJK(face: fijk.face, coord: c)
    }
}

/// Six FaceIJK slots without heap allocation.
struct FixedVerts {
    var storage: (FaceIJK, FaceIJK, FaceIJK, FaceIJK, FaceIJK, FaceIJK)
    init() {
        let z = FaceIJK(face: 0, coord: CoordIJK(0, 0, 0))
        storage = (z, z, z, z, z, z)
    }
    subscript(i: Int) -> FaceIJK {
        @inline(__always) get {
            withUnsafeBytes(of: storage) { $0.baseAddress!.assumingMemoryBound(to: FaceIJK.self)[i] }
        }
        @inline(__always) set {
            withUnsafeMutableBytes(of: &storage) { $0.baseAddress!.assumingMemoryBound(to: FaceIJK.self)[i] = newValue }
        }
    }
}

/// Up to ten boundary vertices without heap allocation.
public struct CellBoundary {
    public private(set) var count = 0
    private var storage: (LatLng, LatLng, LatLng, LatLng, LatLng, LatLng, LatLng, LatLng, LatLng, LatLng)
    public init() {
        let z = LatLng(lat: 0, lng: 0)
        storage = (z, z, z, z, z, z, z, z, z, z)
    }
    @inline(__always) mutating func append(_ p: LatLng) {
        withUnsafeMutableBytes(of: &storage) { $0.baseAddress!.assumingMemoryBound(to: LatLng.self)[count] = p }
        count += 1
    }
    public subscript(i: Int) -> LatLng {
        precondition(i >= 0 && i < count)
        return withUnsafeBytes(of: storage) { $0.baseAddress!.assumingMemoryBound(to: LatLng.self)[i] }
    }
    public var array: [LatLng] { (0..<count).map { self[$0] } }
}

@inline(__always) private func faceEdge(_ dir: Int, _ maxDim: Int) -> ((x: Double, y: Double), (x: Double, y: Double)) {
    let md = Double(maxDim)
    let v0 = (x: 3.0 * md, y: 0.0)
    let v1 = (x: -1.5 * md, y: 3.0 * M_SQRT3_2_H3 * md)
    let v2 = (x: -1.5 * md, y: -3.0 * M_SQRT3_2_H3 * md)
    switch dir {
    case 1: return (v0, v1) // IJ
    case 3: return (v1, v2) // JK
    default: return (v2, v0) // KI
    }
}

func faceIjkToCellBoundary(_ h: FaceIJK, _ res: Int, _ g: inout CellBoundary, exact: Bool) {
    var adjRes = res
    var center = h
    var verts = FixedVerts()
    faceIjkToVerts(&center, &adjRes, count: 6, &verts)
    var lastFace = -1
    var lastOverage = Overage.none
    for vert in 0..<7 {
        let v = vert % 6
        var fijk = verts[v]
        let overage = adjustOverageClassII(&fijk, adjRes, false, true)
        // A Class III edge crossing an icosahedron edge gets an extra vertex there,
        // each half projected on its own face.
        if isClassIII(res) && vert > 0 && fijk.face != lastFace && lastOverage != .faceEdge {
            let lastV = (v + 5) % 6
            let orig0 = verts[lastV].coord.toHex2d()
            let orig1 = verts[v].coord.toHex2d()
            let face2 = lastFace == center.face ? fijk.face : lastFace
            let (e0, e1) = faceEdge(Int(H3Tables.adjacentFaceDir[center.face * 20 + face2]), maxDimByCIIres[adjRes])
            let inter = v2dIntersect(orig0, orig1, e0, e1)
            if !(v2dAlmostEquals(orig0, inter) || v2dAlmostEquals(orig1, inter)) {
                g.append(vertexToLatLng(inter.x, inter.y, center.face, adjRes, exact))
            }
        }
        if vert < 6 {
            let vec = fijk.coord.toHex2d()
            g.append(vertexToLatLng(vec.x, vec.y, fijk.face, adjRes, exact))
        }
        lastFace = fijk.face
        lastOverage = overage
    }
}

func faceIjkPentToCellBoundary(_ h: FaceIJK, _ res: Int, _ g: inout CellBoundary, exact: Bool) {
    var adjRes = res
    var center = h
    var verts = FixedVerts()
    faceIjkToVerts(&center, &adjRes, count: 5, &verts)
    var lastFijk = FaceIJK(face: 0, coord: CoordIJK(0, 0, 0))
    for vert in 0..<6 {
        let v = vert % 5
        var fijk = verts[v]
        _ = adjustPentVertOverage(&fijk, adjRes)
        // every Class III pentagon edge crosses an icosahedron edge
        if isClassIII(res) && vert > 0 {
            var tmp = fijk
            let orig0 = lastFijk.coord.toHex2d()
            let dir = Int(H3Tables.adjacentFaceDir[tmp.face * 20 + lastFijk.face])
            let o = H3Tables.faceNeighbors[tmp.face * 4 + dir]
            tmp.face = o.face
            for _ in 0..<o.rot { tmp.coord.rotate60ccw() }
            tmp.coord = tmp.coord + CoordIJK(o.ti, o.tj, o.tk).scaled(unitScaleByCIIres[adjRes] * 3)
            tmp.coord.normalize()
            let orig1 = tmp.coord.toHex2d()
            let (e0, e1) = faceEdge(Int(H3Tables.adjacentFaceDir[tmp.face * 20 + fijk.face]), maxDimByCIIres[adjRes])
            let inter = v2dIntersect(orig0, orig1, e0, e1)
            g.append(vertexToLatLng(inter.x, inter.y, tmp.face, adjRes, exact))
        }
        if vert < 5 {
            let vec = fijk.coord.toHex2d()
            g.append(vertexToLatLng(vec.x, vec.y, fijk.face, adjRes, exact))
        }
        lastFijk = fijk
    }
}

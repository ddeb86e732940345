// Grid traversal and polygon filling (H3 C 4.5.0 algos.c, polygon.c, bbox.c semantics).

import Geodesy
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Digit and adjustment tables of h3NeighborRotations, transcribed from H3 4.5.0 algos.c
// (Copyright Uber Technologies, Inc., Apache License 2.0); [oldDigit * 7 + direction].
private let newDigitIi: [Int] = [0, 1, 2, 3, 4, 5, 6, 1, 4, 3, 6, 5, 2, 0, 2, 3, 1, 4, 6, 0, 5, 3, 6, 4, 5, 0, 1, 2, 4, 5, 6, 0, 2, 3, 1, 5, 2, 0, 1, 3, 6, 4, 6, 0, 5, 2, 1, 4, 3]
private let newAdjustmentIi: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 5, 0, 0, 0, 2, 3, 0, 0, 2, 0, 1, 3, 3, 0, 0, 0, 0, 0, 0, 0, 4, 4, 6, 0, 5, 0, 0, 4, 5, 0, 0, 0, 2, 0, 6, 0, 6]
private let newDigitIii: [Int] = [0, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 0, 2, 3, 4, 5, 6, 0, 1, 3, 4, 5, 6, 0, 1, 2, 4, 5, 6, 0, 1, 2, 3, 5, 6, 0, 1, 2, 3, 4, 6, 0, 1, 2, 3, 4, 5]
private let newAdjustmentIii: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 1, 0, 0, 0, 2, 2, 0, 0, 6, 0, 3, 2, 3, 0, 0, 0, 0, 0, 0, 0, 4, 5, 4, 0, 1, 0, 0, 5, 5, 0, 0, 0, 6, 0, 4, 0, 6]

enum NeighborResult { case ok(UInt64, rotations: Int), pentagon, failed }

/// The neighbour of `origin` in direction `dir` (1...6), tracking ccw rotations.
func neighborRotations(_ origin: UInt64, _ dirIn: Int, _ rotationsIn: Int) -> NeighborResult {
    var current = origin
    var dir = dirIn
    var rotations = rotationsIn % 6
    for _ in 0..<rotations { dir = rotateDigit60ccw(dir) }
    var newRotations = 0
    let oldBaseCell = current.h3BaseCell
    let oldLeadingDigit = leadingNonZeroDigit(current)
    var r = current.h3Res - 1
    while true {
        if r == -1 {
            var nbc = Int(H3Tables.baseCellNeighbors[oldBaseCell * 7 + dir])
            newRotations = Int(H3Tables.baseCellNeighbor60CCWRots[oldBaseCell * 7 + dir])
            if nbc == 127 {
                // moving into the deleted k subsequence of a pentagon: go around it
                nbc = Int(H3Tables.baseCellNeighbors[oldBaseCell * 7 + 5])
                newRotations = Int(H3Tables.baseCellNeighbor60CCWRots[oldBaseCell * 7 + 5])
                current.setH3BaseCell(nbc)
                current = rotate60ccw(current)
                rotations += 1
            } else {
                current.setH3BaseCell(nbc)
            }
            break
        } else {
            let oldDigit = current.h3Digit(r + 1)
            let nextDir: Int
            if oldDigit == 7 { return .failed }
            if isClassIII(r + 1) {
                current.setH3Digit(r + 1, newDigitIi[oldDigit * 7 + dir])
                nextDir = newAdjustmentIi[oldDigit * 7 + dir]
            } else {
                current.setH3Digit(r + 1, newDigitIii[oldDigit * 7 + dir])
                nextDir = newAdjustmentIii[oldDigit * 7 + dir]
            }
            if nextDir != 0 {
                dir = nextDir
                r -= 1
            } else {
                break
            }
        }
    }
    let newBaseCell = current.h3BaseCell
    if isBaseCellPentagon(newBaseCell) {
        var alreadyAdjustedK = false
        if leadingNonZeroDigit(current) == 1 {
            if oldBaseCell != newBaseCell {
                let cw = H3Tables.baseCellCwOffset[newBaseCell]
                let homeFace = H3Tables.baseCellHome[oldBaseCell].face
                if Int(cw.0) == homeFace || Int(cw.1) == homeFace {
                    current = rotate60cw(current)
                } else {
                    current = rotate60ccw(current)
                }
                alreadyAdjustedK = true
            } else {
                switch oldLeadingDigit {
                case 0: return .pentagon
                case 3: current = rotate60ccw(current); rotations += 1
                case 5: current = rotate60cw(current); rotations += 5
                default: return .failed
                }
            }
        }
        for _ in 0..<newRotations { current = rotatePent60ccw(current) }
        if oldBaseCell != newBaseCell {
            if newBaseCell == 4 || newBaseCell == 117 {
                if oldBaseCell != 118 && oldBaseCell != 8 && leadingNonZeroDigit(current) != 3 {
                    rotations += 1
                }
            } else if leadingNonZeroDigit(current) == 5 && !alreadyAdjustedK {
                rotations += 1
            }
        }
    } else {
        for _ in 0..<newRotations { current = rotate60ccw(current) }
    }
    return .ok(current, rotations: (rotations + newRotations) % 6)
}

/// Directions in the order gridDisk walks them.
let diskDirections = [2, 3, 1, 5, 4, 6]

extension H3 {
    /// All cells within grid distance k (pentagons included), in order of increasing distance.
    public static func gridDisk(_ h: H3Index, k: Int) throws -> [H3Index] {
        try checkCell(h)
        guard k >= 0 else { throw H3Error.invalidK(k) }
        return try gridDiskDistances(h.value, k).map { H3Index($0.cell) }
    }

    /// Breadth-first walk over h3's neighbour relation: the same set as gridDiskDistancesSafe.
    static func gridDiskDistances(_ origin: UInt64, _ k: Int) throws -> [(cell: UInt64, distance: Int)] {
        var out: [(cell: UInt64, distance: Int)] = [(origin, 0)]
        var seen: Set<UInt64> = [origin]
        var frontier = [origin]
        var d = 0
        while d < k && !frontier.isEmpty {
            d += 1
            var next: [UInt64] = []
            for c in frontier {
                for dir in diskDirections {
                    switch neighborRotations(c, dir, 0) {
                    case .ok(let n, _):
                        if seen.insert(n).inserted { next.append(n); out.append((n, d)) }
                    case .pentagon: continue
                    case .failed: throw H3Error.failed("gridDisk failed around \(H3Index(c))")
                    }
                }
            }
            frontier = next
        }
        return out
    }

    /// The neighbours of a cell (5 for a pentagon, 6 otherwise), without the cell itself.
    static func neighbors(_ h: UInt64, into out: inout [UInt64]) {
        for dir in diskDirections {
            if case .ok(let n, _) = neighborRotations(h, dir, 0) { out.append(n) }
        }
    }
}

// MARK: - Polygon to cells

struct BBox {
    var north: Double, south: Double, east: Double, west: Double
    @inline(__always) var isTransmeridian: Bool { east < west }
    @inline(__always) func contains(_ p: LatLng) -> Bool {
        p.lat >= south && p.lat <= north &&
            (isTransmeridian ? (p.lng >= west || p.lng <= east) : (p.lng >= west && p.lng <= east))
    }

    init(north: Double, south: Double, east: Double, west: Double) {
        self.north = north; self.south = south; self.east = east; self.west = west
    }

    /// bboxFromGeoLoop: arcs over 180° of longitude mean the loop crosses the antimeridian.
    init(loop: [LatLng]) {
        if loop.isEmpty { self.init(north: 0, south: 0, east: 0, west: 0); return }
        var s = Double.greatestFiniteMagnitude, w = Double.greatestFiniteMagnitude
        var n = -Double.greatestFiniteMagnitude, e = -Double.greatestFiniteMagnitude
        var minPosLng = Double.greatestFiniteMagnitude, maxNegLng = -Double.greatestFiniteMagnitude
        var trans = false
        for i in 0..<loop.count {
            let lat = loop[i].lat, lng = loop[i].lng
            let next = loop[(i + 1) % loop.count]
            if lat < s { s = lat }
            if lng < w { w = lng }
            if lat > n { n = lat }
            if lng > e { e = lng }
            if lng > 0 && lng < minPosLng { minPosLng = lng }
            if lng < 0 && lng > maxNegLng { maxNegLng = lng }
            if abs(lng - next.lng) > Double.pi { trans = true }
        }
        if trans { e = maxNegLng; w = minPosLng }
        self.init(north: n, south: s, east: e, west: w)
    }
}

@inline(__always) private func normalizeLng(_ lng: Double, _ trans: Bool) -> Double {
    trans && lng < 0 ? lng + M_2PI_H3 : lng
}

/// Ray casting in lat/lng as h3's pointInsideGeoLoop (ties biased north and west).
func pointInsideLoop(_ loop: [LatLng], _ bbox: BBox, _ coord: LatLng) -> Bool {
    if !bbox.contains(coord) { return false }
    let trans = bbox.isTransmeridian
    var contains = false
    var lat = coord.lat
    var lng = normalizeLng(coord.lng, trans)
    let n = loop.count
    loop.withUnsafeBufferPointer { v in
        for i in 0..<n { rayStep(v[i], v[i + 1 == n ? 0 : i + 1], &lat, &lng, trans, &contains) }
    }
    return contains
}

/// One edge a–b of h3's ray-casting test (`pointInsideGeoLoop`): toggles `contains` when the
/// eastward ray from (lat, lng) crosses it. `lat` and `lng` are nudged by one ulp off a vertex's
/// latitude or longitude, and the nudge carries over to the next edges, exactly as upstream.
@inline(__always) func rayStep(_ a: LatLng, _ b: LatLng, _ lat: inout Double, _ lng: inout Double, _ trans: Bool, _ contains: inout Bool) {
    var a = a, b = b
    if a.lat > b.lat { swap(&a, &b) }
    if lat == a.lat || lat == b.lat { lat += Double.ulpOfOne }
    if lat < a.lat || lat > b.lat { return }
    let aLng = normalizeLng(a.lng, trans)
    let bLng = normalizeLng(b.lng, trans)
    if aLng == lng || bLng == lng { lng -= Double.ulpOfOne }
    let ratio = (lat - a.lat) / (b.lat - a.lat)
    let testLng = normalizeLng(aLng + (bLng - aLng) * ratio, trans)
    if testLng > lng { contains = !contains }
}

/// A loop with its edges bucketed by latitude, so a ray-casting test visits only the edges
/// whose latitude span can hold the point instead of all of them (a 1,000-vertex run loop is
/// tested a few hundred times by polygonToCells). The edges a bucket holds are visited in the
/// loop's order and with `pointInsideLoop`'s exact arithmetic, so every answer is the same:
/// an edge left out is one whose span misses the point's latitude by more than `margin`,
/// which the tie nudges (`lat += ε`, at most one per edge) can never bridge, so that edge
/// would have been skipped, unchanged, there too.
struct IndexedLoop {
    let loop: [LatLng]
    let bbox: BBox
    private let south: Double, height: Double
    private let buckets: Int
    /// Bucket b's edges (the index of each edge's first vertex): edges[starts[b]..<starts[b+1]].
    private var starts: [Int32] = []
    private var edges: [Int32] = []
    private static let margin = 1e-9  // radians, ≈ 6 mm; ≫ n ulps of a latitude

    init(_ loop: [LatLng], _ bbox: BBox) {
        self.loop = loop; self.bbox = bbox
        let n = loop.count
        south = bbox.south
        let span = bbox.north - bbox.south
        buckets = n >= 32 && span > 0 && span.isFinite ? min(n / 4, 4096) : 1
        height = buckets > 1 ? span / Double(buckets) : 1
        guard buckets > 1 else { return }
        var lo = [Int32](repeating: 0, count: n), hi = [Int32](repeating: 0, count: n)
        var counts = [Int32](repeating: 0, count: buckets + 1)
        for i in 0..<n {
            let a = loop[i].lat, b = loop[i + 1 == n ? 0 : i + 1].lat
            lo[i] = Int32(bucket(min(a, b) - Self.margin)); hi[i] = Int32(bucket(max(a, b) + Self.margin))
            for k in lo[i]...hi[i] { counts[Int(k) + 1] += 1 }
        }
        for k in 0..<buckets { counts[k + 1] += counts[k] }
        starts = counts
        edges = [Int32](repeating: 0, count: Int(counts[buckets]))
        var fill = counts
        for i in 0..<n {
            for k in lo[i]...hi[i] { edges[Int(fill[Int(k)])] = Int32(i); fill[Int(k)] += 1 }
        }
    }

    /// Monotonic in `lat` (a subtraction, a division by a positive number, a clamp).
    @inline(__always) private func bucket(_ lat: Double) -> Int {
        let k = ((lat - south) / height).rounded(.down)
        return k < 0 ? 0 : (k >= Double(buckets - 1) ? buckets - 1 : Int(k))
    }

    func contains(_ coord: LatLng) -> Bool {
        guard buckets > 1 else { return pointInsideLoop(loop, bbox, coord) }
        if !bbox.contains(coord) { return false }
        let trans = bbox.isTransmeridian
        var contains = false
        var lat = coord.lat
        var lng = normalizeLng(coord.lng, trans)
        let n = loop.count
        let k = bucket(lat)
        loop.withUnsafeBufferPointer { v in
            edges.withUnsafeBufferPointer { e in
                for j in Int(starts[k])..<Int(starts[k + 1]) {
                    let i = Int(e[j])
                    rayStep(v[i], v[i + 1 == n ? 0 : i + 1], &lat, &lng, trans, &contains)
                }
            }
        }
        return contains
    }
}

func pointInsidePolygon(_ loops: [IndexedLoop], _ coord: LatLng) -> Bool {
    guard loops[0].contains(coord) else { return false }
    for h in loops.dropFirst() where h.contains(coord) { return false }
    return true
}

func pointInsidePolygon(_ p: GeoPolygon, _ bboxes: [BBox], _ coord: LatLng) -> Bool {
    var contains = pointInsideLoop(p.outer, bboxes[0], coord)
    if contains {
        for i in 0..<p.holes.count where pointInsideLoop(p.holes[i], bboxes[i + 1], coord) {
            contains = false
            break
        }
    }
    return contains
}

extension H3 {
    /// Radius of a res-`res` pentagon (centre to first vertex), as h3's estimators use.
    static func pentagonRadiusKm(_ res: Int) -> Double {
        let p = makeIndex(res: res, baseCell: 4, digit: 0)
        let c = vec3ToLatLng(faceIjkToVec3(h3ToFaceIjk(p), res))
        var b = CellBoundary()
        boundary(p, &b, exact: true)
        return greatCircleDistanceKm(c, b[0])
    }

    static func bboxHexEstimate(_ bbox: BBox, _ res: Int) throws -> Int {
        let r = pentagonRadiusKm(res)
        let pentagonAreaKm2 = 0.8 * (2.59807621135 * r * r)
        let p1 = LatLng(lat: bbox.north, lng: bbox.east), p2 = LatLng(lat: bbox.south, lng: bbox.west)
        let d = greatCircleDistanceKm(p1, p2)
        let lngDiff = abs(p1.lng - p2.lng), latDiff = abs(p1.lat - p2.lat)
        if lngDiff == 0 || latDiff == 0 { throw H3Error.failed("polygon has a zero-width or zero-height bounding box") }
        let length = max(lngDiff, latDiff), width = min(lngDiff, latDiff)
        let ratio = length / width
        let a = d * d / min(3.0, ratio)
        let est = (a / pentagonAreaKm2).rounded(.up)
        guard est.isFinite else { throw H3Error.failed("polygon size estimate is not finite") }
        return max(1, Int(est))
    }

    static func lineHexEstimate(_ o: LatLng, _ d: LatLng, _ pentRadiusKm: Double) throws -> Int {
        let dist = greatCircleDistanceKm(o, d)
        let c = (dist / (2 * pentRadiusKm)).rounded(.up)
        guard c.isFinite else { throw H3Error.failed("edge length estimate is not finite") }
        return max(1, Int(c))
    }

    /// An upper bound on the number of cells `polygonToCells` gives, as h3's
    /// maxPolygonToCellsSize computes it: the estimate for the outer loop's bounding box, at
    /// least the number of vertices, plus h3's buffer of 12. Fails, like h3, on a degenerate box.
    public static func maxPolygonToCellsSize(_ polygon: GeoPolygon, res: Int) throws -> Int {
        try checkRes(res)
        func open(_ l: [LatLng]) -> [LatLng] { l.count > 1 && l.first == l.last ? Array(l.dropLast()) : l }
        let outer = open(polygon.outer)
        for p in outer + polygon.holes.joined() where !(p.lat.isFinite && p.lng.isFinite) {
            throw H3Error.invalidCoordinate(lat: p.lat, lng: p.lng)
        }
        if outer.isEmpty { return 0 }
        let estimate = try bboxHexEstimate(BBox(loop: outer), res)
        let vertices = outer.count + polygon.holes.reduce(0) { $0 + open($1).count }
        return max(estimate, vertices) + 12
    }

    /// Cells whose centre lies inside the polygon (h3's default containment), sorted.
    /// Edges are straight lines in lat/lng; holes are excluded; the result equals h3's
    /// polygonToCells: edge cells are traced, then filled from them by neighbours.
    /// A loop may repeat its first vertex at the end (GeoJSON style); like h3-py, that closing
    /// vertex is dropped.
    public static func polygonToCells(_ polygonIn: GeoPolygon, res: Int) throws -> [H3Index] {
        try checkRes(res)
        func open(_ l: [LatLng]) -> [LatLng] { l.count > 1 && l.first == l.last ? Array(l.dropLast()) : l }
        let polygon = GeoPolygon(outer: open(polygonIn.outer), holes: polygonIn.holes.map(open))
        for p in polygon.outer + polygon.holes.joined() where !(p.lat.isFinite && p.lng.isFinite) {
            throw H3Error.invalidCoordinate(lat: p.lat, lng: p.lng)
        }
        if polygon.outer.isEmpty { return [] }
        var bboxes = [BBox(loop: polygon.outer)]
        for h in polygon.holes { bboxes.append(BBox(loop: h)) }
        // Same size check as maxPolygonToCellsSize (it fails on degenerate boxes).
        _ = try bboxHexEstimate(bboxes[0], res)
        let pentRadius = pentagonRadiusKm(res)

        var search: [UInt64] = []
        var traced = Set<UInt64>()
        // An edge shorter than a pentagon's diameter is sampled once (lineHexEstimate is 1),
        // and a run loop's 5 m edges all are: a flat bound decides that without the haversine.
        // The great-circle angle is at most √(Δlat² + Δlng²) (plus a relative x²/6 below 1e-7
        // for angles under 1e-3 rad), so edges under the limit, with 1e-6 to spare, are 1.
        let quickLimit = min(1e-6, ((2 * pentRadius / EARTH_RADIUS_KM_H3) * (1 - 1e-6)) * ((2 * pentRadius / EARTH_RADIUS_KM_H3) * (1 - 1e-6)))
        // A run loop's samples are metres apart and mostly fall in the cell of the one before:
        // the index is a function of the face and ijk alone, so it is not recomputed (and the
        // cell is already traced).
        var lastFace = -1, lastIJK = CoordIJK(0, 0, 0)
        for loop in [polygon.outer] + polygon.holes {
            let n = loop.count
            for i in 0..<n {
                let o = loop[i], d = loop[i == n - 1 ? 0 : i + 1]
                let dLat = d.lat - o.lat, dLng = d.lng - o.lng
                let est = dLat * dLat + dLng * dLng < quickLimit ? 1 : try lineHexEstimate(o, d, pentRadius)
                for j in 0..<est {
                    let inv = 1.0 / Double(est)
                    let lat = (o.lat * Double(est - j) * inv) + (d.lat * Double(j) * inv)
                    let lng = (o.lng * Double(est - j) * inv) + (d.lng * Double(j) * inv)
                    let fijk = vec3ToFaceIjk(latLngToVec3(lat, lng), res)
                    if fijk.face == lastFace && fijk.coord == lastIJK { continue }
                    lastFace = fijk.face; lastIJK = fijk.coord
                    let cell = faceIjkToH3(fijk, res)
                    if traced.insert(cell).inserted { search.append(cell) }
                }
            }
        }
        let indexed = [IndexedLoop(polygon.outer, bboxes[0])] + polygon.holes.enumerated().map { IndexedLoop($1, bboxes[$0 + 1]) }
        var found = Set<UInt64>()
        // A cell whose centre is outside is a neighbour of several boundary cells: test it once.
        var outside = Set<UInt64>()
        var ring: [UInt64] = []
        ring.reserveCapacity(7)
        while !search.isEmpty {
            var next: [UInt64] = []
            for s in search {
                ring.removeAll(keepingCapacity: true)
                ring.append(s)
                neighbors(s, into: &ring)
                for hex in ring where !found.contains(hex) && !outside.contains(hex) {
                    let c = vec3ToLatLng(faceIjkToVec3(h3ToFaceIjk(hex), res))
                    if !pointInsidePolygon(indexed, c) { outside.insert(hex); continue }
                    found.insert(hex)
                    next.append(hex)
                }
            }
            search = next
        }
        return found.sorted().map { H3Index($0) }
    }
}

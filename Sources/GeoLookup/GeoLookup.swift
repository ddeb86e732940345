import Foundation

/// Offline "where is this?": which country a coordinate is in, the nearest city, and the
/// countries and cities of a list of places, from one index file the pipeline builds
/// (`make lookup` → dist/lookup/lookup.bin; format in IndexFormat.swift).
///
/// Rules:
/// - Land: the country whose polygon (Natural Earth 1:10m, full detail) contains the point.
/// - Sea: within 12 nautical miles (22.224 km, great-circle) of a coast, the country of the
///   nearest coast; farther out, nil. Distances are to the border edges taken as great-circle
///   arcs between their vertices (within 0.2 km of the straight lon/lat edges for Natural
///   Earth's longest, 55 km, edges below 70° of latitude).
/// - Exactly on a border, one answer, always the same: the point counts as lying on the
///   right of each border edge directed from its lexicographically smaller (lon, lat) end,
///   i.e. just south of an east–west edge and just east of a south–north one (to the
///   index's resolution, under 2 m). Where polygons overlap, or at an equal distance from
///   two coasts, the country whose ISO code sorts first.
/// - The nearest city is by great-circle distance; at an equal distance, the larger
///   population, then the name.
///
/// Thread-safe once loaded (read-only): `@unchecked` because of its index buffers, which only
/// `init` writes.
public final class GeoLookup: @unchecked Sendable {
    public struct City: Hashable, Sendable {
        /// Position in the index's city list (stable for one index file).
        public let id: Int
        public let name: String
        /// ISO code of the city's country, when it has one in the index.
        public let countryCode: String?
        public let coordinate: Coordinate
        public let population: Int
    }

    public struct Summary: Equatable, Sendable {
        public var countries: Set<String>
        public var cities: Set<City>
    }

    /// A place counts for a city when that city is its nearest within this distance.
    public static let defaultCityRadiusKm = 25.0

    /// ISO codes, sorted; a country's index is its position here.
    public let countryCodes: [String]
    public let cities: [City]
    /// The coast buffer the index was built with (22.224 km).
    public let coastBufferKm: Double
    /// Size of the file the index was read from.
    public let byteCount: Int

    private let nodes: UnsafeMutableBufferPointer<UInt32>
    private let words: UnsafeMutableBufferPointer<UInt16>
    private let cityStarts: [Int]
    private let bufferAngle: Double

    deinit {
        nodes.deallocate()
        words.deallocate()
    }

    public convenience init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url, options: .mappedIfSafe) } catch {
            throw LookupIndexError("\(url.path): cannot read (\(error.localizedDescription))")
        }
        do { try self.init(data: data) } catch let e as LookupIndexError {
            throw LookupIndexError("\(url.path): \(e.message)")
        }
    }

    public init(data: Data) throws {
        let parsed = try data.withUnsafeBytes { try Self.parse($0) }
        countryCodes = parsed.codes
        cities = parsed.cities
        cityStarts = parsed.cityStarts
        coastBufferKm = parsed.bufferKm
        bufferAngle = parsed.bufferKm / Sphere.earthRadiusKm
        nodes = parsed.nodes
        words = parsed.words
        byteCount = data.count
    }

    // MARK: - Country

    /// ISO code of the country at (latitude, longitude) in degrees, nil at sea beyond 12 nmi.
    public func country(at latitude: Double, _ longitude: Double) -> String? {
        countryIndex(latitude: latitude, longitude: longitude).map { countryCodes[$0] }
    }

    public func country(at c: Coordinate) -> String? { country(at: c.latitude, c.longitude) }

    /// Index into `countryCodes` of the country at the point, or nil.
    public func countryIndex(latitude: Double, longitude lonIn: Double) -> Int? {
        guard latitude.isFinite, lonIn.isFinite, latitude >= -90, latitude <= 90 else { return nil }
        var lon = lonIn
        if lon < -180 || lon > 180 { lon = (lon + 180).truncatingRemainder(dividingBy: 360); if lon < 0 { lon += 360 }; lon -= 180 }
        let row = min(179, Int(latitude + 90)), col = min(359, Int(lon + 180))
        var node = nodes[row &* 360 &+ col]
        var lon0 = Double(col) - 180, lat0 = Double(row) - 90, w = 1.0
        while node >> 30 == IndexFormat.kindInternal {
            w *= 0.5
            var q = 0
            if lon >= lon0 + w { lon0 += w; q = 1 }
            if latitude >= lat0 + w { lat0 += w; q |= 2 }
            node = nodes[Int(node & IndexFormat.payloadMask) &+ q]
        }
        let payload = node & IndexFormat.payloadMask
        switch node >> 30 {
        case IndexFormat.kindUniform: return payload == IndexFormat.noCountry ? nil : Int(payload)
        case IndexFormat.kindLeaf:
            return leafQuery(Int(payload), latitude: latitude, longitude: lon, lon0: lon0, lat0: lat0, size: w)
        default: return nearestCoast(latitude: latitude, longitude: lon)
        }
    }

    @inline(__always) private static func local(_ v: Double, _ v0: Double, _ size: Double) -> Int {
        let x = ((v - v0) / size * IndexFormat.localScale).rounded()
        return x <= 0 ? 0 : (x >= IndexFormat.localScale ? 65535 : Int(x))
    }

    private func leafQuery(_ o: Int, latitude: Double, longitude: Double, lon0: Double, lat0: Double, size: Double) -> Int? {
        let w = words
        let k = Int(w[o] & 0xFF), mode = w[o] >> 8
        let rx = Int(w[o + 2]), ry = Int(w[o + 3])
        let px = Self.local(longitude, lon0, size), py = Self.local(latitude, lat0, size)
        let dx = px - rx, dy = py - ry
        let insideMask = w[o + 4 + k]
        let pieceCount = Int(w[o + 5 + k])
        var i = o + 6 + k
        var flips: UInt16 = 0
        for _ in 0..<pieceCount {
            let mask = w[i], n = Int(w[i + 1])
            i += 2
            var ax = Int(w[i]), ay = Int(w[i + 1])
            var sa = dx * (ay - ry) - dy * (ax - rx) > 0
            var j = i + 2
            let end = i + 2 * n
            while j < end {
                let bx = Int(w[j]), by = Int(w[j + 1])
                let sb = dx * (by - ry) - dy * (bx - rx) > 0
                if sa != sb {
                    // the edge's ends lie on both sides of the walk's line: does the walk reach it?
                    let (sx, sy, tx, ty) = (ax, ay) < (bx, by) ? (ax, ay, bx, by) : (bx, by, ax, ay)
                    let ex = tx - sx, ey = ty - sy
                    let r = ex * (ry - sy) - ey * (rx - sx) > 0
                    let p = ex * (py - sy) - ey * (px - sx) > 0
                    if r != p { flips ^= mask }
                }
                ax = bx; ay = by; sa = sb
                j += 2
            }
            i = end
        }
        let inside = insideMask ^ flips
        if inside != 0 { return Int(w[o + 4 + inside.trailingZeroBitCount]) }
        switch mode {
        case IndexFormat.seaOpen: return nil
        case IndexFormat.seaOwned: return Int(w[o + 1])
        default: return nearestCoast(latitude: latitude, longitude: longitude)
        }
    }

    // MARK: - Coasts

    /// The country of the nearest border edge within the coast buffer, for a point at sea.
    /// (From a point at sea the nearest boundary point of any country is on a coast, so all
    /// edges can be searched; shared borders just tie with the coast they meet.)
    func nearestCoast(latitude: Double, longitude: Double) -> Int? {
        var search = CoastSearch(latitude: latitude, longitude: longitude, angle: bufferAngle)
        let reachDeg = bufferAngle / Sphere.degrees * 1.01 + 1e-6
        let lat0 = max(-90, latitude - reachDeg), lat1 = min(90, latitude + reachDeg)
        let maxAbs = max(abs(lat0), abs(lat1))
        var spans: [(Double, Double)] = []
        if maxAbs >= 89.9 || reachDeg / cos(maxAbs * Sphere.degrees) >= 180 {
            spans = [(-180, 180)]
        } else {
            let s = reachDeg / cos(maxAbs * Sphere.degrees)
            let l0 = longitude - s, l1 = longitude + s
            spans.append((max(-180, l0), min(180, l1)))
            if l0 < -180 { spans.append((l0 + 360, 180)) }
            if l1 > 180 { spans.append((-180, l1 - 360)) }
        }
        for (a, b) in spans {
            let r0 = max(0, Int(floor(lat0 + 90))), r1 = min(179, Int(floor(lat1 + 90)))
            let c0 = max(0, Int(floor(a + 180))), c1 = min(359, Int(floor(b + 180)))
            for r in r0...r1 {
                for c in c0...c1 {
                    searchCoasts(nodes[r * 360 + c], lon0: Double(c) - 180, lat0: Double(r) - 90, size: 1, search: &search)
                }
            }
        }
        return search.country == Int.max ? nil : search.country
    }

    /// The best coast so far, and a cheap lower bound on the distance to a lat/lon box so
    /// that cells and edges that cannot beat it are skipped without trigonometry.
    struct CoastSearch {
        let lat: Double, lon: Double, p: Vec3, cosLat: Double
        var angle: Double, country = Int.max
        init(latitude: Double, longitude: Double, angle: Double) {
            lat = latitude; lon = longitude; self.angle = angle
            p = Sphere.vector(latitude: latitude, longitude: longitude)
            cosLat = cos(latitude * Sphere.degrees)
        }
        /// A lower bound (radians) of the distance to any point of the box, from
        /// hav(d) = hav(Δφ) + cos φ1 cos φ2 hav(Δλ) with the cosines at their smallest.
        @inline(__always) func bound(lon0: Double, lon1: Double, lat0: Double, lat1: Double) -> Double {
            let dlat = max(0, lat0 - lat, lat - lat1)
            var dlon = max(0, lon0 - lon, lon - lon1)
            if dlon > 180 { dlon = max(0, min(abs(lon0 - lon - 360), abs(lon + 360 - lon1), abs(lon0 - lon + 360), abs(lon - 360 - lon1))) }
            if dlon == 0 { return dlat * Sphere.degrees }
            let far = max(abs(lat0), abs(lat1))
            let c = min(cosLat, far >= 90 ? 0 : cos(far * Sphere.degrees))
            let h1 = sin(dlat * Sphere.degrees / 2), h2 = sin(min(180, dlon) * Sphere.degrees / 2)
            return 2 * asin(min(1, (h1 * h1 + c * max(0, c) * h2 * h2).squareRoot()))
        }
    }

    private func searchCoasts(_ node: UInt32, lon0: Double, lat0: Double, size: Double, search: inout CoastSearch) {
        let kind = node >> 30
        if kind == IndexFormat.kindUniform || kind == IndexFormat.kindSeaDistance { return }
        if search.bound(lon0: lon0, lon1: lon0 + size, lat0: lat0, lat1: lat0 + size) > search.angle { return }
        if kind == IndexFormat.kindInternal {
            let first = Int(node & IndexFormat.payloadMask), h = size / 2
            for q in 0..<4 {
                searchCoasts(nodes[first + q], lon0: q & 1 == 0 ? lon0 : lon0 + h, lat0: q & 2 == 0 ? lat0 : lat0 + h,
                             size: h, search: &search)
            }
            return
        }
        let w = words
        var o = Int(node & IndexFormat.payloadMask)
        let k = Int(w[o] & 0xFF)
        let countriesAt = o + 4
        let pieceCount = Int(w[o + 5 + k])
        o += 6 + k
        let scale = size / IndexFormat.localScale
        for _ in 0..<pieceCount {
            let mask = w[o], n = Int(w[o + 1])
            let country = Int(w[countriesAt + mask.trailingZeroBitCount])
            o += 2
            var ax = lon0 + Double(w[o]) * scale, ay = lat0 + Double(w[o + 1]) * scale
            var va: Vec3? = nil
            for j in 1..<n {
                let bx = lon0 + Double(w[o + 2 * j]) * scale, by = lat0 + Double(w[o + 2 * j + 1]) * scale
                if search.bound(lon0: min(ax, bx), lon1: max(ax, bx), lat0: min(ay, by), lat1: max(ay, by)) <= search.angle {
                    let a = va ?? Sphere.vector(latitude: ay, longitude: ax)
                    let b = Sphere.vector(latitude: by, longitude: bx)
                    let d = Sphere.angleToArc(search.p, a, b)
                    if d < search.angle || (d == search.angle && country < search.country) { search.angle = d; search.country = country }
                    va = b
                } else {
                    va = nil
                }
                ax = bx; ay = by
            }
            o += 2 * n
        }
    }

    // MARK: - Cities

    /// The city nearest to the point within `km` (great-circle), or nil.
    public func nearestCity(to c: Coordinate, within km: Double) -> City? {
        guard c.latitude.isFinite, c.longitude.isFinite, km.isFinite, km >= 0, abs(c.latitude) <= 90 else { return nil }
        let reachDeg = km / Sphere.earthRadiusKm / Sphere.degrees * 1.01 + 1e-6
        let lat0 = max(-90, c.latitude - reachDeg), lat1 = min(90, c.latitude + reachDeg)
        let maxAbs = max(abs(lat0), abs(lat1))
        let cell = IndexFormat.cityCellDegrees
        // columns k0...k1 (taken modulo the 180 columns: the box may cross the antimeridian)
        var k0 = 0, k1 = IndexFormat.cityColumns - 1
        if maxAbs < 89.9, reachDeg / cos(maxAbs * Sphere.degrees) < 170 {
            let s = reachDeg / cos(maxAbs * Sphere.degrees)
            k0 = Int(floor((c.longitude - s + 180) / cell)); k1 = Int(floor((c.longitude + s + 180) / cell))
        }
        let r0 = min(IndexFormat.cityRows - 1, max(0, Int((lat0 + 90) / cell))), r1 = min(IndexFormat.cityRows - 1, max(0, Int((lat1 + 90) / cell)))
        var best: City?
        var bestD = Double.infinity
        for r in r0...r1 {
            for kk in k0...k1 {
                let col = (kk % IndexFormat.cityColumns + IndexFormat.cityColumns) % IndexFormat.cityColumns
                let k = r * IndexFormat.cityColumns + col
                for i in cityStarts[k]..<cityStarts[k + 1] {
                    let city = cities[i]
                    let d = Sphere.distanceKm(c, city.coordinate)
                    if d > km { continue }
                    if let b = best, !(d < bestD || (d == bestD && (city.population > b.population || (city.population == b.population && city.name < b.name)))) { continue }
                    best = city; bestD = d
                }
            }
        }
        return best
    }

    public func nearestCity(to latitude: Double, _ longitude: Double, within km: Double) -> City? {
        nearestCity(to: Coordinate(latitude: latitude, longitude: longitude), within: km)
    }

    /// The countries and cities of a list of places (a place counts for its nearest city
    /// within `cityWithinKm`).
    public func summary(of places: [Coordinate], cityWithinKm: Double = GeoLookup.defaultCityRadiusKm) -> Summary {
        var s = Summary(countries: [], cities: [])
        for p in places {
            if let c = country(at: p) { s.countries.insert(c) }
            if let city = nearestCity(to: p, within: cityWithinKm) { s.cities.insert(city) }
        }
        return s
    }

    // MARK: - Reading the file

    private struct Parsed {
        var codes: [String], cities: [City], cityStarts: [Int], bufferKm: Double
        var nodes: UnsafeMutableBufferPointer<UInt32>, words: UnsafeMutableBufferPointer<UInt16>
    }

    private static func parse(_ b: UnsafeRawBufferPointer) throws -> Parsed {
        let hs = IndexFormat.headerSize
        guard b.count >= hs else { throw LookupIndexError("truncated: \(b.count) bytes, shorter than the \(hs)-byte header") }
        guard Array(b[0..<8]) == IndexFormat.magic else { throw LookupIndexError("not a lookup index (no GEOLOOK1 magic)") }
        let length = Int(b.u32(8))
        guard length == b.count else {
            throw LookupIndexError(b.count < length ? "truncated: the header says \(length) bytes, the file has \(b.count)"
                                                   : "\(b.count - length) bytes after the end the header gives (\(length))")
        }
        let nC = Int(b.u32(12)), nN = Int(b.u32(16)), nW = Int(b.u32(20)), nK = Int(b.u32(24)), nS = Int(b.u32(28))
        let bufferKm = b.f64(32)
        func pad4(_ x: Int) -> Int { (x + 3) & ~3 }
        let cOff = hs, kOff = cOff + 8 * nC, sOff = kOff + IndexFormat.cityRecordSize * nK
        let nOff = sOff + 4 * (IndexFormat.cityCellCount + 1), wOff = nOff + 4 * nN, strOff = wOff + pad4(2 * nW)
        guard strOff + pad4(nS) == length else {
            throw LookupIndexError("section sizes (\(nC) countries, \(nK) cities, \(nN) nodes, \(nW) words, \(nS) string bytes) do not add up to the file length \(length)")
        }
        guard IndexFormat.checksum(UnsafeRawBufferPointer(rebasing: b[hs...])) == b.u32(40) else {
            throw LookupIndexError("checksum mismatch: the file is corrupt")
        }
        guard nN >= IndexFormat.rootCount, bufferKm.isFinite, bufferKm >= 0, nC < Int(IndexFormat.noCountry16) else {
            throw LookupIndexError("bad header (nodes \(nN), buffer \(bufferKm) km, countries \(nC))")
        }
        func string(_ o: Int, _ l: Int, _ what: String) throws -> String {
            guard o >= 0, l >= 0, o + l <= nS, let s = String(validating: b[(strOff + o)..<(strOff + o + l)], as: UTF8.self) else {
                throw LookupIndexError("\(what): string out of range or not UTF-8")
            }
            return s
        }
        var codes: [String] = []
        for i in 0..<nC {
            let code = try string(Int(b.u32(cOff + 8 * i)), Int(b.u32(cOff + 8 * i + 4)), "country \(i)")
            if let last = codes.last, last >= code { throw LookupIndexError("country codes not sorted at \(code)") }
            codes.append(code)
        }
        var starts: [Int] = []
        for i in 0...IndexFormat.cityCellCount {
            let s = Int(b.u32(sOff + 4 * i))
            guard s <= nK, s >= (starts.last ?? 0) else { throw LookupIndexError("city cell table broken at cell \(i)") }
            starts.append(s)
        }
        guard starts.first == 0, starts.last == nK else { throw LookupIndexError("city cell table does not cover the \(nK) cities") }
        var cities: [City] = []
        cities.reserveCapacity(nK)
        for i in 0..<nK {
            let o = kOff + IndexFormat.cityRecordSize * i
            let lat = Double(b.i32(o)) / 1e6, lon = Double(b.i32(o + 4)) / 1e6
            guard abs(lat) <= 90, abs(lon) <= 180 else { throw LookupIndexError("city \(i): coordinate out of range") }
            let name = try string(Int(b.u32(o + 12)), Int(b.u16(o + 16)), "city \(i)")
            let ci = b.u16(o + 18)
            guard ci == IndexFormat.noCountry16 || Int(ci) < nC else { throw LookupIndexError("city \(name): country index \(ci) out of range") }
            cities.append(City(id: i, name: name, countryCode: ci == IndexFormat.noCountry16 ? nil : codes[Int(ci)],
                               coordinate: Coordinate(latitude: lat, longitude: lon), population: Int(b.u32(o + 8))))
        }
        let nodes = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: nN)
        let words = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: max(1, nW))
        var ok = false
        defer { if !ok { nodes.deallocate(); words.deallocate() } }
        // the file is little-endian, as every platform the apps run on
        for i in 0..<nN { nodes[i] = UInt32(littleEndian: b.loadUnaligned(fromByteOffset: nOff + 4 * i, as: UInt32.self)) }
        for i in 0..<nW { words[i] = UInt16(littleEndian: b.loadUnaligned(fromByteOffset: wOff + 2 * i, as: UInt16.self)) }
        // Check every node and leaf once, so that queries never read out of bounds.
        for i in 0..<nN {
            let n = nodes[i], payload = Int(n & IndexFormat.payloadMask)
            switch n >> 30 {
            case IndexFormat.kindInternal:
                guard payload > i, payload + 4 <= nN else { throw LookupIndexError("node \(i): children at \(payload) out of range") }
            case IndexFormat.kindUniform:
                guard payload < nC || UInt32(payload) == IndexFormat.noCountry else { throw LookupIndexError("node \(i): country \(payload) out of range") }
            case IndexFormat.kindLeaf:
                try checkLeaf(words, at: payload, count: nW, countries: nC, node: i)
            default: break
            }
        }
        ok = true
        return Parsed(codes: codes, cities: cities, cityStarts: starts, bufferKm: bufferKm, nodes: nodes, words: words)
    }

    private static func checkLeaf(_ w: UnsafeMutableBufferPointer<UInt16>, at o: Int, count: Int, countries: Int, node: Int) throws {
        func fail(_ why: String) -> LookupIndexError { LookupIndexError("node \(node): leaf at word \(o): \(why)") }
        guard o + 6 <= count else { throw fail("out of range") }
        let k = Int(w[o] & 0xFF), mode = w[o] >> 8
        guard k >= 1, k <= IndexFormat.maxCountriesPerLeaf, mode <= 2, o + 6 + k <= count else { throw fail("bad header") }
        if mode == IndexFormat.seaOwned { guard Int(w[o + 1]) < countries else { throw fail("sea owner out of range") } }
        for j in 0..<k {
            guard Int(w[o + 4 + j]) < countries, j == 0 || w[o + 4 + j] > w[o + 3 + j] else { throw fail("countries out of range or unsorted") }
        }
        let allBits: UInt32 = (1 << UInt32(k)) - 1
        guard UInt32(w[o + 4 + k]) & ~allBits == 0 else { throw fail("inside mask names no country") }
        var i = o + 6 + k
        for _ in 0..<Int(w[o + 5 + k]) {
            guard i + 2 <= count else { throw fail("piece header out of range") }
            let mask = UInt32(w[i]), n = Int(w[i + 1])
            guard mask != 0, mask & ~allBits == 0, n >= 2, i + 2 + 2 * n <= count else { throw fail("bad piece") }
            i += 2 + 2 * n
        }
    }
}

// geo-hexagons: command-line front of the pure-Swift H3 library (debugging and scripts).
//
//   geo-hexagons cell --res R            lat,lon lines (degrees) on stdin → one cell id per line
//   geo-hexagons polyfill --res R F.json cells of the file's (Multi)Polygon features, sorted
//   geo-hexagons boundary                cell ids on stdin → GeoJSON FeatureCollection
//   geo-hexagons disk --k K ID           cells within grid distance K, sorted
//   geo-hexagons check-dump              batch protocol used by scripts/checks/check_h3.py
//   geo-hexagons bench                   in-process timings (bench/h3.py)

import ArgumentParser
import Foundation
import H3

/// Buffered stdout writer (the batch modes write millions of lines).
struct Out {
    var buf: [UInt8] = []
    init() { buf.reserveCapacity(1 << 16) }
    mutating func write(_ s: String) {
        buf.append(contentsOf: s.utf8)
        if buf.count >= 1 << 16 { flush() }
    }
    mutating func line(_ s: String) { write(s); buf.append(10) }
    mutating func flush() {
        buf.withUnsafeBufferPointer { p in _ = fwrite(p.baseAddress, 1, p.count, stdout) }
        buf.removeAll(keepingCapacity: true)
        fflush(stdout)
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

func parseCell(_ s: String) throws -> H3Index {
    guard let h = H3Index(string: s), H3.isValidCell(h) else { throw H3Error.invalidCell(s) }
    return h
}


@main
struct GeoHexagons: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo-hexagons",
        abstract: "Uber H3 hexagon grid (pure Swift, equal to h3 4.5.0) for scripts and debugging.",
        subcommands: [Cell.self, Polyfill.self, Boundary.self, Disk.self, CheckDump.self, Bench.self])
}

struct Cell: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "lat,lon lines (degrees) on stdin → one cell id per line.")
    @Option(help: "H3 resolution 0...15") var res: Int

    func run() throws {
        guard (0...15).contains(res) else { throw H3Error.invalidResolution(res) }
        var out = Out()
        var n = 0
        while let raw = readLine() {
            n += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            let parts = line.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2,
                  let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                  let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)) else {
                out.flush()
                throw UsageError("stdin line \(n): expected \"lat,lon\" in degrees, got \"\(raw)\"")
            }
            guard lat.isFinite && lon.isFinite else {
                out.flush()
                throw UsageError("stdin line \(n): latitude and longitude must be finite numbers, got \"\(raw)\"")
            }
            do {
                out.line(try H3.latLngToCell(LatLng(latDegrees: lat, lngDegrees: lon), res: res).description)
            } catch {
                out.flush()
                throw UsageError("stdin line \(n): \(error)")
            }
        }
        out.flush()
    }
}

// MARK: - GeoJSON input

enum GeoJSONInput {
    /// Polygons (outer ring + holes) of every Polygon / MultiPolygon geometry in the file.
    static func polygons(path: String) throws -> [GeoPolygon] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("\(path): cannot read file")
        }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw UsageError("\(path): not valid JSON (\(error.localizedDescription))")
        }
        var result: [GeoPolygon] = []
        func ring(_ any: Any, _ where_: String) throws -> [LatLng] {
            guard let pts = any as? [Any] else { throw UsageError("\(path): \(where_): ring is not an array") }
            var r: [LatLng] = []
            for p in pts {
                guard let c = p as? [Any], c.count >= 2, let lon = (c[0] as? NSNumber)?.doubleValue,
                      let lat = (c[1] as? NSNumber)?.doubleValue, lon.isFinite, lat.isFinite else {
                    throw UsageError("\(path): \(where_): bad position \(p)")
                }
                r.append(LatLng(latDegrees: lat, lngDegrees: lon))
            }
            // GeoJSON rings repeat the first position; h3 takes open loops.
            if r.count > 1, r.first == r.last { r.removeLast() }
            guard r.count >= 3 else { throw UsageError("\(path): \(where_): ring has fewer than 3 distinct positions") }
            return r
        }
        func polygon(_ rings: Any, _ where_: String) throws {
            guard let rs = rings as? [Any], !rs.isEmpty else { throw UsageError("\(path): \(where_): polygon has no rings") }
            let outer = try ring(rs[0], where_)
            let holes = try rs.dropFirst().map { try ring($0, where_) }
            result.append(GeoPolygon(outer: outer, holes: holes))
        }
        func geometry(_ g: Any?, _ where_: String) throws {
            guard let g = g as? [String: Any], let type = g["type"] as? String else { return }
            switch type {
            case "Polygon": try polygon(g["coordinates"] as Any, where_)
            case "MultiPolygon":
                guard let ps = g["coordinates"] as? [Any] else { throw UsageError("\(path): \(where_): bad MultiPolygon") }
                for p in ps { try polygon(p, where_) }
            case "GeometryCollection":
                for sub in (g["geometries"] as? [Any]) ?? [] { try geometry(sub, where_) }
            default: break
            }
        }
        guard let root = json as? [String: Any], let type = root["type"] as? String else {
            throw UsageError("\(path): not a GeoJSON object")
        }
        switch type {
        case "FeatureCollection":
            for (i, f) in ((root["features"] as? [Any]) ?? []).enumerated() {
                let props = (f as? [String: Any])?["properties"] as? [String: Any]
                let name = (props?["name"] as? String).map { "feature \(i) (\($0))" } ?? "feature \(i)"
                try geometry((f as? [String: Any])?["geometry"], name)
            }
        case "Feature": try geometry(root["geometry"], "feature 0")
        default: try geometry(root, "geometry")
        }
        guard !result.isEmpty else { throw UsageError("\(path): no Polygon or MultiPolygon geometry") }
        return result
    }
}

struct Polyfill: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Cells (centre inside) of a GeoJSON file's (Multi)Polygon features, sorted.")
    @Option(help: "H3 resolution 0...15") var res: Int
    @Argument(help: "GeoJSON file") var file: String

    func run() throws {
        guard (0...15).contains(res) else { throw H3Error.invalidResolution(res) }
        var cells = Set<H3Index>()
        for p in try GeoJSONInput.polygons(path: file) {
            do { cells.formUnion(try H3.polygonToCells(p, res: res)) } catch { throw UsageError("\(file): \(error)") }
        }
        var out = Out()
        for c in cells.sorted() { out.line(c.description) }
        out.flush()
    }
}

// MARK: - GeoJSON output

enum BoundaryGeoJSON {
    static func num(_ x: Double) -> String {
        // 1e-9° ≈ 0.1 mm: enough for any resolution, and stable text.
        var s = String(format: "%.9f", x)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        if s == "-0" { s = "0" }
        return s
    }

    static func ringJSON(_ r: [(Double, Double)]) -> String {
        var pts = r
        pts.append(r[0])
        return "[" + pts.map { "[\(num($0.0)),\(num($0.1))]" }.joined(separator: ",") + "]"
    }

    /// Clips a ring (lon, lat) to lon ≤ x (keepLeft) or lon ≥ x.
    static func clip(_ ring: [(Double, Double)], at x: Double, keepLeft: Bool) -> [(Double, Double)] {
        func inside(_ p: (Double, Double)) -> Bool { keepLeft ? p.0 <= x : p.0 >= x }
        var out: [(Double, Double)] = []
        for i in 0..<ring.count {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            if inside(a) { out.append(a) }
            if inside(a) != inside(b) && a.0 != b.0 {
                let t = (x - a.0) / (b.0 - a.0)
                out.append((x, a.1 + t * (b.1 - a.1)))
            }
        }
        return out
    }

    /// Geometry of a cell: a Polygon, split into a MultiPolygon at ±180°, or closed
    /// over the pole when the cell contains one.
    static func geometry(_ verts: [LatLng]) -> String {
        let pts = verts.map { ($0.lngDegrees, $0.latDegrees) }
        // unwrap longitudes so consecutive vertices differ by < 180°
        var un: [(Double, Double)] = [pts[0]]
        for i in 1..<pts.count {
            var lon = pts[i].0
            let prev = un[i - 1].0
            while lon - prev > 180 { lon -= 360 }
            while lon - prev < -180 { lon += 360 }
            un.append((lon, pts[i].1))
        }
        var closing = pts[0].0
        while closing - un[un.count - 1].0 > 180 { closing -= 360 }
        while closing - un[un.count - 1].0 < -180 { closing += 360 }
        let winding = closing - pts[0].0
        if abs(winding) > 180 {
            // The cell contains a pole: walk the boundary from -180 to 180, then over the pole.
            let north = verts.reduce(0.0) { $0 + $1.lat } > 0
            var ring: [(Double, Double)] = []
            // rotate so the walk starts at the smallest normalised longitude
            var norm = pts.map { (lon: $0.0, lat: $0.1) }
            if winding < 0 { norm.reverse() }  // make longitudes increase
            let start = norm.indices.min { norm[$0].lon < norm[$1].lon }!
            let seq = (0..<norm.count).map { norm[(start + $0) % norm.count] }
            let first = seq[0], last = seq[seq.count - 1]
            // latitude where the edge last → first crosses ±180
            let span = (first.lon + 360) - last.lon
            let t = span == 0 ? 0 : (180 - last.lon) / span
            let latCross = last.lat + t * (first.lat - last.lat)
            ring.append((-180, latCross))
            // a vertex on the pole itself lies on the pole edge added below
            for p in seq where abs(p.lat) != 90 { ring.append((p.lon, p.lat)) }
            ring.append((180, latCross))
            let pole = north ? 90.0 : -90.0
            ring.append((180, pole))
            ring.append((-180, pole))
            // RFC 7946: exterior rings counter-clockwise (in lon/lat, the northern walk east
            // then back along the pole already is; the southern one is clockwise)
            if !north { ring.reverse() }
            return "{\"type\":\"Polygon\",\"coordinates\":[\(ringJSON(ring))]}"
        }
        let lons = un.map { $0.0 }
        let minLon = lons.min()!, maxLon = lons.max()!
        if maxLon > 180 || minLon < -180 {
            let shift = maxLon > 180 ? 0.0 : 360.0
            let shifted = un.map { ($0.0 + shift, $0.1) }
            let west = clip(shifted, at: 180, keepLeft: true)
            let east = clip(shifted, at: 180, keepLeft: false).map { ($0.0 - 360, $0.1) }
            let parts = [west, east].filter { $0.count >= 3 }
            return "{\"type\":\"MultiPolygon\",\"coordinates\":[" + parts.map { "[\(ringJSON($0))]" }.joined(separator: ",") + "]}"
        }
        return "{\"type\":\"Polygon\",\"coordinates\":[\(ringJSON(un))]}"
    }
}

struct Boundary: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Cell ids on stdin → GeoJSON FeatureCollection of their boundaries.")

    func run() throws {
        var features: [String] = []
        var n = 0
        while let raw = readLine() {
            n += 1
            let s = raw.trimmingCharacters(in: .whitespaces)
            if s.isEmpty { continue }
            let h: H3Index
            do { h = try parseCell(s) } catch { throw UsageError("stdin line \(n): \(error)") }
            let verts = try H3.cellToBoundary(h)
            features.append("{\"type\":\"Feature\",\"properties\":{\"h3\":\"\(h)\",\"res\":\(H3.getResolution(h))},\"geometry\":\(BoundaryGeoJSON.geometry(verts))}")
        }
        var out = Out()
        out.line("{\"type\":\"FeatureCollection\",\"features\":[")
        for (i, f) in features.enumerated() { out.line(f + (i + 1 < features.count ? "," : "")) }
        out.line("]}")
        out.flush()
    }
}

struct Disk: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Cells within grid distance K of a cell, sorted.")
    @Option(help: "grid distance ≥ 0") var k: Int
    @Argument(help: "cell id (hex)") var id: String

    func run() throws {
        let h = try parseCell(id)
        var out = Out()
        for c in try H3.gridDisk(h, k: k).sorted() { out.line(c.description) }
        out.flush()
    }
}

// MARK: - Batch protocol for the reference check

/// One request per stdin line, one answer line each:
///   c RES LATDEG LNGDEG     → id            l ID → lat lng (degrees, %.17g)
///   b ID  → n lat lng ...   (degrees)       a ID → area km² (%.17g)
///   d ID K → sorted ids     p ID RES → parent        ch ID RES → sorted children
///   g ID1 ID2 → grid distance   v ID → 1 if a valid cell, else 0
///   P RES n lat lng ... [h n lat lng ...]*  (degrees) → sorted ids
/// Errors answer "E message".
struct CheckDump: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check-dump", abstract: "Batch protocol for scripts/checks/check_h3.py.", shouldDisplay: false)

    func run() throws {
        var out = Out()
        func g(_ x: Double) -> String { String(format: "%.17g", x) }
        while let raw = readLine() {
            let t = raw.split(separator: " ")
            guard let op = t.first else { continue }
            do {
                switch op {
                case "c":
                    let h = try H3.latLngToCell(LatLng(latDegrees: Double(t[2])!, lngDegrees: Double(t[3])!), res: Int(t[1])!)
                    out.line(h.description)
                case "l":
                    let p = try H3.cellToLatLng(try parseCell(String(t[1])))
                    out.line("\(g(p.latDegrees)) \(g(p.lngDegrees))")
                case "b":
                    let vs = try H3.cellToBoundary(try parseCell(String(t[1])))
                    out.line("\(vs.count) " + vs.map { "\(g($0.latDegrees)) \(g($0.lngDegrees))" }.joined(separator: " "))
                case "a":
                    out.line(g(try H3.cellAreaKm2(try parseCell(String(t[1])))))
                case "d":
                    out.line(try H3.gridDisk(try parseCell(String(t[1])), k: Int(t[2])!).sorted().map(\.description).joined(separator: " "))
                case "v":
                    out.line(H3Index(string: String(t[1])).map { H3.isValidCell($0) ? "1" : "0" } ?? "0")
                case "g":
                    out.line(String(try H3.gridDistance(try parseCell(String(t[1])), try parseCell(String(t[2])))))
                case "p":
                    out.line(try H3.cellToParent(try parseCell(String(t[1])), res: Int(t[2])!).description)
                case "ch":
                    out.line(try H3.cellToChildren(try parseCell(String(t[1])), res: Int(t[2])!).sorted().map(\.description).joined(separator: " "))
                case "P":
                    let res = Int(t[1])!
                    var i = 2
                    func loop() -> [LatLng] {
                        let n = Int(t[i])!; i += 1
                        var r: [LatLng] = []
                        for _ in 0..<n { r.append(LatLng(latDegrees: Double(t[i])!, lngDegrees: Double(t[i + 1])!)); i += 2 }
                        return r
                    }
                    let outer = loop()
                    var holes: [[LatLng]] = []
                    while i < t.count { i += 1; holes.append(loop()) }
                    out.line(try H3.polygonToCells(GeoPolygon(outer: outer, holes: holes), res: res).map(\.description).joined(separator: " "))
                default:
                    out.line("E unknown request \(op)")
                }
            } catch {
                out.line("E \(error)")
            }
        }
        out.flush()
    }
}

// MARK: - Bench

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "In-process timings of the H3 library (one core).", shouldDisplay: false)
    @Option(help: "points for latLngToCell") var points = 2_000_000
    @Option(help: "cells for cellToBoundary") var cells = 1_000_000

    func run() throws {
        var rng = SystemRandomNumberGenerator()
        var pts: [LatLng] = []
        pts.reserveCapacity(points)
        for _ in 0..<points {
            let z = Double.random(in: -1...1, using: &rng)
            pts.append(LatLng(lat: asin(z), lng: Double.random(in: -Double.pi..<Double.pi, using: &rng)))
        }
        // CPU time of this thread: the machine is shared, wall time would measure the neighbours.
        func now() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }
        var t0 = now()
        var acc: UInt64 = 0
        for (i, p) in pts.enumerated() { acc ^= try H3.latLngToCell(p, res: i % 16).value }
        let llps = Double(points) / (now() - t0)
        let ids = try pts.prefix(cells).enumerated().map { try H3.latLngToCell($0.element, res: $0.offset % 16) }
        var b = CellBoundary()
        t0 = now()
        var vsum = 0
        for h in ids { try H3.cellToBoundary(h, into: &b); vsum += b.count }
        let bps = Double(ids.count) / (now() - t0)
        // a ~5 km² loop (a wobbly circle of radius ≈1.26 km) in Zürich at res 9
        var loop: [LatLng] = []
        for i in 0..<64 {
            let a = Double(i) / 64 * 2 * Double.pi
            let r = 1.26 * (1 + 0.05 * sin(5 * a)) / 6371.0
            loop.append(LatLng(lat: 47.3769 * Double.pi / 180 + r * sin(a), lng: 8.5417 * Double.pi / 180 + r * cos(a) / cos(47.3769 * Double.pi / 180)))
        }
        let poly = GeoPolygon(outer: loop)
        var n = 0
        let reps = 200
        t0 = now()
        for _ in 0..<reps { n = try H3.polygonToCells(poly, res: 9).count }
        let pms = (now() - t0) / Double(reps) * 1000
        print("latLngToCell: \(Int(llps)) points/s (res 0-15 mixed) [\(acc & 1)]")
        print("cellToBoundary: \(Int(bps)) cells/s [\(vsum)]")
        print(String(format: "polygonToCells 5 km² loop res 9: %.3f ms (%d cells)", pms, n))
    }
}

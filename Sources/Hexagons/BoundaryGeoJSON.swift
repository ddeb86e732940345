import Foundation
import H3

/// A cell's boundary as GeoJSON text: a Polygon, split into a MultiPolygon at ±180°, or closed
/// over the pole when the cell holds one (RFC 7946: exterior rings counter-clockwise, longitudes
/// within [-180, 180]); checked against h3 and shapely by scripts/checks/check_h3.py.
public enum BoundaryGeoJSON {
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
    public static func geometry(_ verts: [LatLng]) -> String {
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

extension BoundaryGeoJSON {
    /// One Feature per cell (its id and resolution as properties), in a FeatureCollection with
    /// one feature per line.
    public static func collection(_ cells: [H3Index]) throws -> [String] {
        var lines = ["{\"type\":\"FeatureCollection\",\"features\":["]
        for (i, h) in cells.enumerated() {
            let f = "{\"type\":\"Feature\",\"properties\":{\"h3\":\"\(h)\",\"res\":\(H3.getResolution(h))},\"geometry\":\(geometry(try H3.cellToBoundary(h)))}"
            lines.append(f + (i + 1 < cells.count ? "," : ""))
        }
        lines.append("]}")
        return lines
    }
}

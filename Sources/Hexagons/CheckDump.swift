import Foundation
import H3

/// The batch protocol of scripts/checks/check_h3.py (`geo-hexagons check-dump`): one request
/// per line, one answer line each:
///   c RES LATDEG LNGDEG     → id            l ID → lat lng (degrees, %.17g)
///   b ID  → n lat lng ...   (degrees)       a ID → area km² (%.17g)
///   d ID K → sorted ids     p ID RES → parent        ch ID RES → sorted children
///   g ID1 ID2 → grid distance   v ID → 1 if a valid cell, else 0
///   r ID  → n lng lat ...   (degrees: H3.mapRing, the ring a map draws)
///   P RES n lat lng ... [h n lat lng ...]*  (degrees) → sorted ids
/// Errors answer "E message".
public enum CheckDumpProtocol {
    /// The answer to one request line; nil for an empty line (no answer).
    public static func answer(_ raw: String) -> String? {
        func g(_ x: Double) -> String { String(format: "%.17g", x) }
        let t = raw.split(separator: " ")
        guard let op = t.first else { return nil }
        do {
            switch op {
            case "c":
                let h = try H3.latLngToCell(LatLng(latDegrees: Double(t[2])!, lngDegrees: Double(t[3])!), res: Int(t[1])!)
                return h.description
            case "l":
                let p = try H3.cellToLatLng(try Hexagons.cell(String(t[1])))
                return "\(g(p.latDegrees)) \(g(p.lngDegrees))"
            case "b":
                let vs = try H3.cellToBoundary(try Hexagons.cell(String(t[1])))
                return "\(vs.count) " + vs.map { "\(g($0.latDegrees)) \(g($0.lngDegrees))" }.joined(separator: " ")
            case "r":
                guard let ring = H3.mapRing(String(t[1])) else { return "E not a cell" }
                return "\(ring.count) " + ring.map { "\(g($0.lng)) \(g($0.lat))" }.joined(separator: " ")
            case "a":
                return g(try H3.cellAreaKm2(try Hexagons.cell(String(t[1]))))
            case "d":
                return try H3.gridDisk(try Hexagons.cell(String(t[1])), k: Int(t[2])!).sorted().map(\.description).joined(separator: " ")
            case "v":
                return H3Index(string: String(t[1])).map { H3.isValidCell($0) ? "1" : "0" } ?? "0"
            case "g":
                return String(try H3.gridDistance(try Hexagons.cell(String(t[1])), try Hexagons.cell(String(t[2]))))
            case "p":
                return try H3.cellToParent(try Hexagons.cell(String(t[1])), res: Int(t[2])!).description
            case "ch":
                return try H3.cellToChildren(try Hexagons.cell(String(t[1])), res: Int(t[2])!).sorted().map(\.description).joined(separator: " ")
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
                return try H3.polygonToCells(GeoPolygon(outer: outer, holes: holes), res: res).map(\.description).joined(separator: " ")
            default:
                return "E unknown request \(op)"
            }
        } catch {
            return "E \(error)"
        }
    }
}

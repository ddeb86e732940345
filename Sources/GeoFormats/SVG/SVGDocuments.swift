import Foundation
import GeoModel
import Geodesy

/// The SVG and HTML documents the pipeline writes. All text from the data (names, ids) is
/// escaped with `XMLText.escape`; numbers are formatted deterministically.
public enum SVGDocuments {
    public static let xmlHeader = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    public static let svgNamespace = "http://www.w3.org/2000/svg"

    /// CONTRACTS §3 colours as hex.
    public enum Palette {
        public static let ocean = "#2F86A6"
        public static let land = "#34BE82"
        public static let border = "#000000"
    }

    /// One country's silhouette: a square viewBox of `size`, one even-odd path.
    public static func silhouette(id: String, name: String, pathData: String, size: Double, fill: String) -> String {
        let s = SVGPathData.format(size, decimals: 3)
        let e = XMLText.escape
        return xmlHeader
            + "<svg xmlns=\"\(svgNamespace)\" width=\"\(s)\" height=\"\(s)\" viewBox=\"0 0 \(s) \(s)\">\n"
            + "<title>\(e(name))</title>\n"
            + "<path id=\"\(e(id))\" fill=\"\(e(fill))\" fill-rule=\"evenodd\" d=\"\(pathData)\"/>\n"
            + "</svg>\n"
    }

    public struct SheetEntry: Sendable {
        public var id: String
        public var name: String
        public var pathData: String
        public init(id: String, name: String, pathData: String) { self.id = id; self.name = name; self.pathData = pathData }
    }

    /// All silhouettes on one sheet: a grid of cells, each with the shape and "ID name" below it.
    /// `size` is the silhouettes' own viewBox size.
    public static func contactSheet(_ entries: [SheetEntry], size: Double, columns: Int = 12, cell: Double = 160, fill: String) -> String {
        let rows = max(1, (entries.count + columns - 1) / columns)
        let shape = cell * 0.78
        let width = Double(columns) * cell, height = Double(rows) * cell + 40
        let f = { (d: Double) in SVGPathData.format(d, decimals: 3) }
        let scale = shape / size
        var out = xmlHeader
        out += "<svg xmlns=\"\(svgNamespace)\" width=\"\(f(width))\" height=\"\(f(height))\" viewBox=\"0 0 \(f(width)) \(f(height))\">\n"
        out += "<title>Country silhouettes (\(entries.count))</title>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        out += "<text x=\"10\" y=\"26\" font-family=\"sans-serif\" font-size=\"18\">Country silhouettes: \(entries.count), equal-area (Lambert azimuthal) centred on each country</text>\n"
        out += "<g font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"middle\">\n"
        for (i, e) in entries.enumerated() {
            let cx = Double(i % columns) * cell, cy = 40 + Double(i / columns) * cell
            let ox = cx + (cell - shape) / 2, oy = cy + 4
            var label = e.name
            if label.count > 24 { label = String(label.prefix(23)) + "…" }
            out += "<rect x=\"\(f(cx + 2))\" y=\"\(f(cy + 2))\" width=\"\(f(cell - 4))\" height=\"\(f(cell - 4))\" fill=\"none\" stroke=\"#dddddd\"/>"
            out += "<path transform=\"translate(\(f(ox)) \(f(oy))) scale(\(SVGPathData.format(scale, decimals: 6)))\" fill=\"\(XMLText.escape(fill))\" fill-rule=\"evenodd\" d=\"\(e.pathData)\"/>"
            out += "<text x=\"\(f(cx + cell / 2))\" y=\"\(f(cy + cell - 12))\"><tspan font-weight=\"bold\">\(XMLText.escape(e.id))</tspan> \(XMLText.escape(label))</text>\n"
        }
        out += "</g>\n</svg>\n"
        return out
    }

    public struct IndexEntry: Sendable {
        public var id: String
        public var name: String
        public var bytes: Int
        public var parts: Int
        public init(id: String, name: String, bytes: Int, parts: Int) { self.id = id; self.name = name; self.bytes = bytes; self.parts = parts }
    }

    /// An HTML page showing every silhouette file with its code and name.
    public static func indexHTML(_ entries: [IndexEntry], title: String, note: String) -> String {
        let e = XMLText.escape
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>\(e(title))</title>\n"
        out += "<style>body{font-family:sans-serif;margin:1em}main{display:flex;flex-wrap:wrap;gap:8px}"
        out += "figure{margin:0;width:150px;border:1px solid #ddd;padding:4px;text-align:center}"
        out += "img{width:140px;height:140px}figcaption{font-size:12px}small{color:#777}</style>\n</head>\n<body>\n"
        out += "<h1>\(e(title))</h1>\n<p>\(e(note))</p>\n<main>\n"
        for x in entries {
            out += "<figure id=\"\(e(x.id))\"><img src=\"\(e(x.id)).svg\" alt=\"\(e(x.name))\"><figcaption><b>\(e(x.id))</b> \(e(x.name))<br><small>\(formatCount(x.bytes)) bytes, \(x.parts) part\(x.parts == 1 ? "" : "s")</small></figcaption></figure>\n"
        }
        out += "</main>\n</body>\n</html>\n"
        return out
    }

    // MARK: the world map

    public struct MapCountry: Sendable {
        public var id: String
        public var name: String
        public var pathData: String?        // polygon countries
        public var point: Point?            // point countries (map pixels)
        public init(id: String, name: String, pathData: String?, point: Point?) {
            self.id = id; self.name = name; self.pathData = pathData; self.point = point
        }
    }

    public static func worldMap(width: Double, height: Double, title: String, oceanPath: String,
                                countries: [MapCountry], borderWidth: Double, pointRadius: Double) -> String {
        let f = { (d: Double) in SVGPathData.format(d, decimals: 2) }
        let e = XMLText.escape
        var out = xmlHeader
        out += "<svg xmlns=\"\(svgNamespace)\" width=\"\(f(width))\" height=\"\(f(height))\" viewBox=\"0 0 \(f(width)) \(f(height))\">\n"
        out += "<title>\(e(title))</title>\n"
        out += "<path id=\"ocean\" fill=\"\(Palette.ocean)\" d=\"\(oceanPath)\"/>\n"
        out += "<g id=\"countries\" fill=\"\(Palette.land)\" fill-rule=\"evenodd\" stroke=\"\(Palette.border)\" stroke-width=\"\(f(borderWidth))\" stroke-linejoin=\"round\">\n"
        for c in countries {
            if let d = c.pathData {
                out += "<path id=\"\(e(c.id))\" d=\"\(d)\"><title>\(e(c.name))</title></path>\n"
            }
        }
        for c in countries {
            if let p = c.point {
                out += "<circle id=\"\(e(c.id))\" cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"\(f(pointRadius))\"><title>\(e(c.name))</title></circle>\n"
            }
        }
        out += "</g>\n</svg>\n"
        return out
    }
}

// One way to write an SVG picture element by element, for pictures that are not a country
// sheet or a world map (SVGDocuments): the territory preview's cells, runs and legend, say.
// Attribute values and text pass through XMLText.escape; coordinates in tenths of a pixel.

/// An SVG document being written: the XML header, the root with its size, a title, then
/// elements and groups in order; `finished` closes it.
public struct SVGWriter: Sendable {
    public private(set) var text: String

    /// The header, `<svg>` of `width` × `height` pixels (its viewBox the same) and the title.
    public init(width: Int, height: Int, title: String) {
        text = SVGDocuments.xmlHeader
        text += "<svg xmlns=\"\(SVGDocuments.svgNamespace)\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        text += "<title>\(XMLText.escape(title))</title>\n"
    }

    static func attributes(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(XMLText.escape($0.1))\"" }.joined()
    }

    /// `<name a="…"…/>`, or `<name …>text</name>` with `content`; a newline after it unless `newline` is false.
    public mutating func element(_ name: String, _ attributes: [(String, String)], content: String? = nil, newline: Bool = true) {
        text += "<\(name)\(Self.attributes(attributes))"
        if let content { text += ">\(XMLText.escape(content))</\(name)>" } else { text += "/>" }
        if newline { text += "\n" }
    }

    /// Opens a group (`<g …>`), closed by `close()`.
    public mutating func open(_ name: String = "g", _ attributes: [(String, String)]) {
        text += "<\(name)\(Self.attributes(attributes))>\n"
    }

    public mutating func close(_ name: String = "g") { text += "</\(name)>\n" }

    /// The document with its root closed.
    public var finished: String { text + "</svg>\n" }

    /// A coordinate in tenths of a pixel as SVG text: "12" or "12.3" (shortest, no "-0").
    public static func tenths(_ v: Double) -> String {
        let t = Int((v * 10).rounded())
        let sign = t < 0 ? "-" : "", a = abs(t)
        return a % 10 == 0 ? "\(t / 10)" : "\(sign)\(a / 10).\(a % 10)"
    }

    /// Path data of a polyline or polygon in pixels (`M x y L x y … [Z]`), in tenths. With
    /// `minStep`, a point is kept only where the line has moved that many pixels from the last
    /// kept one in x or y (the last point always): the picture is the same, the file small.
    /// Nil when fewer than two points remain.
    public static func pathData(_ points: [(x: Double, y: Double)], closed: Bool = false, minStep: Double? = nil) -> String? {
        var out: [String] = [], last: (Int, Int)? = nil
        let step = minStep.map { Int(($0 * 10).rounded()) }
        for (n, p) in points.enumerated() {
            let x = Int((p.x * 10).rounded()), y = Int((p.y * 10).rounded())
            if let step, let l = last, abs(x - l.0) < step, abs(y - l.1) < step, n != points.count - 1 { continue }
            out.append("\(tenths(Double(x) / 10)) \(tenths(Double(y) / 10))")
            last = (x, y)
        }
        guard out.count >= 2 else { return nil }
        return "M" + out.joined(separator: " L") + (closed ? " Z" : "")
    }
}

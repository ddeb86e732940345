import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import GeoFormats

/// The element-by-element SVG writer: escaped attributes and text, tenths of a pixel, thinned
/// paths, a well-formed document.
@Suite struct SVGWriterTests {
    @Test func writesAWellFormedPicture() throws {
        var w = SVGWriter(width: 200, height: 100, title: "cells & runs <here>")
        w.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "#F4F1EA")])
        w.open("g", [("id", "cells"), ("stroke", "#FFFFFF")])
        let cell = try #require(SVGWriter.pathData([(10, 10), (20.04, 10), (15, 18.96)], closed: true))
        w.element("path", [("id", "h\"1"), ("d", cell)])
        w.close()
        w.element("text", [("x", "5"), ("y", "95")], content: "Ann's — 3")
        let svg = w.finished
        #expect(cell == "M10 10 L20 10 L15 19 Z")
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"100\" viewBox=\"0 0 200 100\">\n<title>cells &amp; runs &lt;here&gt;</title>\n"))
        #expect(svg.contains("<path id=\"h&quot;1\" d=\"M10 10 L20 10 L15 19 Z\"/>\n</g>\n<text x=\"5\" y=\"95\">Ann&apos;s — 3</text>\n</svg>\n"))
        _ = try XMLDocument(data: Data(svg.utf8))
        #expect([SVGWriter.tenths(12), SVGWriter.tenths(12.34), SVGWriter.tenths(-0.04), SVGWriter.tenths(-1.25)] == ["12", "12.3", "0", "-1.3"])
        // Thinned: a point only where the line moved a pixel; the last one always.
        #expect(SVGWriter.pathData([(0, 0), (0.5, 0.5), (1.2, 0), (1.5, 0.2)], minStep: 1) == "M0 0 L1.2 0 L1.5 0.2")
        #expect(SVGWriter.pathData([(0, 0)]) == nil)
    }
}

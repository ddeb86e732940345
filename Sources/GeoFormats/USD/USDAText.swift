/// The text encoding of a `USDLayer` (.usda, "#usda 1.0"). The globe ships the binary crate
/// encoding (`USDCrate`), which every USDZ reader accepts and which is about three times
/// smaller; the text form is for tests and for reading a scene by eye (and it is what the
/// crate encoding must round-trip to, through Pixar's USD).
///
/// Numbers are written in their shortest form that reads back to the same Float/Double, so
/// the text and binary encodings hold identical values.
public enum USDAText {
    public static func encode(_ layer: USDLayer) throws -> [UInt8] {
        try layer.validate()
        var w = Writer()
        w.line("#usda 1.0")
        w.line("(")
        w.indent += 1
        w.line("defaultPrim = \(quoted(layer.defaultPrim))")
        if let doc = layer.documentation { w.line("doc = \(quoted(doc))") }
        w.line("metersPerUnit = \(double(layer.metersPerUnit))")
        w.line("upAxis = \(quoted(layer.upAxis))")
        w.indent -= 1
        w.line(")")
        for p in layer.rootPrims {
            w.line("")
            prim(p, &w)
        }
        return Array(w.text.utf8)
    }

    struct Writer {
        var text = ""
        var indent = 0
        mutating func line(_ s: String) {
            if !s.isEmpty { text += String(repeating: "    ", count: indent) }
            text += s
            text += "\n"
        }
    }

    static func prim(_ p: USDPrim, _ w: inout Writer) {
        if p.apiSchemas.isEmpty {
            w.line("def \(p.typeName) \(quoted(p.name))")
        } else {
            w.line("def \(p.typeName) \(quoted(p.name)) (")
            w.indent += 1
            w.line("prepend apiSchemas = [\(p.apiSchemas.map(quoted).joined(separator: ", "))]")
            w.indent -= 1
            w.line(")")
        }
        w.line("{")
        w.indent += 1
        for prop in p.properties {
            switch prop {
            case .attribute(let a):
                let head = (a.uniform ? "uniform " : "") + a.typeName + " " + a.name
                if let c = a.connection {
                    w.line("\(head).connect = <\(c)>")
                }
                if a.value != nil || a.connection == nil {
                    var s = head
                    if let v = a.value { s += " = " + value(v) }
                    if let i = a.interpolation {
                        w.line(s + " (")
                        w.indent += 1
                        w.line("interpolation = \(quoted(i))")
                        w.indent -= 1
                        w.line(")")
                    } else {
                        w.line(s)
                    }
                }
            case .relationship(let r):
                let t = r.targets.map { "<\($0)>" }
                w.line("rel \(r.name) = " + (t.count == 1 ? t[0] : "[" + t.joined(separator: ", ") + "]"))
            }
        }
        for (k, c) in p.children.enumerated() {
            if k > 0 || !p.properties.isEmpty { w.line("") }
            prim(c, &w)
        }
        w.indent -= 1
        w.line("}")
    }

    static func quoted(_ s: String) -> String {
        var o = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": o += "\\\""
            case "\\": o += "\\\\"
            case "\n": o += "\\n"
            default: o.unicodeScalars.append(ch)
            }
        }
        return o + "\""
    }

    /// Shortest round-trip text of a Float (Swift's description), with "-0" and integers kept
    /// as USD's parser reads them.
    static func float(_ f: Float) -> String { f.description }
    static func double(_ d: Double) -> String { d.description }

    static func value(_ v: USDValue) -> String {
        switch v {
        case .bool(let b): return b ? "1" : "0"
        case .int(let i): return String(i)
        case .float(let f): return float(f)
        case .double(let d): return double(d)
        case .token(let t): return quoted(t)
        case .float3(let x, let y, let z): return "(\(float(x)), \(float(y)), \(float(z)))"
        case .intArray(let a): return "[" + a.map { String($0) }.joined(separator: ", ") + "]"
        case .float3Array(let f):
            var s = "["
            s.reserveCapacity(f.count * 12)
            for i in 0..<(f.count / 3) {
                if i > 0 { s += ", " }
                s += "(\(float(f[3 * i])), \(float(f[3 * i + 1])), \(float(f[3 * i + 2])))"
            }
            return s + "]"
        case .half3Array(let h):
            var s = "["
            for i in 0..<(h.count / 3) {
                if i > 0 { s += ", " }
                s += "(\(float(Half.float(h[3 * i]))), \(float(Half.float(h[3 * i + 1]))), \(float(Half.float(h[3 * i + 2]))))"
            }
            return s + "]"
        case .tokenArray(let t): return "[" + t.map(quoted).joined(separator: ", ") + "]"
        }
    }
}

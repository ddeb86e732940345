import Foundation
import SeededRandom
import Testing
@testable import GeoModel
import Geodesy

/// The typed reader's numbers (its digit loop runs without overflow checks, its fast path
/// multiplies by a power of ten) must be the correctly rounded double of their text, as
/// strtod reads it, wherever the text leaves the fast path.
@Suite struct JSONCursorNumberTests {
    /// A well-formed number: sign, 1–25 integer digits (19+ leave the fast
    /// path), a fraction of up to 30 digits, an exponent.
    static func text(_ r: inout SplitMix64) -> String {
        var s = r.below(3) == 0 ? "-" : ""
        let digits = Array("0123456789")
        let integer = [1, 1, 2, 3, 9, 15, 16, 17, 18, 19, 20, 25][r.below(12)]
        // RFC 8259: a 0 alone, or a first digit 1–9.
        s.append(integer == 1 ? digits[r.below(10)] : digits[1 + r.below(9)])
        for _ in 1..<integer { s.append(digits[r.below(10)]) }
        if r.below(2) == 0 {
            s += "."
            for _ in 0..<[1, 2, 7, 15, 18, 19, 22, 30][r.below(8)] { s.append(digits[r.below(10)]) }
        }
        if r.below(4) == 0 {
            s += ["e", "E"][r.below(2)] + ["", "+", "-"][r.below(3)]
            for _ in 0..<(1 + r.below(3)) { s.append(digits[r.below(10)]) }
        }
        return s
    }

    /// The number at the start of `text`: its value (or the error) and where the cursor stopped.
    static func read(_ text: String) -> (Result<Double, Error>, Int) {
        Array(text.utf8).withUnsafeBufferPointer { b in
            var c = JSONCursor(buf: b, file: "n.json")
            let v = Result { try c.number("n") }
            return (v, c.pos)
        }
    }

    @Test func numbersAreStrtodsDouble() {
        var r = SplitMix64(state: 19)
        var texts = ["0", "-0", "-0.0", "0.07", "-7.50", "1234567890123456789", "12345678901234567890", "99999999999999999999",
                     "18446744073709551615", "18446744073709551616", "184467440737095516150", "9007199254740993",
                     "0.0000000000000000000000001", "123456789012345.6789", "1e22", "1e23", "4.9e-324", "1e400", "-1e400", "1e-400"]
        for _ in 0..<100_000 { texts.append(Self.text(&r)) }
        var wrong: [String] = []
        for t in texts {
            let expected = Double(t)!
            let (got, end) = Self.read(t + ",")
            switch got {
            case .success(let v):
                if v.bitPattern != expected.bitPattern || end != t.utf8.count { wrong.append("\(t): \(v) at \(end), expected \(expected)") }
            case .failure(let e):
                if expected.isFinite || !"\(e)".contains("out of range") { wrong.append("\(t): \(e)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.prefix(5))")
    }

    /// A geometry's positions are read by a one-pass path for "[x,y]" with short plain decimals
    /// (`plainPosition`): the same doubles as `number` reads, and the same errors, for every
    /// text and spacing.
    @Test func positionsAreReadAsNumbersAre() {
        var r = SplitMix64(state: 23)
        let spaces = ["", " ", "\n ", "\t"]
        var wrong: [String] = []
        for n in 0..<60_000 {
            let x = n < 30_000 ? Self.text(&r) : String(Self.text(&r).prefix(1 + r.below(12)))
            let y = Self.text(&r)
            var sp: [String] = []
            for _ in 0..<4 { sp.append(spaces[r.below(spaces.count)]) }
            let position = "[\(sp[0])\(x)\(sp[1]),\(sp[2])\(y)\(sp[3])]"
            let doc = "{\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(position),[1,2]]}}"
            let tree = Result { try JSONValue.parse(Array(doc.utf8), file: "p.json") }
            let (vx, _) = Self.read(x + ","), (vy, _) = Self.read(y + ",")
            switch (tree, vx, vy) {
            case (.success(let v), .success(let ex), .success(let ey)):
                guard case .coordinates(let t)? = v["geometry"]?["coordinates"] else { wrong.append("\(position): no tree"); continue }
                let p = t.positions[0]
                if p.x.bitPattern != ex.bitPattern || p.y.bitPattern != ey.bitPattern || t.positions[1] != Point(1, 2) {
                    wrong.append("\(position): \(p), expected (\(ex), \(ey))")
                }
            case (.failure, .failure, _), (.failure, _, .failure): break
            default: wrong.append("\(position): \(tree) against \(vx), \(vy)")
            }
        }
        for bad in ["[-,1]", "[01,2]", "[1.,2]", "[1,2,]", "[1 2]", "[1,2.5.5]", "[NaN,1]", "[1,-Infinity]", "[1e999,2]", "[\"1\",2]"] {
            let doc = "{\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(bad)]}}"
            if case .success = Result(catching: { try JSONValue.parse(Array(doc.utf8), file: "p.json") }) { wrong.append("\(bad) was read") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.prefix(5))")
    }

    /// The plain decimals' reader at the end of a buffer and around its eight-byte steps.
    @Test func plainDecimalsAnywhereInTheBuffer() {
        var r = SplitMix64(state: 37)
        for _ in 0..<20_000 {
            let text = String(Self.text(&r).prefix(1 + r.below(17)))
            for tail in ["", "]", ",1234567890"] {
                let bytes = Array((text + tail).utf8)
                let expected = Self.read(text + ",")
                bytes.withUnsafeBufferPointer { b in
                    var i = 0
                    guard let v = JSONCursor.plainDecimal(b, &i) else { return }
                    guard case .success(let e) = expected.0 else { Issue.record("\(text): read \(v), number refuses it"); return }
                    #expect(v.bitPattern == e.bitPattern && i == text.utf8.count, "\(text)\(tail): \(v) at \(i), expected \(e)")
                }
            }
        }
    }

    /// A ring is written in one pass through a pointer: the same bytes as position by position.
    @Test func ringsAreWrittenAsPositionsAre() {
        var r = SplitMix64(state: 29)
        let specials: [Double] = [0, -0.0, 1e-7, -1e-7, 4.9999995e-7, 179.9999996, -180, 1e13, 9.3e12, -9.3e12, 1e300, .nan, .infinity, 0.1 + 0.2,
                                 0.5, -0.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 4503599627370495.5, 2.5e-6, 1234.5e-6, 99.99999951]
        for decimals in [0, 1, 6, 9, 12] {
            for n in 0..<400 {
                var ring: [Point] = []
                for _ in 0..<(1 + r.below(8)) {
                    func value() -> Double {
                        if r.below(10) == 0 { return specials[r.below(specials.count)] }
                        return (Double(r.below(1 << 40)) / Double(1 << 30) - 512) * [1, 0.001, 1e-6][r.below(3)]
                    }
                    ring.append(Point(value(), value()))
                }
                if n % 50 == 0 { ring = [] }
                var fast = JSONWriter(coordinateDecimals: decimals)
                fast.ring(ring)
                var slow = JSONWriter(coordinateDecimals: decimals)
                slow.bytes.append(UInt8(ascii: "["))
                for (i, p) in ring.enumerated() {
                    if i > 0 { slow.bytes.append(UInt8(ascii: ",")) }
                    slow.position(p)
                }
                slow.bytes.append(UInt8(ascii: "]"))
                #expect(fast.string == slow.string, "\(ring) at \(decimals) decimals")
                let expected = "[" + ring.map { "[\(Self.fixedText($0.x, decimals)),\(Self.fixedText($0.y, decimals))]" }.joined(separator: ",") + "]"
                #expect(fast.string == expected, "\(ring) at \(decimals) decimals")
            }
        }
        var w = JSONWriter()
        w.ring([Point(12.5, -0.0000004), Point(-179.9999999, 89.1234565)])
        #expect(w.string == "[[12.5,0],[-180,89.123457]]")
    }

    /// `JSONWriter.fixed`'s text by another route (the digits of the scaled integer as a
    /// String, the point put in, trailing zeros trimmed).
    static func fixedText(_ d: Double, _ decimals: Int) -> String {
        guard d.isFinite else { return "null" }
        let scaled = (d * PowersOfTen.table[decimals]).rounded()
        guard abs(scaled) < 9e18 else { return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : d.description }
        let n = Int64(scaled)
        if n == 0 { return "0" }
        var digits = String(n.magnitude)
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.count) + digits }
        var text = decimals == 0 ? digits : String(digits.dropLast(decimals)) + "." + String(digits.suffix(decimals))
        if decimals > 0 {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return (n < 0 ? "-" : "") + text
    }

    @Test func malformedNumbersAreRefused() {
        for (text, message) in [("-", "is not a number"), (".5", "is not a number"), ("-.5", "is not a number"), ("1.", "needs digits after '.'"),
                                ("1e", "needs digits in its exponent"), ("1e+", "needs digits in its exponent"), ("NaN", "NaN"), ("-Infinity", "infinite"),
                                ("007", "may not start with 0"), ("-01.5", "may not start with 0"), ("00", "may not start with 0")] {
            let (got, _) = Self.read(text + ",")
            guard case .failure(let e) = got else { Issue.record("\(text) was read"); continue }
            #expect("\(e)".contains(message), "\(text): \(e)")
        }
    }
}

/// One rule for every reader on the tokenizer (the tree, a typed decoder, `skip`): RFC 8259
/// plus the byte-order mark.
@Suite struct JSONRuleTests {
    /// What each reader says of a document: the tree, and `skip` over it.
    static func readers(_ text: String) -> (tree: String, skip: String) {
        let bytes = Array(text.utf8)
        let tree = Result { try JSONValue.parse(bytes, file: "r.json") }
        let skip = Result { try bytes.withUnsafeBufferPointer { b in
            var c = JSONCursor(buf: b, file: "r.json")
            c.skipByteOrderMark()
            try c.skip()
            c.ws()
            guard c.pos == b.count else { throw c.syntax("unexpected characters after the top-level value") }
        } }
        func said<T>(_ r: Result<T, Error>) -> String { if case .failure(let e) = r { return "\(e)" } else { return "ok" } }
        return (said(tree), said(skip))
    }

    @Test func leadingZerosAndDepthAreRefusedByEveryReader() {
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        for (text, message) in [("[1, 007]", "may not start with 0"), ("{\"a\": -00.5}", "may not start with 0"),
                                (deep, "nesting deeper than 512 levels"), ("[1,]", "unexpected character ']'"),
                                ("\"\\ud800\"", "unpaired UTF-16 surrogate"), ("[\"a\u{01}\"]", "control character")] {
            let (tree, skip) = Self.readers(text)
            #expect(tree.hasPrefix("r.json: invalid JSON at line 1") && tree.contains(message), "\(text): \(tree)")
            #expect(skip == tree, "\(text): skip says \(skip)")
        }
        #expect(Self.readers(deepest) == ("ok", "ok"))
        #expect(Self.readers("\u{FEFF}{\"a\": [0, -0, 0.5, 1e3]}") == ("ok", "ok"))
    }

    /// NaN and Infinity are not JSON: reading one is refused naming the value; skipping steps
    /// over one nobody reads.
    @Test func nonFiniteTokensAreRefusedWhenRead() {
        for (text, message) in [("{\"a\": {\"b\": [1, NaN]}}", "a.b[1] is NaN, not a finite number"),
                                ("[-Infinity]", "[0] is infinite"), ("Infinity", "the value is infinite"), ("[1e400]", "[0] is out of range")] {
            let (tree, skip) = Self.readers(text)
            #expect(tree == "r.json: \(message)" || tree.hasPrefix("r.json: \(message)"), "\(text): \(tree)")
            #expect(skip == "ok", "\(text): skip says \(skip)")
        }
    }
}

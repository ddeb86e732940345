// SVG path data from rings already in picture coordinates: quantised to the grid the picture
// can show, cleaned (repeated points, A→B→A spikes), and written compactly with relative
// commands, one subpath per ring, so that `fill-rule="evenodd"` punches holes out.

/// A point on the output grid: coordinates in units of 10^-decimals picture units.
public struct GridPoint: Hashable, Sendable {
    public var x: Int64
    public var y: Int64
    @inlinable public init(_ x: Int64, _ y: Int64) { self.x = x; self.y = y }
}

public enum SVGPathData {
    /// Rounds a closed ring (first == last, or not) onto the grid and cleans it: consecutive
    /// repeats and zero-width spikes are removed, and the closing point is dropped (the path
    /// closes with `z`). Returns an empty array when fewer than 3 distinct points remain.
    public static func quantize(_ ring: [Point], decimals: Int) -> [GridPoint] {
        let scale = pow10(decimals)
        var out: [GridPoint] = []
        out.reserveCapacity(ring.count)
        for p in ring {
            let g = GridPoint(Int64((p.x * scale).rounded()), Int64((p.y * scale).rounded()))
            if let last = out.last, last == g { continue }
            out.append(g)
            // A → B → A: B is a spike of zero width; drop B and the second A.
            while out.count >= 3 && out[out.count - 3] == out[out.count - 1] { out.removeLast(2) }
        }
        // Cyclic clean-up across the ring's start.
        var changed = true
        while changed && out.count >= 3 {
            changed = false
            if out.first == out.last { out.removeLast(); changed = true; continue }
            let n = out.count
            if n >= 3 && out[n - 2] == out[0] { out.removeLast(); changed = true; continue }
            if n >= 3 && out[n - 1] == out[1] { out.removeFirst(); changed = true; continue }
        }
        return out.count >= 3 ? out : []
    }

    /// Twice the signed area of an open grid ring (positive when counter-clockwise in a y-up frame).
    public static func twiceArea(_ ring: [GridPoint]) -> Int64 {
        guard ring.count >= 3 else { return 0 }
        var s: Int64 = 0
        var j = ring.count - 1
        for i in 0..<ring.count {
            s += ring[j].x * ring[i].y - ring[i].x * ring[j].y
            j = i
        }
        return s
    }

    /// Path data for open grid rings: "M x y l dx dy … z m dx dy l … z". The first point is
    /// absolute, everything else relative; numbers at `decimals` places.
    public static func encode(_ rings: [[GridPoint]], decimals: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rings.reduce(0) { $0 + $1.count } * 6 + 16)
        var start: GridPoint? = nil
        func number(_ v: Int64) {
            if v >= 0, let last = bytes.last, last != UInt8(ascii: "l"), last != UInt8(ascii: "m"), last != UInt8(ascii: "M") {
                bytes.append(UInt8(ascii: " "))
            }
            appendFixed(v, decimals: decimals, to: &bytes)
        }
        for ring in rings where ring.count >= 3 {
            let p0 = ring[0]
            if let s = start {
                bytes.append(UInt8(ascii: "m")); number(p0.x - s.x); number(p0.y - s.y)
            } else {
                bytes.append(UInt8(ascii: "M")); number(p0.x); number(p0.y)
            }
            bytes.append(UInt8(ascii: "l"))
            var prev = p0
            for p in ring.dropFirst() {
                number(p.x - prev.x); number(p.y - prev.y)
                prev = p
            }
            bytes.append(UInt8(ascii: "z"))
            start = p0
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `v` × 10^-decimals with trailing zeros trimmed: 12, -3.5, 0.25.
    static func appendFixed(_ v: Int64, decimals: Int, to bytes: inout [UInt8]) {
        if v < 0 { bytes.append(UInt8(ascii: "-")) }
        let m = v.magnitude
        let unit = UInt64(pow10(decimals))
        appendDigits(m / unit, to: &bytes)
        var frac = m % unit
        guard frac != 0 else { return }
        var places = decimals
        while frac % 10 == 0 { frac /= 10; places -= 1 }
        bytes.append(UInt8(ascii: "."))
        var digits = [UInt8](repeating: 0x30, count: places)
        var i = places - 1
        while frac > 0 { digits[i] = UInt8(frac % 10) + 0x30; frac /= 10; i -= 1 }
        bytes.append(contentsOf: digits)
    }

    static func appendDigits(_ v: UInt64, to bytes: inout [UInt8]) {
        if v == 0 { bytes.append(0x30); return }
        var tmp: [UInt8] = []
        var x = v
        while x > 0 { tmp.append(UInt8(x % 10) + 0x30); x /= 10 }
        bytes.append(contentsOf: tmp.reversed())
    }

    static func pow10(_ d: Int) -> Double {
        var s = 1.0
        for _ in 0..<max(0, d) { s *= 10 }
        return s
    }

    /// A coordinate for attributes (viewBox, cx, …) at `decimals` places, trailing zeros trimmed.
    public static func format(_ d: Double, decimals: Int) -> String {
        var b: [UInt8] = []
        appendFixed(Int64((d * pow10(decimals)).rounded()), decimals: decimals, to: &b)
        return String(decoding: b, as: UTF8.self)
    }
}

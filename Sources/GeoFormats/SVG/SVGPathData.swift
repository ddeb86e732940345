// SVG path data from rings already in picture coordinates: quantised to the grid the picture
// can show, cleaned (repeated points, A→B→A spikes), and written compactly with relative
// commands, one subpath per ring, so that `fill-rule="evenodd"` punches holes out.
import GeoModel
import Geodesy


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
        let scale = PowersOfTen.table[decimals]
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
        var w = JSONWriter(reserve: rings.reduce(0) { $0 + $1.count } * 6 + 16)
        var start: GridPoint? = nil
        func number(_ v: Int64) {
            if v >= 0, let last = w.bytes.last, last != UInt8(ascii: "l"), last != UInt8(ascii: "m"), last != UInt8(ascii: "M") {
                w.bytes.append(UInt8(ascii: " "))
            }
            w.scaledDecimal(v, decimals: decimals)
        }
        for ring in rings where ring.count >= 3 {
            let p0 = ring[0]
            if let s = start {
                w.bytes.append(UInt8(ascii: "m")); number(p0.x - s.x); number(p0.y - s.y)
            } else {
                w.bytes.append(UInt8(ascii: "M")); number(p0.x); number(p0.y)
            }
            w.bytes.append(UInt8(ascii: "l"))
            var prev = p0
            for p in ring.dropFirst() {
                number(p.x - prev.x); number(p.y - prev.y)
                prev = p
            }
            w.bytes.append(UInt8(ascii: "z"))
            start = p0
        }
        return w.string
    }

    /// A coordinate for attributes (viewBox, cx, …) at `decimals` places, trailing zeros trimmed.
    public static func format(_ d: Double, decimals: Int) -> String { DecimalText.fixed(d, decimals: decimals) }
}

// Exact spherical cell area (H3 C 4.5.0 area.c: Cagnoli terms summed with Kahan compensation).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always) private func cagnoli(_ x: LatLng, _ y: LatLng) -> Double {
    let xl = x.lat / 2.0 + Double.pi / 4.0
    let yl = y.lat / 2.0 + Double.pi / 4.0
    let sa = sin(xl) * sin(yl)
    let ca = cos(xl) * cos(yl)
    let d = y.lng - x.lng
    let sd = sin(d)
    let cd = cos(d)
    return -2.0 * atan2(sa * sd, sa * cd + ca)
}

private struct Adder {
    var sum = 0.0
    var c = 0.0
    @inline(__always) mutating func add(_ x: Double) {
        let y = x - c
        let t = sum + y
        c = (t - sum) - y
        sum = t
    }
}

func cellAreaRads2Bits(_ h: UInt64) -> Double {
    var b = CellBoundary()
    H3.boundary(h, &b, exact: true)  // tiny cells' areas cancel: keep upstream's bits
    var adder = Adder()
    for i in 0..<b.count {
        adder.add(cagnoli(b[i], b[(i + 1) % b.count]))
    }
    if adder.sum < 0.0 { adder.add(4.0 * Double.pi) }
    return adder.sum
}

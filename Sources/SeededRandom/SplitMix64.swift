/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, well-mixed 64-bit generator whose output
/// is the same on every platform and Swift version (Swift's own generators make no such
/// promise). The quiz schedule derives one generator per day from (seed, purpose, day), so the
/// draws for day k never depend on how many days are scheduled; the territory shards hash cells
/// with its finaliser; tests and benchmarks draw reproducible samples from it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    /// The generator that starts from `state` (the plain SplitMix64 sequence).
    public init(state: UInt64) { self.state = state }

    /// A generator for one purpose and one index, independent of every other (purpose, index).
    public init(seed: UInt64, purpose: UInt64, index: UInt64) {
        state = SplitMix64.mix(SplitMix64.mix(seed ^ SplitMix64.mix(purpose &+ 0x632B_E59B_D9B4_E019)) ^ index)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// A uniform Double in [0, 1) from the next 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// The SplitMix64 finaliser: a bijective 64-bit mix.
    public static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in 0..<n without modulo bias (Lemire's method), n > 0.
    public mutating func below(_ n: Int) -> Int {
        precondition(n > 0)
        let bound = UInt64(n)
        var m = next().multipliedFullWidth(by: bound)
        if m.low < bound {
            let threshold = (0 &- bound) % bound
            while m.low < threshold { m = next().multipliedFullWidth(by: bound) }
        }
        return Int(m.high)
    }

    /// FNV-1a of a string, for turning a text seed or a purpose name into 64 bits.
    public static func hash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}

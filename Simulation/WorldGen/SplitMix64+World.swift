/// SplitMix64: a tiny, fast, seedable PRNG; one independent stream per subscription and purpose.
struct SplitMix64 {
    private var state: UInt64

    /// A stream for `seed`, mixed with a purpose salt and an index (subscription number).
    init(seed: UInt64, salt: UInt64 = 0, index: UInt64 = 0) {
        state = SplitMix64.mix(seed ^ SplitMix64.mix(salt &+ 0x9E37_79B9_7F4A_7C15 &* (index &+ 1)))
    }

    /// The SplitMix64 finaliser: a good 64-bit hash.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    /// Uniform integer in `range`.
    mutating func int(_ range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(range.upperBound - range.lowerBound) &+ 1
        return width == 0 ? Int64(bitPattern: next()) : range.lowerBound + Int64(next() % width)
    }

    /// An index picked with the given weights.
    mutating func weighted(_ weights: [Double]) -> Int {
        let total = weights.reduce(0, +)
        var point = unit() * total
        for (index, weight) in weights.enumerated() {
            point -= weight
            if point < 0 { return index }
        }
        return weights.count - 1
    }

    /// Uniform in [lower, upper) milliseconds (lower when the range is empty).
    mutating func between(_ lower: Int64, _ upper: Int64) -> Int64 {
        upper <= lower ? lower : lower + Int64(next() % UInt64(upper - lower))
    }
}

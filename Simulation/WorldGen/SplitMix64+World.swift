import SeededRandom

/// The world's draws: one independent SplitMix64 stream per subscription and purpose.
extension SplitMix64 {
    /// A stream for `seed`, mixed with a purpose salt and an index (subscription number).
    init(seed: UInt64, salt: UInt64 = 0, index: UInt64 = 0) {
        self.init(seed: SplitMix64.hash(seed ^ SplitMix64.hash(salt &+ SplitMix64.gamma &* (index &+ 1))))
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { nextUnit() }

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

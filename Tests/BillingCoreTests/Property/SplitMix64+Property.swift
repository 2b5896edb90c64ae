/// A seeded, deterministic PRNG (SplitMix64) so property-test failures reproduce from the seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly chosen element.
    mutating func pick<T>(_ options: [T]) -> T { options[Int(next() % UInt64(options.count))] }

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }
}

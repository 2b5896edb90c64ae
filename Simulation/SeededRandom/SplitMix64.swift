/// SplitMix64: a tiny, fast, seedable PRNG; the same seed gives the same sequence on every platform.
/// The one seeded generator of the simulation and the property tests (production code draws no random numbers
/// that must repeat).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The golden-ratio increment added to the state before every output.
    public static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

    private var state: UInt64

    /// Starts the sequence at `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= Self.gamma
        return Self.mix(state)
    }

    /// A uniform double in [0, 1) from the top 53 bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// The SplitMix64 finaliser: a bijective scramble of `value`.
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A 64-bit hash of `value`: the first output of the sequence seeded with it (`mix(value + gamma)`).
    public static func hash(_ value: UInt64) -> UInt64 {
        mix(value &+ gamma)
    }
}

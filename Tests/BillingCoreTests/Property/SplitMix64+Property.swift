import SeededRandom

/// The property tests' draws on the shared seeded generator, so failures reproduce from the seed.
extension SplitMix64 {
    /// A uniformly chosen element.
    mutating func pick<T>(_ options: [T]) -> T { options[Int(next() % UInt64(options.count))] }

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }
}

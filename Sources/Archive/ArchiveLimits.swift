/// Bounds on what an archive may expand to: a zip bomb is rejected before it fills memory.
public struct ArchiveLimits: Sendable, Equatable {
    /// Most decompressed bytes accepted from one archive.
    public var maxBytes: Int
    /// Largest accepted ratio of decompressed to compressed size, checked once the output passes `ratioFloor`.
    public var maxRatio: Int
    /// Output size below which the ratio is not checked (tiny files compress extremely well).
    public var ratioFloor: Int

    /// The defaults: 4 GiB, ratio 200 past 16 MiB (a 3M-row earnings CSV is ~0.6 GB at a ratio near 10).
    public static let standard = ArchiveLimits(maxBytes: 4 << 30, maxRatio: 200, ratioFloor: 16 << 20)

    /// Custom limits.
    public init(maxBytes: Int, maxRatio: Int, ratioFloor: Int) {
        self.maxBytes = maxBytes
        self.maxRatio = maxRatio
        self.ratioFloor = ratioFloor
    }

    /// Why `produced` bytes out of `compressed` exceed the limits, or nil.
    func violation(produced: Int, compressed: Int) -> String? {
        if produced > maxBytes { return "expands beyond \(maxBytes) bytes (zip bomb?)" }
        if produced > ratioFloor, produced / max(compressed, 1) > maxRatio {
            return "expands more than \(maxRatio)× its compressed size (zip bomb?)"
        }
        return nil
    }
}

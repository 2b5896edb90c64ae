/// A token-bucket limit: `perSecond` tokens refill each second, at most `capacity` stored.
public struct RateLimit: Sendable, Equatable {
    /// Refill rate, tokens per second.
    public var perSecond: Double
    /// Bucket size: the burst accepted in an instant.
    public var capacity: Double

    /// A limit whose capacity defaults to one second's worth of tokens (at least one).
    public init(perSecond: Double, capacity: Double? = nil) {
        self.perSecond = perSecond
        self.capacity = capacity ?? max(1, perSecond)
    }
}

/// One bucket's limits: burst capacity, sustained refill per second, and an optional daily budget.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    /// Most tokens the bucket holds (the largest burst).
    public var capacity: Double
    /// Tokens added per second.
    public var refillPerSecond: Double
    /// Calls allowed per UTC day, or nil for no daily limit.
    public var dailyBudget: Int?

    /// Makes a limit; use `validated()` before building a bucket from untrusted input.
    public init(capacity: Double, refillPerSecond: Double, dailyBudget: Int? = nil) {
        self.capacity = capacity
        self.refillPerSecond = refillPerSecond
        self.dailyBudget = dailyBudget
    }

    /// `perSecond` calls a second with a burst of `capacity` (default: one second's worth, at least one).
    public init(perSecond: Double, capacity: Double? = nil, dailyBudget: Int? = nil) {
        self.init(capacity: capacity ?? max(1, perSecond), refillPerSecond: perSecond, dailyBudget: dailyBudget)
    }

    /// `count` calls per `seconds` window with a burst of `burst`: refill is `(count - burst) / seconds`, so
    /// no window of that length ever admits more than `count` calls.
    public static func window(_ count: Double, perSeconds seconds: Double, burst: Double, dailyBudget: Int? = nil) -> RateLimit {
        RateLimit(capacity: burst, refillPerSecond: (count - burst) / seconds, dailyBudget: dailyBudget)
    }

    /// `perSecond` calls a second with one second of burst.
    public static func perSecond(_ perSecond: Double, dailyBudget: Int? = nil) -> RateLimit {
        RateLimit(capacity: max(1, perSecond), refillPerSecond: perSecond, dailyBudget: dailyBudget)
    }

    /// This limit scaled by `factor` (sandbox is 10% of production); capacity stays at least 1.
    public func scaled(by factor: Double) -> RateLimit {
        RateLimit(capacity: max(1, capacity * factor), refillPerSecond: refillPerSecond * factor,
                  dailyBudget: dailyBudget.map { max(1, Int((Double($0) * factor).rounded(.down))) })
    }

    /// Self, or an error naming what is out of range.
    public func validated() throws(RateLimitError) -> RateLimit {
        guard capacity.isFinite, capacity >= 1 else { throw .invalidLimit("capacity must be at least 1, got \(capacity)") }
        guard refillPerSecond.isFinite, refillPerSecond > 0 else { throw .invalidLimit("refill per second must be positive, got \(refillPerSecond)") }
        if let dailyBudget, dailyBudget <= 0 { throw .invalidLimit("daily budget must be positive, got \(dailyBudget)") }
        return self
    }

    public var description: String {
        "capacity \(capacity), \(refillPerSecond)/s" + (dailyBudget.map { ", \($0)/day" } ?? "")
    }
}

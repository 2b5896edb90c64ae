import Foundation

/// Why a rate limiter could not hand out a token or could not be configured.
public enum RateLimitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bucket's daily budget is used up; it resets at `resetsAt` (UTC midnight).
    case dailyBudgetExhausted(bucket: String, budget: Int, resetsAt: Date)
    /// A limit is out of range (capacity, rate or budget not positive and finite).
    case invalidLimit(String)
    /// One entry of an overrides string is wrong: the entry as written and why.
    case invalidOverride(entry: String, reason: String)
    /// The shared bucket's database statement failed (libpq's message).
    case database(String)

    public var description: String {
        switch self {
        case .dailyBudgetExhausted(let bucket, let budget, let resetsAt):
            return "daily budget of \(budget) calls for '\(bucket)' is used up; it resets at \(ISO8601DateFormatter().string(from: resetsAt))"
        case .invalidLimit(let message): return "invalid rate limit: \(message)"
        case .invalidOverride(let entry, let reason): return "invalid rate limit override '\(entry)': \(reason)"
        case .database(let message): return "rate limit bucket database error: \(message)"
        }
    }
}

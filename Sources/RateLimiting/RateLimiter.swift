import Foundation

/// Something that hands out permission for one API call at a time (in memory or shared in PostgreSQL).
public protocol RateLimiter: Sendable {
    /// Blocks until a call may be made and returns the instant the token was granted; throws
    /// `dailyBudgetExhausted` instead of waiting past the daily budget.
    @discardableResult
    func acquire() throws(RateLimitError) -> Date
    /// No tokens until `instant` (a store's Retry-After); an earlier block never shortens a later one.
    func block(until instant: Date) throws(RateLimitError)
}

import Foundation

/// Where a rate limiter reads the time and how it waits; tests inject a virtual clock.
public protocol RateLimitClock: Sendable {
    /// The current instant.
    func now() -> Date
    /// Blocks the calling thread until `deadline` (returns at once for a past deadline).
    func sleep(until deadline: Date)
}

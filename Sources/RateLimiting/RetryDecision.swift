import Foundation

/// What to do after a failed attempt, as `RetryPolicy.run` asks it.
public enum RetryDecision: Sendable, Equatable {
    /// Final: rethrow the error.
    case fail
    /// Retry after the jittered backoff.
    case retry
    /// Retry exactly at this instant (a parsed Retry-After).
    case retryAt(Date)
}

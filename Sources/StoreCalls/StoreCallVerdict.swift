import Foundation

/// How a client judges one HTTP answer.
public enum StoreCallVerdict: Sendable {
    /// A usable answer.
    case success
    /// Retry: after the jittered backoff (nil), or exactly at the store's Retry-After instant.
    case retry(outcome: String, storeErrorCode: String?, retryAt: Date?, error: any Error & Sendable)
    /// Give up with this error.
    case fail(outcome: String, storeErrorCode: String?, error: any Error & Sendable)
}

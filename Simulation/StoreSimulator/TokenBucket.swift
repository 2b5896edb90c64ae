import Foundation

/// One token bucket; the caller serialises access.
struct TokenBucket {
    let limit: RateLimit
    private(set) var tokens: Double
    private var updated: Date

    /// A full bucket at `now`.
    init(limit: RateLimit, now: Date) {
        self.limit = limit
        tokens = limit.capacity
        updated = now
    }

    /// Takes one token; when none is left returns the instant the next token will exist and takes nothing.
    mutating func take(now: Date) -> Date? {
        let elapsed = now.timeIntervalSince(updated)
        if elapsed > 0 {
            tokens = min(limit.capacity, tokens + elapsed * limit.perSecond)
            updated = now
        }
        if tokens >= 1 - 1e-9 {
            tokens -= 1
            return nil
        }
        return updated.addingTimeInterval((1 - tokens) / limit.perSecond)
    }
}

/// Token buckets per endpoint per app, created full on first use.
final class RateLimiter: @unchecked Sendable {
    private let lock = NSLock()
    private let configuration: RateLimitConfiguration
    private let sandbox: Bool
    private var buckets: [String: TokenBucket] = [:]

    init(configuration: RateLimitConfiguration, sandbox: Bool) {
        self.configuration = configuration
        self.sandbox = sandbox
    }

    /// Nil when the request may proceed; otherwise when the next token for (`endpoint`, `app`) will exist.
    /// `sandboxRequest` marks a request to the sandbox host, which gets sandbox limits even when the app's
    /// truth is production.
    func admit(_ endpoint: SimulatorEndpoint, app: String, sandboxRequest: Bool = false, now: Date) -> Date? {
        guard configuration.enabled else { return nil }
        let key = endpoint.rawValue + " " + app
        let sandbox = sandbox || sandboxRequest
        return lock.withLock {
            var bucket = buckets[key] ?? TokenBucket(limit: configuration.limit(for: endpoint, sandbox: sandbox), now: now)
            let retryAt = bucket.take(now: now)
            buckets[key] = bucket
            return retryAt
        }
    }
}

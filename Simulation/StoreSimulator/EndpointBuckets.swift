import Foundation
import RateLimiting

/// The simulator's rate limits: one RateLimiting token bucket per endpoint per app, created full on first use.
final class EndpointBuckets: @unchecked Sendable {
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
        let bucket: TokenBucket? = lock.withLock {
            if let bucket = buckets[key] { return bucket }
            let limit = configuration.limit(for: endpoint, sandbox: sandbox)
            let bucket = try? TokenBucket(name: key, limit: limit, clock: VirtualRateLimitClock(start: now))
            buckets[key] = bucket
            return bucket
        }
        // Limits are validated when parsed; a daily budget (none is configured here) would answer at its reset.
        guard let bucket else { return nil }
        do {
            return try bucket.take(at: now)
        } catch {
            if case .dailyBudgetExhausted(_, _, let resetsAt) = error { return resetsAt }
            return nil
        }
    }
}

import Foundation

/// Exponential backoff with full jitter and a cap: before retry n (1-based) wait a uniform random
/// time in `0 ... min(cap, base × 2^(n-1))`; give up after `maxAttempts` attempts in total.
public struct RetryPolicy: Sendable {
    /// The first retry's ceiling, in seconds.
    public var base: Double
    /// The largest ceiling, in seconds.
    public var cap: Double
    /// Attempts in total, the first included (1 means never retry).
    public var maxAttempts: Int
    /// The longest server-requested wait (Retry-After) honoured; beyond it the call fails instead.
    public var maxRetryAfter: Double
    private let random: any RetryRandomSource

    /// Makes a policy; defaults are 0.5 s base, 30 s cap, 5 attempts, Retry-After up to 1 hour.
    public init(base: Double = 0.5, cap: Double = 30, maxAttempts: Int = 5, maxRetryAfter: Double = 3_600,
                random: any RetryRandomSource = SystemRetryRandomSource()) {
        self.base = max(0, base)
        self.cap = max(0, cap)
        self.maxAttempts = max(1, maxAttempts)
        self.maxRetryAfter = max(0, maxRetryAfter)
        self.random = random
    }

    /// True when attempt number `attempt` (1-based, the one that just failed) may be followed by another.
    public func shouldRetry(afterAttempt attempt: Int) -> Bool {
        attempt < maxAttempts
    }

    /// The backoff ceiling before retry `retry` (1-based): `min(cap, base × 2^(retry-1))`.
    public func ceiling(forRetry retry: Int) -> Double {
        let exponent = Double(max(0, min(retry - 1, 62)))
        return min(cap, base * pow(2, exponent))
    }

    /// Full-jitter delay before retry `retry`: uniform in `0 ... ceiling(forRetry:)`.
    public func backoff(forRetry retry: Int) -> Double {
        ceiling(forRetry: retry) * min(max(random.nextUnit(), 0), 1)
    }

    /// The wait before retry `retry` given a server instant: exactly until `retryAt` when there is one
    /// (Apple's Retry-After), else the jittered backoff (Google's Retry-After is unconfirmed).
    /// Nil when the server asks for longer than `maxRetryAfter`.
    public func delay(forRetry retry: Int, retryAt: Date?, now: Date) -> Double? {
        guard let retryAt else { return backoff(forRetry: retry) }
        let wait = max(0, retryAt.timeIntervalSince(now))
        return wait <= maxRetryAfter ? wait : nil
    }

    /// Runs `operation` (given the 1-based attempt number) until it succeeds, the policy gives up, or
    /// `decide` calls an error final. `decide` returns nil for "do not retry", or the optional
    /// server-requested instant (Retry-After) for "retry". Waits on `clock`.
    public func run<T, E: Error>(clock: any RateLimitClock = SystemRateLimitClock(),
                                 _ operation: (Int) throws(E) -> T,
                                 decide: (E) -> RetryDecision) throws(E) -> T {
        var attempt = 1
        while true {
            do {
                return try operation(attempt)
            } catch {
                guard shouldRetry(afterAttempt: attempt) else { throw error }
                let retryAt: Date?
                switch decide(error) {
                case .fail: throw error
                case .retry: retryAt = nil
                case .retryAt(let instant): retryAt = instant
                }
                let now = clock.now()
                guard let wait = delay(forRetry: attempt, retryAt: retryAt, now: now) else { throw error }
                clock.sleep(until: now.addingTimeInterval(wait))
                attempt += 1
            }
        }
    }
}

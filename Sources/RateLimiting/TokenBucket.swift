import Foundation

/// An in-memory token bucket shared by the threads of one process: burst `capacity`, steady
/// `refillPerSecond`, Retry-After blocks, and an optional budget per UTC day.
public final class TokenBucket: RateLimiter, @unchecked Sendable {
    /// A name for errors and logs (e.g. the bucket key).
    public let name: String
    public let limit: RateLimit
    private let clock: any RateLimitClock
    private let lock = NSLock()
    private var tokens: Double
    private var refilledAt: Date
    private var blockedUntil: Date?
    private var used = 0
    private var budgetDay: Int?

    /// Makes a bucket, full unless `initialTokens` says otherwise.
    public init(name: String, limit: RateLimit, clock: any RateLimitClock = SystemRateLimitClock(),
                initialTokens: Double? = nil) throws(RateLimitError) {
        self.name = name
        self.limit = try limit.validated()
        self.clock = clock
        tokens = min(limit.capacity, max(0, initialTokens ?? limit.capacity))
        refilledAt = clock.now()
    }

    /// Blocks until a token is available; returns the grant instant. Throws past the daily budget.
    @discardableResult
    public func acquire() throws(RateLimitError) -> Date {
        while true {
            lock.lock()
            let decision = decide(at: clock.now())
            lock.unlock()
            switch decision {
            case .granted(let instant): return instant
            case .wait(let deadline): clock.sleep(until: deadline)
            case .exhausted(let resetsAt):
                throw .dailyBudgetExhausted(bucket: name, budget: limit.dailyBudget ?? 0, resetsAt: resetsAt)
            }
        }
    }

    /// Takes a token if one is available now; never waits. Throws when the daily budget is used up.
    public func tryAcquire() throws(RateLimitError) -> Bool {
        lock.lock()
        let decision = decide(at: clock.now())
        lock.unlock()
        switch decision {
        case .granted: return true
        case .wait: return false
        case .exhausted(let resetsAt):
            throw .dailyBudgetExhausted(bucket: name, budget: limit.dailyBudget ?? 0, resetsAt: resetsAt)
        }
    }

    /// Takes a token at `now` and returns nil, or takes nothing and returns when the next token will exist: for a
    /// caller that keeps its own time and answers with a Retry-After instead of waiting (the store simulator).
    /// Throws when the daily budget is used up.
    public func take(at now: Date) throws(RateLimitError) -> Date? {
        lock.lock()
        let decision = decide(at: now)
        lock.unlock()
        switch decision {
        case .granted: return nil
        case .wait(let deadline): return deadline
        case .exhausted(let resetsAt):
            throw .dailyBudgetExhausted(bucket: name, budget: limit.dailyBudget ?? 0, resetsAt: resetsAt)
        }
    }

    /// No tokens until `instant` (a Retry-After); a later block is kept.
    public func block(until instant: Date) {
        lock.withLock { blockedUntil = max(blockedUntil ?? instant, instant) }
    }

    /// Blocks for `seconds` from now (a delta-seconds Retry-After).
    public func block(forSeconds seconds: Double) {
        block(until: clock.now().addingTimeInterval(max(0, seconds)))
    }

    /// Tokens in the bucket right now (after refill).
    public var availableTokens: Double {
        lock.withLock {
            refill(at: clock.now())
            return tokens
        }
    }

    /// Calls granted so far in the current UTC day.
    public var usedToday: Int {
        lock.withLock { budgetDay == UTCDay.index(of: clock.now()) ? used : 0 }
    }

    private enum Decision {
        case granted(Date)
        case wait(until: Date)
        case exhausted(resetsAt: Date)
    }

    /// Called with the lock held.
    private func decide(at now: Date) -> Decision {
        refill(at: now)
        if let blockedUntil, blockedUntil > now { return .wait(until: blockedUntil) }
        let day = UTCDay.index(of: now)
        if budgetDay != day {
            budgetDay = day
            used = 0
        }
        if let budget = limit.dailyBudget, used >= budget { return .exhausted(resetsAt: UTCDay.start(of: day + 1)) }
        let secondsToToken = (1 - tokens) / limit.refillPerSecond
        guard secondsToToken <= TokenMath.grantSlackSeconds else { return .wait(until: now.addingTimeInterval(secondsToToken)) }
        tokens -= 1
        used += 1
        return .granted(now)
    }

    private func refill(at now: Date) {
        let elapsed = now.timeIntervalSince(refilledAt)
        guard elapsed > 0 else { return }
        tokens = min(limit.capacity, tokens + elapsed * limit.refillPerSecond)
        refilledAt = now
    }
}

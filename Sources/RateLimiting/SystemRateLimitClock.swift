import Foundation

/// The real clock: `Date()` and a thread sleep.
public struct SystemRateLimitClock: RateLimitClock {
    /// Makes the system clock.
    public init() {}

    /// The system time.
    public func now() -> Date { Date() }

    /// Sleeps the thread until `deadline`.
    public func sleep(until deadline: Date) {
        let interval = deadline.timeIntervalSinceNow
        if interval > 0 { Thread.sleep(forTimeInterval: interval) }
    }
}

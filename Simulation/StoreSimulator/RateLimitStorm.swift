import Foundation

/// The endpoints in a `429` storm and until when (wall clock, so a storm ends even under a frozen simulator clock).
final class RateLimitStorm: @unchecked Sendable {
    private let lock = NSLock()
    private var until: [SimulatorEndpoint: Date] = [:]

    /// When `endpoint`'s storm ends, or nil when it is not in one.
    func activeUntil(_ endpoint: SimulatorEndpoint, now: Date = Date()) -> Date? {
        lock.withLock {
            guard let end = until[endpoint], end > now else { return nil }
            return end
        }
    }

    /// Starts (or extends) a storm on `endpoint` lasting `seconds`; returns when it ends.
    func start(_ endpoint: SimulatorEndpoint, seconds: Double, now: Date = Date()) -> Date {
        lock.withLock {
            let end = max(until[endpoint] ?? now, now.addingTimeInterval(seconds))
            until[endpoint] = end
            return end
        }
    }
}

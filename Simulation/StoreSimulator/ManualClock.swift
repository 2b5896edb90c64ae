import Foundation

/// A clock that only moves when told to; thread-safe, for tests of rate limits and expiry.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// Starts at `date`.
    public init(_ date: Date) {
        current = date
    }

    /// The current time.
    public var now: Date {
        lock.withLock { current }
    }

    /// Moves the clock forward (or back, for a negative interval).
    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    /// Sets the clock.
    public func set(_ date: Date) {
        lock.withLock { current = date }
    }

    /// A `SimulatorClock` reading this clock.
    public var clock: SimulatorClock {
        SimulatorClock { [self] in now }
    }
}

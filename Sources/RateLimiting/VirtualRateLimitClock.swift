import Foundation

/// A clock for tests: time stands still until moved, and `sleep(until:)` jumps to the deadline at once,
/// recording each requested deadline so tests can check waits exactly.
public final class VirtualRateLimitClock: RateLimitClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var deadlines: [Date] = []

    /// Starts at `start`.
    public init(start: Date) {
        current = start
    }

    /// The virtual time.
    public func now() -> Date { lock.withLock { current } }

    /// Records `deadline` and jumps to it (never backwards).
    public func sleep(until deadline: Date) {
        lock.withLock {
            deadlines.append(deadline)
            if deadline > current { current = deadline }
        }
    }

    /// Moves time forward by `seconds`.
    public func advance(by seconds: Double) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    /// Every deadline passed to `sleep(until:)`, in order.
    public var sleeps: [Date] { lock.withLock { deadlines } }
}

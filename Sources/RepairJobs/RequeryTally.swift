import Foundation

/// Thread-safe counts of one process's run, copied into the job's summary at the end.
public final class RequeryTally: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String: Int] = [:]

    /// An empty tally.
    public init() {}

    /// Adds `amount` to `name`.
    public func add(_ name: String, _ amount: Int = 1) {
        lock.lock()
        storage[name, default: 0] += amount
        lock.unlock()
    }

    /// A copy of the counts.
    public var counts: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

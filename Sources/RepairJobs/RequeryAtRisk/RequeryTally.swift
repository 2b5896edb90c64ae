import Foundation

/// Thread-safe counts of one process's run, copied into the job's summary at the end.
public final class RequeryTally: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String: Int] = [:]

    /// An empty tally.
    public init() {}

    /// Adds `amount` to `name`; returns the new count.
    @discardableResult
    public func add(_ name: String, _ amount: Int = 1) -> Int {
        lock.lock()
        defer { lock.unlock() }
        storage[name, default: 0] += amount
        return storage[name, default: 0]
    }

    /// A copy of the counts.
    public var counts: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

import Foundation

/// How many transactions this process re-ran after a deadlock or serialization failure (process-wide, all
/// connections). Jobs report the difference over their run as the `conflict_retries` count.
public enum PostgresConflictRetries {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var count = 0

    /// The retries so far in this process.
    public static var total: Int { lock.withLock { count } }

    /// Counts one retry.
    static func record() { lock.withLock { count += 1 } }
}

import Foundation

extension PostgresError {
    /// True for the errors a transaction may simply be run again after: deadlock_detected (40P01) and
    /// serialization_failure (40001). The server rolled the whole transaction back, so nothing of it remains.
    public var isTransientConflict: Bool { sqlState == "40P01" || sqlState == "40001" }
}

extension PostgresConnection {
    /// `transaction(isolation:_:)`, run again (up to `attempts` times in all, after a short growing pause) when the
    /// server aborts it with a deadlock or serialization failure; each re-run is counted in `PostgresConflictRetries`.
    /// `body` must be safe to run again: everything it wrote to the database was rolled back, but it must not have
    /// changed anything outside the transaction.
    public func retryingTransaction<T>(isolation: String? = nil, attempts: Int = 5,
                                       _ body: (PostgresConnection) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try transaction(isolation: isolation, body)
            } catch let error as PostgresError where error.isTransientConflict && attempt < attempts {
                PostgresConflictRetries.record()
                Thread.sleep(forTimeInterval: 0.005 * Double(attempt) + Double.random(in: 0..<0.01))
            }
        }
    }
}

import Foundation
import Postgres
import StoreCalls

/// Buffers every store call attempt and writes them as `store_query` rows (one per attempt).
/// Thread-safe: workers report from many threads; `flush` writes on the recorder's own connection.
public final class StoreQueryRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private let database: PostgresConnection
    private let jobRunID: Int64?
    private var pending: [(StoreCallAttempt, subscriptionId: String?)] = []
    /// Attempts recorded so far, by outcome.
    public private(set) var outcomes: [String: Int] = [:]

    /// A recorder writing through `database` (used only by this recorder) for run `jobRunID`.
    public init(database: PostgresConnection, jobRunID: Int64?) {
        self.database = database
        self.jobRunID = jobRunID
    }

    /// Records one attempt, tagged with the subscription it was made for, if known.
    public func record(_ attempt: StoreCallAttempt, subscriptionId: String? = nil) {
        lock.lock()
        pending.append((attempt, subscriptionId))
        outcomes[attempt.outcome, default: 0] += 1
        lock.unlock()
    }

    /// Writes the buffered attempts with one COPY; safe to call repeatedly.
    public func flush() throws {
        lock.lock()
        let batch = pending
        pending.removeAll()
        lock.unlock()
        guard !batch.isEmpty else { return }
        try database.copyIn("""
            COPY store_query (job_run_id, subscription_id, provider, endpoint, outcome, http_status, store_error_code, latency_ms)
            FROM STDIN
            """) { copy in
            for (attempt, subscriptionId) in batch {
                try copy.writeRow([jobRunID.map { String($0) }, subscriptionId, attempt.endpoint.hasPrefix("apple") ? "APPLE" : "GOOGLE",
                                   attempt.endpoint, attempt.outcome, attempt.httpStatus.map { String($0) }, attempt.storeErrorCode,
                                   String(attempt.latencyMilliseconds)])
            }
        }
    }
}

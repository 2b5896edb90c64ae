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

    /// Writes the buffered attempts with one statement; safe to call repeatedly.
    public func flush() throws {
        guard let pending = pendingInsert() else { return }
        try database.execute(pending.statement.sql, pending.statement.parameters)
        written(pending.count)
    }

    /// The INSERT of the attempts buffered so far and how many it holds, or nil when none are: for a caller that
    /// sends it inside its own transaction (e.g. queued with a projection's COMMIT). Once that transaction has
    /// committed, `written(count)` forgets them; if it rolled back, they stay buffered for the next flush.
    public func pendingInsert() -> (statement: PostgresStatement, count: Int)? {
        lock.lock()
        let batch = pending
        lock.unlock()
        guard !batch.isEmpty else { return nil }
        func column(_ value: (StoreCallAttempt) -> String?) -> PostgresTextArray { PostgresTextArray(batch.map { value($0.0) }) }
        return (PostgresStatement("""
            INSERT INTO store_query (job_run_id, subscription_id, provider, endpoint, outcome, http_status, store_error_code, latency_ms)
            SELECT $1::bigint, a.subscription_id::uuid, a.provider::billing_provider, a.endpoint, a.outcome, a.http_status::int,
                   a.store_error_code, a.latency_ms::int
            FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
                 AS a (subscription_id, provider, endpoint, outcome, http_status, store_error_code, latency_ms)
            """, [jobRunID, PostgresTextArray(batch.map(\.subscriptionId)), column { $0.endpoint.hasPrefix("apple") ? "APPLE" : "GOOGLE" },
                  column { $0.endpoint }, column { $0.outcome }, column { $0.httpStatus.map { String($0) } }, column { $0.storeErrorCode },
                  column { String($0.latencyMilliseconds) }]), batch.count)
    }

    /// Forgets the first `count` buffered attempts, which a committed `pendingInsert()` wrote.
    public func written(_ count: Int) {
        lock.lock()
        pending.removeFirst(min(count, pending.count))
        lock.unlock()
    }
}

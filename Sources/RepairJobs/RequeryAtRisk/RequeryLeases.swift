import Foundation
import Postgres

/// The `requery_work_item` leases that let several processes split one run without querying a subscription twice.
public struct RequeryLeases {
    public let database: PostgresConnection
    public let runKey: String

    /// Leases of run `runKey` on `database`.
    public init(database: PostgresConnection, runKey: String) {
        self.database = database
        self.runKey = runKey
    }

    /// Materialises the run's selection once: under a transaction-scoped advisory lock on the run key, the first
    /// process inserts the selection; later processes find items and insert nothing. Returns the rows inserted.
    @discardableResult
    public func materialise(_ options: RequeryOptions) throws -> Int {
        try database.retryingTransaction { db in
            _ = try db.query("SELECT pg_advisory_xact_lock(hashtext('requery-at-risk:' || $1))", [runKey])
            let existing = try db.query("SELECT 1 FROM requery_work_item WHERE run_key = $1 LIMIT 1", [runKey])
            guard existing.count == 0 else { return 0 }
            let selection = try RequerySelection.select(db, options: options)
            guard !selection.isEmpty else { return 0 }
            return try db.execute("""
                INSERT INTO requery_work_item (run_key, subscription_id, category, priority, is_test)
                SELECT $1, s.id::uuid, s.category, s.priority, s.is_test
                FROM unnest($2::text[], $3::text[], $4::int[], $5::bool[]) AS s (id, category, priority, is_test)
                ON CONFLICT (run_key, subscription_id) DO NOTHING
                """, [runKey, PostgresTextArray(selection.map(\.subscriptionId)), PostgresTextArray(selection.map(\.category.rawValue)),
                      PostgresTextArray(selection.map { String($0.category.priority) }), PostgresTextArray(selection.map { $0.isTest ? "t" : "f" })])
        }
    }

    /// The run's items by category and test flag (for the summary).
    public func selectedCounts() throws -> [(category: String, isTest: Bool, count: Int)] {
        try database.query("""
            SELECT category, is_test, count(*)::int AS n FROM requery_work_item WHERE run_key = $1
            GROUP BY category, is_test ORDER BY 1, 2
            """, [runKey]).rows.map { (try $0.decode(String.self, "category"), try $0.decode(Bool.self, "is_test"), try $0.decode(Int.self, "n")) }
    }

    /// Claims up to `limit` items, highest priority first: claims older than `leaseSeconds` (a process that died) are
    /// taken over first, then pending items. Two statements, because one with `pending OR expired` cannot use the
    /// (run_key, state, priority, id) index and scans and sorts every remaining item on each claim.
    public func claim(worker: String, limit: Int, leaseSeconds: Int) throws -> [RequeryWorkItem] {
        let expired = try claim(worker: worker, limit: limit, where: """
            state = 'claimed' AND claimed_at < clock_timestamp() - make_interval(secs => $4::int)
            """, leaseSeconds: leaseSeconds)
        guard expired.count < limit else { return expired }
        return expired + (try claim(worker: worker, limit: limit - expired.count, where: "state = 'pending'", leaseSeconds: leaseSeconds))
    }

    private func claim(worker: String, limit: Int, where condition: String, leaseSeconds: Int) throws -> [RequeryWorkItem] {
        try database.query("""
            WITH claimed AS (
                UPDATE requery_work_item SET state = 'claimed', claimed_by = $2, claimed_at = clock_timestamp(), attempts = attempts + 1
                WHERE id IN (
                    SELECT id FROM requery_work_item
                    WHERE run_key = $1 AND \(condition) AND $4::int > 0
                    ORDER BY priority, id
                    LIMIT $3
                    FOR UPDATE SKIP LOCKED)
                RETURNING id, subscription_id, category, is_test)
            SELECT c.id, c.category, c.is_test, \(RequeryTarget.columns)
            FROM claimed c JOIN subscription s ON s.id = c.subscription_id
            LEFT JOIN apple_subscription_identity a ON a.subscription_id = s.id
            """, [runKey, worker, limit, leaseSeconds]).rows.map { row in
            let name = try row.decode(String.self, "category")
            guard let category = RequeryCategory(rawValue: name) else {
                throw RequeryError.selection("work item \(try row.decode(Int64.self, "id")) has unknown category '\(name)'")
            }
            let target = try RequeryTarget(row)
            return RequeryWorkItem(id: try row.decode(Int64.self, "id"), subscriptionId: target.subscriptionId,
                                   category: category, isTest: try row.decode(Bool.self, "is_test"), target: target)
        }.sorted { ($0.category.priority, $0.id) < ($1.category.priority, $1.id) }
    }

    /// Marks an item done with its outcome (after its projection committed, or queued with that projection's COMMIT).
    public func complete(_ item: RequeryWorkItem, outcome: String) throws {
        let statement = completion(item, outcome: outcome)
        try database.execute(statement.sql, statement.parameters)
    }

    /// The statement that marks an item done with its outcome.
    public func completion(_ item: RequeryWorkItem, outcome: String) -> PostgresStatement {
        PostgresStatement("""
            UPDATE requery_work_item SET state = 'done', outcome = $2, finished_at = clock_timestamp(), last_error = NULL
            WHERE id = $1
            """, [item.id, outcome])
    }

    /// Marks an item failed for this run, with the reason; the next run selects the subscription again.
    public func fail(_ item: RequeryWorkItem, reason: String) throws {
        _ = try database.execute("""
            UPDATE requery_work_item SET state = 'failed', finished_at = clock_timestamp(), last_error = $2 WHERE id = $1
            """, [item.id, String(reason.prefix(1000))])
    }

    /// Returns claimed items of `worker` to the pool (a graceful stop before they were started).
    public func release(_ items: [RequeryWorkItem]) throws {
        for item in items {
            _ = try database.execute("""
                UPDATE requery_work_item SET state = 'pending', claimed_by = NULL, claimed_at = NULL
                WHERE id = $1 AND state = 'claimed'
                """, [item.id])
        }
    }
}

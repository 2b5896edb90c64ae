import Foundation
import Postgres
import RepairJobs
import Testing
import WorldGen

/// expire-lapsed derives an expiry only from what the store last said: a subscription whose latest re-query failed is
/// left for the next run (a renewal may be there), unless the store can no longer be asked (a Google token past the
/// 60-day query window).
@Suite(.serialized) struct ExpireLapsedUnknownTests {
    @Test func aFailedRequeryHoldsTheDerivedExpiryUntilTheStoreAnswers() throws {
        var options = WorldOptions(seed: 77, subscriptions: 300, months: 6, testShare: 0)
        options.faultShares = Dictionary(uniqueKeysWithValues: ProjectionFault.allCases.map { ($0, 0.05) })
        let harness = try RequeryHarness(name: "expire_unknown", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let asOf = options.asOf
        let lapsed = try db.query("""
            SELECT s.id::text AS id, s.provider AS provider,
                   s.current_period_end_at < $1::timestamptz - interval '60 days' AS gone
            FROM subscription s
            WHERE (s.status = 'CANCELED' AND s.current_period_end_at < $1::timestamptz - interval '1 day')
               OR (s.status IN ('ACTIVE', 'TRIALING', 'IN_GRACE_PERIOD', 'ON_HOLD')
                   AND s.current_period_end_at < $1::timestamptz - interval '60 days')
            """, [asOf]).rows.map { (try $0.decode(String.self, "id"), try $0.decode(String.self, "provider"), try $0.decode(Bool.self, "gone")) }
        let askable = try #require(lapsed.first { !($0.1 == "GOOGLE" && $0.2) }, "the world has a lapsed subscription the store can still answer for")
        let googleGone = lapsed.first { $0.1 == "GOOGLE" && $0.2 }
        func failRequery(_ id: String, run: String, state: String) throws {
            try db.execute("""
                INSERT INTO requery_work_item (run_key, subscription_id, category, priority, state, attempts, last_error)
                VALUES ($1, $2::uuid, 'period_ending', 1, $3, 4, CASE WHEN $3 = 'failed' THEN 'HTTP 503' END)
                """, [run, id, state])
        }
        for id in [askable.0] + (googleGone.map { [$0.0] } ?? []) { try failRequery(id, run: "faulty", state: "failed") }
        func derivedRows(_ id: String) throws -> Int {
            try RepairCheck.int(db, "SELECT count(*)::int AS n FROM billing_transaction WHERE subscription_id = $1::uuid AND is_derived", [id])
        }
        func status(_ id: String) throws -> String {
            try db.query("SELECT status FROM subscription WHERE id = $1::uuid", [id]).first?.decode(String.self, "status") ?? ""
        }

        let first = try ExpireLapsed.expire(db, asOf: asOf)
        #expect(first.expired == lapsed.count - 1, "every lapsed subscription but the unanswered one: \(first)")
        #expect(try derivedRows(askable.0) == 0, "no expiry derived while the store's answer is unknown")
        #expect(try status(askable.0) != "EXPIRED")
        if let googleGone {
            #expect(try status(googleGone.0) == "EXPIRED", "a Google token past the query window is expired by time regardless")
        }

        // The next run's re-query answers (done): the expiry is derived then.
        try failRequery(askable.0, run: "healthy", state: "done")
        let second = try ExpireLapsed.expire(db, asOf: asOf)
        #expect(second.expired == 1)
        #expect(try status(askable.0) == "EXPIRED")
        #expect(try derivedRows(askable.0) == 1)
    }
}

import Foundation
import Postgres
import RepairJobs
import Testing
import WorldGen

/// expire-lapsed derives an expiry only from what the store last said: a subscription whose latest re-query failed is
/// left for the next run (a renewal may be there), unless the store can no longer be asked (a Google token past the
/// 60-day query window); a subscription with a stored notification still to be projected is left until replay-events
/// projects it or dead-letters it.
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
            WHERE ((s.status = 'CANCELED' AND s.current_period_end_at < $1::timestamptz - interval '1 day')
                   OR (s.status IN ('ACTIVE', 'TRIALING', 'IN_GRACE_PERIOD', 'ON_HOLD')
                       AND s.current_period_end_at < $1::timestamptz - interval '60 days'))
              AND s.id NOT IN (\(ExpireLapsed.awaitingReplay))
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

    /// HostileStoreTests' divergence, made deterministic: a Google weekly trial 01-05 → 01-12 that renewed yearly on
    /// 01-12, whose RENEWED notification was stored but failed to replay under store faults. Stored, it is TRIALING with
    /// its period ended over 60 days before the as-of 06-01 (past Google's query window by the stored period, so the
    /// failed-re-query guard does not hold it), and an Apple subscription CANCELED since 04-01 whose last notification
    /// (a re-enabled renewal) is unprocessed. Neither is expired while its notification waits: a derived EXPIRED row is
    /// never retracted, and the clean run, which replayed the notification first, never writes one. Once the
    /// notification is projected, or dead-lettered (replay gave up, or Google no longer knows the token), the
    /// subscriptions are lapsed again.
    @Test func aStoredNotificationStillToReplayHoldsTheDerivedExpiry() throws {
        var world = try HandWorld("expire_awaiting_replay")
        defer { world.db.close() }
        let db = world.db
        let weekly = try world.plan("PRO_WEEKLY", "P1W")
        let monthly = try world.plan("PRO_MONTHLY", "P1M")
        let google = try world.subscription("GOOGLE", plan: weekly, status: "TRIALING")
        try world.row(google, "GOOGLE", "PURCHASED", at: "2026-01-05T00:00:00Z", amount: 0, currency: "USD", plan: weekly,
                      period: "P1W", periodEnd: "2026-01-12T00:00:00Z")
        let apple = try world.subscription("APPLE", plan: monthly, status: "CANCELED")
        try world.row(apple, "APPLE", "PURCHASED", at: "2026-03-01T00:00:00Z", amount: 9_990_000, currency: "USD", plan: monthly,
                      period: "P1M", periodEnd: "2026-04-01T00:00:00Z")
        for (id, end) in [(google, "2026-01-12T00:00:00Z"), (apple, "2026-04-01T00:00:00Z")] {
            _ = try db.execute("UPDATE subscription SET current_period_end_at = $2::timestamptz, auto_renew = false WHERE id = $1", [id, end])
        }
        _ = try db.execute("INSERT INTO google_purchase_token (subscription_id, purchase_token, is_current) VALUES ($1, 'tok-awaiting', true)", [google])
        _ = try db.execute("INSERT INTO apple_subscription_identity (subscription_id, original_transaction_id) VALUES ($1, '2000000900')", [apple])
        func storeEvent(_ provider: String, _ id: String, key: String?, payload: String) throws -> String {
            try db.query("""
                INSERT INTO inbound_webhook_event (provider, provider_event_id, provider_business_key, payload, received_at,
                                                   processing_error, processing_attempts)
                VALUES ($1::billing_provider, $2, $3, $4::jsonb, '2026-05-20T00:00:00Z', 'subscriptionsv2.get failed: HTTP 503', 1)
                RETURNING id::text AS id
                """, [provider, id, key, payload]).first?.decode(String.self, "id") ?? ""
        }
        let googleEvent = try storeEvent("GOOGLE", "msg-1", key: "tok-awaiting:2:1768176000000", payload: "{}")
        let appleEvent = try storeEvent("APPLE", "uuid-1", key: nil,
                                        payload: #"{"transactionInfo": {"originalTransactionId": "2000000900"}}"#)
        let asOf = try #require(ISO8601DateFormatter().date(from: "2026-06-01T00:00:00Z"))
        func status(_ id: UUID) throws -> String {
            try db.query("SELECT status::text AS s FROM subscription WHERE id = $1", [id]).first?.decode(String.self, "s") ?? ""
        }
        func derived(_ id: UUID) throws -> Int {
            try RepairCheck.int(db, "SELECT count(*)::int AS n FROM billing_transaction WHERE subscription_id = $1::uuid AND is_derived", [id.uuidString])
        }

        #expect(try ExpireLapsed.select(db, asOf: asOf) == 0)
        let held = try ExpireLapsed.expire(db, asOf: asOf)
        #expect(held.expired == 0 && held.rows == 0, "\(held)")
        #expect(try status(google) == "TRIALING" && status(apple) == "CANCELED")
        #expect(try derived(google) == 0 && derived(apple) == 0)

        // replay-events gives up on the Google notification (dead letter) and projects the Apple one elsewhere (processed).
        _ = try db.execute("""
            INSERT INTO dead_letter (source, source_id, reason, attempts) VALUES ('inbound_webhook_event', $1, 'token gone (410)', 1)
            """, [googleEvent])
        _ = try db.execute("UPDATE inbound_webhook_event SET processed_at = $2::timestamptz, processing_error = NULL WHERE id = $1::uuid",
                           [appleEvent, "2026-06-01T00:00:00Z"])
        let after = try ExpireLapsed.expire(db, asOf: asOf)
        #expect(after.expired == 2 && after.rows == 2, "\(after)")
        #expect(try status(google) == "EXPIRED" && status(apple) == "EXPIRED")
    }
}

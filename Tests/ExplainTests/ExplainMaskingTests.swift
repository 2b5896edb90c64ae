import Explain
import Foundation
import JobKit
import Postgres
import TestSupport
import Testing

/// A Google upgrade: the new purchase token carries the old one as `linkedPurchaseToken`, and the old token belongs
/// to another subscription. explain of the new subscription never shows the old token in full, even with --raw-ids.
@Suite struct ExplainMaskingTests {
    @Test func aLinkedTokenOfAnotherSubscriptionIsAlwaysMasked() throws {
        let (_, db) = try TestDatabase.migrated("test_explain_masking")
        defer { db.close() }
        let seed = try SeedRows.insert(db)
        let oldToken = "old-token-" + UUID().uuidString, newToken = "new-token-" + UUID().uuidString
        func subscription() throws -> String {
            try #require(try db.query("""
                INSERT INTO subscription (provider, billing_account_id, plan_id, status) VALUES ('GOOGLE', $1, $2, 'ACTIVE') RETURNING id::text AS id
                """, [seed.accountID, seed.planID]).first).decode(String.self, "id")
        }
        let old = try subscription(), new = try subscription()
        try db.execute("INSERT INTO google_purchase_token (subscription_id, purchase_token, is_current) VALUES ($1::uuid, $2, false)", [old, oldToken])
        try db.execute("""
            INSERT INTO google_purchase_token (subscription_id, purchase_token, linked_purchase_token) VALUES ($1::uuid, $2, $3)
            """, [new, newToken, oldToken])
        try db.execute("""
            INSERT INTO inbound_webhook_event (provider, provider_event_id, provider_business_key, payload, received_at, processing_error,
                                               processing_attempts)
            VALUES ('GOOGLE', 'm-1', $1, '{}', '2026-01-02T00:00:00Z', $2, 2)
            """, ["\(newToken):4:1767312000000", "store said: token \(oldToken) was replaced"])
        for raw in [false, true] {
            let timeline = try Timeline.build(identifier: newToken, asOf: Date(timeIntervalSince1970: 1_800_000_000), rawOwnIdentifiers: raw, database: db)
            let output = TimelineText.render(timeline) + TimelineJSON.render(timeline)
            #expect(!output.contains(oldToken), "raw=\(raw)\n\(output)")
            #expect(!output.contains(old), "raw=\(raw)")
            #expect(output.contains(newToken) == raw, "own token shown only with --raw-ids")
            #expect(output.contains("RTDN type 4"), "\(output)")
            #expect(output.contains("failed=store said: token old-…"), "\(output)")
        }
        // An identifier that names two subscriptions (it should never happen) is a usage error with the count.
        try db.execute("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, order_id, raw_payload)
            VALUES ($1::uuid, 'GOOGLE', 'CANCELED', $2, '2026-01-03T00:00:00Z', $3, '{}')
            """, [new, "GOOGLE:\(newToken):CANCELED", oldToken])
        do {
            _ = try Timeline.build(identifier: oldToken, asOf: Date(timeIntervalSince1970: 1_800_000_000), rawOwnIdentifiers: false, database: db)
            Issue.record("an identifier of two subscriptions must not build a timeline")
        } catch let error as JobError {
            #expect(error.exitCode == .usageOrConfiguration)
            #expect(error.description.contains("matches 2 subscriptions") && !error.description.contains(oldToken), "\(error)")
        }
    }
}

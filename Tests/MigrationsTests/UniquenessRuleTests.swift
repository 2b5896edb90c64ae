import Foundation
import Postgres
import TestSupport
import Testing

/// Every uniqueness rule of docs/DATA_MODEL.md is enforced by the database, not by application checks.
@Suite struct UniquenessRuleTests {
    static let database: Result<PostgresConfiguration, any Error> = Result {
        let (configuration, connection) = try TestDatabase.migrated("test_uniqueness")
        connection.close()
        return configuration
    }

    private func connect() throws -> (PostgresConnection, SeedRows) {
        let db = try PostgresConnection(configuration: try Self.database.get())
        return (db, try SeedRows.insert(db))
    }

    private func expectUniqueViolation(_ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected a unique violation")
        } catch let error as PostgresError {
            #expect(error.isUniqueViolation, "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func duplicateTransactionKeyIsRejected() throws {
        let (db, seed) = try connect()
        let key = "APPLE:1000:\(UUID().uuidString)"
        let insert = """
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, raw_payload)
            VALUES ($1, 'APPLE', 'RENEWED', $2, now(), '{}')
            """
        try db.execute(insert, [seed.subscriptionID, key])
        expectUniqueViolation { try db.execute(insert, [seed.subscriptionID, key]) }
    }

    @Test func onePendingPriceChangePerSubscriptionButManyAppliedOrCanceled() throws {
        let (db, seed) = try connect()
        let insert = """
            INSERT INTO subscription_price_change (subscription_id, provider, mode, state, currency_code, new_amount_micros)
            VALUES ($1, 'APPLE', 'PRICE_INCREASE', $2::price_change_state, 'USD', 5990000)
            """
        for state in ["APPLIED", "APPLIED", "CANCELED", "CANCELED", "ACCEPTED", "PENDING"] {
            try db.execute(insert, [seed.subscriptionID, state])
        }
        expectUniqueViolation { try db.execute(insert, [seed.subscriptionID, "PENDING"]) }
        let other = try SeedRows.insert(db)
        try db.execute(insert, [other.subscriptionID, "PENDING"])
    }

    @Test func oneEntitlementPerAccountAndPlan() throws {
        let (db, seed) = try connect()
        let insert = "INSERT INTO entitlement (billing_account_id, plan_id, is_active) VALUES ($1, $2, true)"
        try db.execute(insert, [seed.accountID, seed.planID])
        expectUniqueViolation { try db.execute(insert, [seed.accountID, seed.planID]) }
    }

    @Test func storeProductMappingIsUniqueWithEmptyBasePlanAndOffer() throws {
        let (db, seed) = try connect()
        let product = "com.example.pro.\(UUID().uuidString)"
        let insert = "INSERT INTO store_product_mapping (provider, plan_id, product_id, external_key) VALUES ('APPLE', $1, $2, $3)"
        try db.execute(insert, [seed.planID, product, UUID().uuidString])
        expectUniqueViolation { try db.execute(insert, [seed.planID, product, UUID().uuidString]) }
        let withBasePlan = """
            INSERT INTO store_product_mapping (provider, plan_id, product_id, base_plan_id, offer_id, external_key)
            VALUES ('GOOGLE', $1, $2, 'monthly', $3, $4)
            """
        try db.execute(withBasePlan, [seed.planID, product, "", UUID().uuidString])
        try db.execute(withBasePlan, [seed.planID, product, "trial", UUID().uuidString])
        expectUniqueViolation { try db.execute(withBasePlan, [seed.planID, product, "", UUID().uuidString]) }
        let nullRejected = try #require(throws: PostgresError.self) {
            try db.execute(withBasePlan, [seed.planID, product, String?.none, UUID().uuidString])
        }
        #expect(nullRejected.sqlState == "23502", "offer_id is never NULL: NULLs would defeat the unique key")
    }

    @Test func storeIdentitiesAndEventsAreUnique() throws {
        let (db, seed) = try connect()
        let other = try SeedRows.insert(db)
        let original = "2000000\(Int.random(in: 100_000...999_999))\(UUID().uuidString.prefix(6))"
        let apple = "INSERT INTO apple_subscription_identity (subscription_id, original_transaction_id) VALUES ($1, $2)"
        try db.execute(apple, [seed.subscriptionID, original])
        expectUniqueViolation { try db.execute(apple, [other.subscriptionID, original]) }
        expectUniqueViolation { try db.execute(apple, [seed.subscriptionID, original + "x"]) }

        let token = "token-\(UUID().uuidString)"
        let google = "INSERT INTO google_purchase_token (subscription_id, purchase_token) VALUES ($1, $2)"
        try db.execute(google, [seed.subscriptionID, token])
        expectUniqueViolation { try db.execute(google, [other.subscriptionID, token]) }

        let event = "INSERT INTO inbound_webhook_event (provider, provider_event_id, payload) VALUES ($1::billing_provider, $2, '{}')"
        let uuid = UUID().uuidString
        try db.execute(event, ["APPLE", uuid])
        try db.execute(event, ["GOOGLE", uuid])
        expectUniqueViolation { try db.execute(event, ["APPLE", uuid]) }

        let key = "INSERT INTO idempotency_key (key, scope, expires_at) VALUES ($1, 'ingest', now() + interval '1 day')"
        try db.execute(key, [uuid])
        expectUniqueViolation { try db.execute(key, [uuid]) }

        expectUniqueViolation { try db.execute("INSERT INTO billing_account (user_id) VALUES ($1)", [seed.userID]) }
    }
}

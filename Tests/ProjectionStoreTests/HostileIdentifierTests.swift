import BillingCore
import Foundation
import Postgres
import ProjectionStore
import Testing

/// SQL-injection and control-character strings in product IDs, purchase tokens and order IDs pass through the
/// projection writer as data: stored byte for byte, keys stay idempotent, no statement changes; a NUL byte (which
/// PostgreSQL text cannot hold) is refused instead of being cut short.
@Suite(.serialized) struct HostileIdentifierTests {
    static let product = "pro_monthly'); DROP TABLE subscription; --\t\u{1B}[2J\u{202E}\"x\\"
    static let world: Result<StoreWorld, any Error> = Result {
        let world = try StoreWorld.make("test_hostile_identifiers")
        let db = try world.connect()
        defer { db.close() }
        try db.execute("""
            INSERT INTO store_product_mapping (provider, plan_id, product_id, base_plan_id, external_key)
            VALUES ('GOOGLE', $1::uuid, $2, 'monthly', 'google-hostile')
            """, [world.planID, product])
        return world
    }

    /// `text` as a JSON string literal.
    static func json(_ text: String) throws -> String { String(decoding: try JSONEncoder().encode(text), as: UTF8.self) }

    /// A `subscriptionsv2.get` answer (shape as in the Android Publisher v3 SubscriptionPurchaseV2 reference) whose
    /// identifiers are hostile strings.
    static func answer(_ world: StoreWorld, token: String, order: String) throws -> StoreState {
        let json = """
            {"kind": "androidpublisher#subscriptionPurchaseV2", "regionCode": "US", "startTime": "2026-01-01T10:00:00.120Z",
             "subscriptionState": "SUBSCRIPTION_STATE_ACTIVE", "latestOrderId": \(try Self.json(order)),
             "acknowledgementState": "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
             "externalAccountIdentifiers": {"obfuscatedExternalAccountId": "\(world.accountToken.uuidString.lowercased())"},
             "lineItems": [{"productId": \(try Self.json(product)), "expiryTime": "2026-02-01T10:00:00.120Z",
               "autoRenewingPlan": {"autoRenewEnabled": true, "recurringPrice": {"currencyCode": "USD", "units": "9", "nanos": 990000000}},
               "offerDetails": {"basePlanId": "monthly"}, "offerPhase": {"basePrice": {}}, "latestSuccessfulOrderId": \(try Self.json(order))}]}
            """
        let purchase = try JSONDecoder().decode(SubscriptionPurchaseV2.self, from: Data(json.utf8))
        return .google(GoogleStoreState(purchaseToken: token, purchase: purchase, rawPayload: Data(json.utf8)))
    }

    @Test func injectionAndControlCharactersRoundTripAsData() throws {
        let world = try Self.world.get()
        let db = try world.connect()
        defer { db.close() }
        let writer = ProjectionWriter(database: db)
        let trigger = ProjectionTrigger(source: .requery, now: StoreWorld.at(1))
        let token = "tok'; DELETE FROM google_purchase_token; --\n\r\u{1B}[0m\u{7F}\u{2028}$1 %s \\' \(UUID().uuidString)"
        let order = "GPA.3376-6603-2291-45501'; TRUNCATE billing_transaction; --\t"
        let result = try writer.project(try Self.answer(world, token: token, order: order), trigger: trigger)
        #expect(result.insertedTransactions == 1)

        let subscription = try #require(try db.query("SELECT product_id FROM subscription WHERE id = $1::uuid", [result.subscriptionId]).first)
        #expect(try subscription.decode(String.self, "product_id") == Self.product)
        let tokens = try db.query("SELECT purchase_token FROM google_purchase_token WHERE subscription_id = $1::uuid", [result.subscriptionId])
        #expect(try tokens.rows.map { try $0.decode(String.self, "purchase_token") } == [token])
        let row = try #require(try db.query("""
            SELECT transaction_key, order_id, raw_payload #>> '{lineItems,0,productId}' AS payload_product
            FROM billing_transaction WHERE subscription_id = $1::uuid
            """, [result.subscriptionId]).first)
        #expect(try row.decode(String.self, "transaction_key") == "GOOGLE:\(token):\(order)")
        #expect(try row.decode(String.self, "order_id") == order)
        #expect(try row.decode(String.self, "payload_product") == Self.product)
        // Nothing the strings "asked" for happened: the tables are there, and the rows are.
        let counts = try #require(try db.query("""
            SELECT (SELECT count(*) FROM subscription) AS subscriptions, (SELECT count(*) FROM google_purchase_token) AS tokens,
                   (SELECT count(*) FROM billing_transaction) AS transactions
            """).first)
        #expect(try counts.decode(Int64.self, "subscriptions") >= 1)
        #expect(try counts.decode(Int64.self, "tokens") >= 1)
        #expect(try counts.decode(Int64.self, "transactions") >= 1)
        // The hostile key is still a key: the same answer again inserts nothing.
        #expect(try writer.project(try Self.answer(world, token: token, order: order), trigger: trigger).insertedTransactions == 0)
    }

    @Test func aNulByteIsRefusedNotCutShort() throws {
        let world = try Self.world.get()
        let db = try world.connect()
        defer { db.close() }
        let prefix = "nul-\(UUID().uuidString)"
        let state = try Self.answer(world, token: prefix + "\u{0}tail", order: "GPA.3376-6603-2291-45502")
        #expect(throws: (any Error).self) {
            try ProjectionWriter(database: db).project(state, trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(1)))
        }
        let stored = try db.query("SELECT purchase_token FROM google_purchase_token WHERE purchase_token LIKE $1", [prefix + "%"])
        #expect(stored.count == 0, "a token with a NUL byte must not be stored truncated")
    }
}

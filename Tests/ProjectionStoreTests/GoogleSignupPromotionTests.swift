import BillingCore
import Foundation
import Postgres
import ProjectionStore
import Testing

/// The signup promotion of a Google line item reaches its charge row's columns on the real PostgreSQL.
@Suite(.serialized) struct GoogleSignupPromotionTests {
    static let world: Result<StoreWorld, any Error> = Result {
        let world = try StoreWorld.make("test_google_signup_promotion")
        let db = try world.connect()
        defer { db.close() }
        try db.execute("""
            INSERT INTO store_product_mapping (provider, plan_id, product_id, base_plan_id, external_key)
            VALUES ('GOOGLE', $1::uuid, 'pro_monthly', 'monthly', 'google-pro')
            """, [world.planID])
        return world
    }

    /// A `subscriptionsv2.get` answer of a fresh signup with the given `signupPromotion` member (JSON), if any.
    private func answer(_ world: StoreWorld, order: String, promotion: String?) throws -> StoreState {
        let json = """
            {"kind": "androidpublisher#subscriptionPurchaseV2", "regionCode": "US", "startTime": "2026-01-01T10:00:00.120Z",
             "subscriptionState": "SUBSCRIPTION_STATE_ACTIVE", "latestOrderId": "\(order)",
             "acknowledgementState": "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
             "externalAccountIdentifiers": {"obfuscatedExternalAccountId": "\(world.accountToken.uuidString.lowercased())"},
             "lineItems": [{"productId": "pro_monthly", "expiryTime": "2026-02-01T10:00:00.120Z",
               "autoRenewingPlan": {"autoRenewEnabled": true, "recurringPrice": {"currencyCode": "USD", "units": "9", "nanos": 990000000}},
               "offerDetails": {"basePlanId": "monthly"}, "offerPhase": {"basePrice": {}},
               \(promotion.map { "\"signupPromotion\": \($0)," } ?? "") "latestSuccessfulOrderId": "\(order)"}]}
            """
        let purchase = try JSONDecoder().decode(SubscriptionPurchaseV2.self, from: Data(json.utf8))
        return .google(GoogleStoreState(purchaseToken: "token-\(UUID().uuidString.lowercased())", purchase: purchase,
                                        rawPayload: Data(json.utf8)))
    }

    private func columns(_ db: PostgresConnection, subscriptionId: String) throws -> [String?] {
        let row = try #require(try db.query("""
            SELECT signup_promotion_type, signup_promotion_code FROM billing_transaction
            WHERE subscription_id = $1::uuid AND event_type = 'PURCHASED'
            """, [subscriptionId]).first)
        return [try row.decodeIfPresent(String.self, "signup_promotion_type"),
                try row.decodeIfPresent(String.self, "signup_promotion_code")]
    }

    @Test func vanityOneTimeAndNoPromotionAreStoredOnThePurchaseRow() throws {
        let world = try Self.world.get()
        let db = try world.connect()
        defer { db.close() }
        let writer = ProjectionWriter(database: db)
        let trigger = ProjectionTrigger(source: .requery, now: StoreWorld.at(1))
        let cases: [(String?, [String?])] = [
            (#"{"vanityCode": {"promotionCode": "SPRINGRUN25"}}"#, ["VANITY_CODE", "SPRINGRUN25"]),
            (#"{"oneTimeCode": {}}"#, ["ONE_TIME_CODE", nil]),
            (nil, [nil, nil]),
        ]
        for (index, (promotion, expected)) in cases.enumerated() {
            let state = try answer(world, order: "GPA.3376-6603-2291-4550\(index)", promotion: promotion)
            let result = try writer.project(state, trigger: trigger)
            #expect(result.insertedTransactions == 1)
            #expect(try columns(db, subscriptionId: result.subscriptionId) == expected)
        }
    }
}

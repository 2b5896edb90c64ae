import BillingCore
import Foundation
import Postgres
import ProjectionStore
import Testing

/// The offer of an Apple transaction (`offerType`, `offerDiscountType`) reaches the columns of every row written from
/// it on the real PostgreSQL, as sent: what reconcile reads to tell an offer-code charge of 0 from a free trial.
@Suite(.serialized) struct AppleOfferColumnsTests {
    static let world: Result<StoreWorld, any Error> = Result { try StoreWorld.make("test_apple_offer_columns") }

    private func originalID() -> String { "30000\(Int.random(in: 10_000_000...99_999_999))" }

    /// The stored `offer_type` / `offer_discount_type` of each row of the subscription, by event type.
    private func offers(_ db: PostgresConnection, subscriptionId: String) throws -> [String: [String?]] {
        var result: [String: [String?]] = [:]
        for row in try db.query("""
            SELECT event_type::text AS e, offer_type::text AS t, offer_discount_type AS d FROM billing_transaction
            WHERE subscription_id = $1::uuid
            """, [subscriptionId]).rows {
            result[try row.decode(String.self, "e")] = [try row.decodeIfPresent(String.self, "t"), try row.decodeIfPresent(String.self, "d")]
        }
        return result
    }

    @Test func eachRowCarriesItsTransactionsOfferAsSent() throws {
        let world = try Self.world.get()
        let db = try world.connect()
        defer { db.close() }
        let writer = ProjectionWriter(database: db)
        let cases: [(Int?, String?, Int, [String?])] = [
            (3, "FREE_TRIAL", 0, ["3", "FREE_TRIAL"]),        // an offer code's free week
            (1, "FREE_TRIAL", 0, ["1", "FREE_TRIAL"]),        // the introductory free trial
            (2, "PAY_AS_YOU_GO", 4990, ["2", "PAY_AS_YOU_GO"]), // a paid promotional offer
            (nil, nil, 9990, [nil, nil]),                     // no offer
            (70_000, "FREE_TRIAL", 0, [nil, "FREE_TRIAL"]),   // beyond smallint: the type is not stored, the write goes on
        ]
        for (offerType, discount, price, expected) in cases {
            let original = originalID()
            guard case .apple(var state) = try world.apple("SUBSCRIBED", subtype: "INITIAL_BUY", original: original, transaction: original,
                                                           signedDay: 0, expiresDay: 7, priceMilli: price) else {
                Issue.record("not an Apple state"); continue
            }
            state.transaction.rawOfferType = offerType
            state.transaction.rawOfferDiscountType = discount
            let trigger = ProjectionTrigger(source: .requery, now: StoreWorld.at(0.1))
            let bought = try writer.project(.apple(state), trigger: trigger)
            #expect(bought.insertedTransactions == 1)
            #expect(try offers(db, subscriptionId: bought.subscriptionId) == ["PURCHASED": expected], "offerType \(String(describing: offerType))")

            // A later state of the same transaction (auto-renew turned off) writes its event row with the same offer.
            guard case .apple(var off) = try world.apple("DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", original: original,
                                                         transaction: original, signedDay: 1, expiresDay: 7, autoRenew: false,
                                                         priceMilli: price) else { continue }
            off.transaction.rawOfferType = offerType
            off.transaction.rawOfferDiscountType = discount
            _ = try writer.project(.apple(off), trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(1.1)))
            #expect(try offers(db, subscriptionId: bought.subscriptionId) == ["PURCHASED": expected, "CANCELED": expected])
        }
    }

    /// A row stored before the columns existed (and not backfilled) has no offer; projecting a notification of its
    /// transaction again, as replay-events does, attaches the offer and changes nothing else.
    @Test func aReplayedNotificationAttachesTheOfferToAnOlderRow() throws {
        let world = try Self.world.get()
        let db = try world.connect()
        defer { db.close() }
        let writer = ProjectionWriter(database: db)
        let original = originalID()
        guard case .apple(var state) = try world.apple("SUBSCRIBED", subtype: "INITIAL_BUY", original: original, transaction: original,
                                                       signedDay: 0, expiresDay: 7, priceMilli: 0) else {
            Issue.record("not an Apple state"); return
        }
        state.transaction.rawOfferType = 3
        state.transaction.rawOfferDiscountType = "FREE_TRIAL"
        let bought = try writer.project(.apple(state), trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(0.1)))
        _ = try db.execute("UPDATE billing_transaction SET offer_type = NULL, offer_discount_type = NULL WHERE subscription_id = $1::uuid",
                           [bought.subscriptionId])
        let before = try db.query("SELECT amount_micros, effective_at, recorded_at FROM billing_transaction WHERE subscription_id = $1::uuid",
                                  [bought.subscriptionId]).first.map { [try $0.decode(Int64.self, "amount_micros").description,
                                                                        try $0.decode(Date.self, "effective_at").description,
                                                                        try $0.decode(Date.self, "recorded_at").description] }
        // A replayed notification names its inbound event, so its rows reach the existing ones (a re-query sends none).
        let replay = ProjectionTrigger(source: .webhook(inboundEventId: UUID().uuidString), now: StoreWorld.at(2))
        let again = try writer.project(.apple(state), trigger: replay)
        #expect(again.insertedTransactions == 0)
        #expect(try offers(db, subscriptionId: bought.subscriptionId) == ["PURCHASED": ["3", "FREE_TRIAL"]])
        let after = try db.query("SELECT amount_micros, effective_at, recorded_at FROM billing_transaction WHERE subscription_id = $1::uuid",
                                 [bought.subscriptionId]).first.map { [try $0.decode(Int64.self, "amount_micros").description,
                                                                       try $0.decode(Date.self, "effective_at").description,
                                                                       try $0.decode(Date.self, "recorded_at").description] }
        #expect(after == before && before != nil)
    }
}

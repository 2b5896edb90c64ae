import BillingCore
import Foundation
import Postgres
import ProjectionStore
import Testing

/// What the writer keeps as history: charge periods, when a row was learned, entitlement intervals, and an
/// entitlement that follows its subscription to another plan.
@Suite(.serialized) struct HistoryWriterTests {
    static let world: Result<StoreWorld, any Error> = Result { try StoreWorld.make("test_history_writer") }

    private func originalID() -> String { "30000\(Int.random(in: 10_000_000...99_999_999))" }

    @Test func chargeRowsSayWhatWasBoughtAndWhenItWasLearned() throws {
        let world = try Self.world.get()
        let db = try world.connect()
        let original = originalID()
        let buy = try world.apple("SUBSCRIBED", subtype: "INITIAL_BUY", original: original, transaction: original, signedDay: 0, expiresDay: 30)
        let writing = Date()
        let written = try ProjectionWriter(database: db).project(buy, trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(0.5)))
        let wrote = Date()
        let row = try #require(try db.query("""
            SELECT plan_id::text AS plan, product_id, billing_period, period_start_at, period_end_at, effective_at, recorded_at, is_derived
            FROM billing_transaction WHERE subscription_id = $1::uuid
            """, [written.subscriptionId]).first)
        #expect(try row.decode(String.self, "plan") == world.planID)
        #expect(try row.decode(String.self, "product_id") == StoreWorld.product)
        #expect(try row.decode(String.self, "billing_period") == "P1M")
        #expect(try row.decode(Date.self, "period_end_at") == StoreWorld.at(30))
        #expect(try row.decode(Date.self, "period_start_at") == (try row.decode(Date.self, "effective_at")))
        let recorded = try row.decode(Date.self, "recorded_at")
        #expect(recorded >= writing.addingTimeInterval(-1) && recorded <= wrote.addingTimeInterval(1),
                "a row is learned when the database wrote it, not at the run's as-of: \(recorded)")
        #expect(try !row.decode(Bool.self, "is_derived"))
        let interval = try #require(try db.query("""
            SELECT valid_until, ended_at FROM entitlement_interval WHERE subscription_id = $1::uuid
            """, [written.subscriptionId]).first)
        #expect(try interval.decode(Date.self, "valid_until") == StoreWorld.at(30))
        #expect(try interval.decodeIfPresent(Date.self, "ended_at") == nil)

        // A refund revokes: the refund row is negative, names its charge, and the interval ends at the revocation.
        let refund = try world.apple("REFUND", original: original, transaction: original, signedDay: 5, expiresDay: 30)
        guard case .apple(var state) = refund else { return }
        state.transaction.revocationDate = AppleTimestamp(date: StoreWorld.at(4))
        state.transaction.revocationReason = 1
        _ = try ProjectionWriter(database: db).project(.apple(state), trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(5)))
        let refunded = try #require(try db.query("""
            SELECT amount_micros, refunded_transaction_key, refund_kind::text AS kind, revocation_reason FROM billing_transaction
            WHERE subscription_id = $1::uuid AND event_type = 'REFUNDED'
            """, [written.subscriptionId]).first)
        #expect(try refunded.decode(Int64.self, "amount_micros") == -9_990_000)
        #expect(try refunded.decode(String.self, "refunded_transaction_key") == "APPLE:\(original):\(original)")
        #expect(try refunded.decode(String.self, "kind") == "REFUND")
        #expect(try refunded.decode(Int64.self, "revocation_reason") == 1)
        let ended = try #require(try db.query("SELECT ended_at FROM entitlement_interval WHERE subscription_id = $1::uuid",
                                              [written.subscriptionId]).first)
        #expect(try ended.decode(Date.self, "ended_at") == StoreWorld.at(4))
    }

    @Test func aSubscriptionThatMovesToAnotherPlanSwitchesOffTheEntitlementItLeft() throws {
        let world = try Self.world.get()
        let db = try world.connect()
        let original = originalID()
        let buy = try world.apple("SUBSCRIBED", subtype: "INITIAL_BUY", original: original, transaction: original, signedDay: 0, expiresDay: 30)
        let first = try ProjectionWriter(database: db).project(buy, trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(0.5)))
        // The product now maps to another plan (a plan change as the projection sees it).
        let yearly = try #require(try db.query("""
            INSERT INTO plan (code, name, interval_unit, billing_period) VALUES ($1, 'Yearly', 'YEARLY', 'P1Y') RETURNING id::text AS id
            """, ["YEARLY_\(original)"]).first).decode(String.self, "id")
        try db.execute("UPDATE store_product_mapping SET plan_id = $1::uuid WHERE product_id = $2", [yearly, StoreWorld.product])
        defer { _ = try? db.execute("UPDATE store_product_mapping SET plan_id = $1::uuid WHERE product_id = $2", [world.planID, StoreWorld.product]) }
        let renewal = try world.apple("DID_RENEW", original: original, transaction: "\(original)1", signedDay: 30, expiresDay: 395)
        _ = try ProjectionWriter(database: db).project(renewal, trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(30)))
        let rows = try db.query("""
            SELECT plan_id::text AS plan, is_active FROM entitlement WHERE source_subscription_id = $1::uuid ORDER BY plan_id = $2::uuid
            """, [first.subscriptionId, yearly]).rows.map { "\(try $0.decode(String.self, "plan") == yearly ? "new" : "old"):\(try $0.decode(Bool.self, "is_active"))" }
        #expect(rows == ["old:false", "new:true"])
        let charge = try #require(try db.query("""
            SELECT billing_period, plan_id::text AS plan FROM billing_transaction WHERE transaction_key = $1
            """, ["APPLE:\(original):\(original)1"]).first)
        #expect(try charge.decode(String.self, "billing_period") == "P1Y")
        #expect(try charge.decode(String.self, "plan") == yearly)
        // Two intervals: the old plan's ends by the change, the new plan's runs to its period end.
        let intervals = try db.query("""
            SELECT plan_id::text AS plan, LEAST(valid_until, COALESCE(ended_at, valid_until)) AS until FROM entitlement_interval
            WHERE subscription_id = $1::uuid ORDER BY valid_from
            """, [first.subscriptionId]).rows.map { "\(try $0.decode(String.self, "plan") == yearly ? "new" : "old")<=\(try $0.decode(Date.self, "until"))" }
        #expect(intervals == ["old<=\(StoreWorld.at(30))", "new<=\(StoreWorld.at(395))"])
    }
}

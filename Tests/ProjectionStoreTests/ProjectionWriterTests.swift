import BillingCore
import Foundation
import Postgres
import ProjectionStore
import Testing

/// The transactional writer on the real PostgreSQL: idempotent, atomic, serialised, drift-recording.
@Suite(.serialized) struct ProjectionWriterTests {
    static let world: Result<StoreWorld, any Error> = Result { try StoreWorld.make("test_projection_writer") }

    private func fingerprint(_ db: PostgresConnection) throws -> [String] {
        var lines: [String] = []
        for table in ["subscription", "apple_subscription_identity", "billing_transaction", "entitlement", "subscription_price_change", "drift_event"] {
            lines += try db.query("SELECT t::text AS r FROM \(table) t ORDER BY t::text").rows.map { try $0.decode(String.self, "r") }
        }
        return lines
    }

    private func originalID() -> String { "20000\(Int.random(in: 10_000_000...99_999_999))" }

    @Test func initialBuyCreatesTheProjectionAndReplayingItChangesNothing() throws {
        let world = try Self.world.get()
        let db = try world.connect()
        let original = originalID()
        let buy = try world.apple("SUBSCRIBED", subtype: "INITIAL_BUY", original: original, transaction: original, signedDay: 0, expiresDay: 30)
        let trigger = ProjectionTrigger(source: .requery, now: StoreWorld.at(0.1))
        let first = try ProjectionWriter(database: db).project(buy, trigger: ProjectionTrigger(source: .webhook(inboundEventId: UUID().uuidString), now: StoreWorld.at(0.1)))
        #expect(first.created)
        #expect(first.insertedTransactions == 1)
        let row = try #require(try db.query("SELECT status, product_id, billing_account_id::text AS a FROM subscription WHERE id = $1::uuid", [first.subscriptionId]).first)
        #expect(try row.decode(String.self, "status") == "ACTIVE")
        #expect(try row.decode(String.self, "a") == world.accountID)
        let entitlement = try #require(try db.query("SELECT is_active FROM entitlement WHERE source_subscription_id = $1::uuid", [first.subscriptionId]).first)
        #expect(try entitlement.decode(Bool.self, "is_active"))
        let key = try #require(try db.query("SELECT transaction_key, amount_micros FROM billing_transaction WHERE subscription_id = $1::uuid", [first.subscriptionId]).first)
        #expect(try key.decode(String.self, "transaction_key") == "APPLE:\(original):\(original)")
        #expect(try key.decode(Int64.self, "amount_micros") == 9_990_000)

        let before = try fingerprint(db)
        let again = try ProjectionWriter(database: db).project(buy, trigger: trigger)
        #expect(!again.created)
        #expect(again.insertedTransactions == 0)
        #expect(again.drift.isEmpty, "a re-query that agrees with the database records no drift: \(again.drift)")
        #expect(try fingerprint(db) == before, "the same store state again leaves every row byte-identical")
        let third = try ProjectionWriter(database: db).project(buy, trigger: trigger)
        #expect(third.insertedTransactions == 0)
        #expect(try fingerprint(db) == before)
    }

    @Test func requeryRecordsDriftForEachDifferingFieldAndRepairsIt() throws {
        let world = try Self.world.get()
        let db = try world.connect()
        let original = originalID()
        let writer = ProjectionWriter(database: db, jobRunID: nil)
        let buy = try world.apple("SUBSCRIBED", subtype: "INITIAL_BUY", original: original, transaction: original, signedDay: 0, expiresDay: 30)
        let created = try writer.project(buy, trigger: ProjectionTrigger(source: .webhook(inboundEventId: UUID().uuidString), now: StoreWorld.at(0)))
        // The renewal notification was missed; a re-query on day 31 sees the renewed state.
        let renewedID = String(Int(original)! + 1)
        let renewed = try world.apple("DID_RENEW", original: original, transaction: renewedID, signedDay: 30, expiresDay: 60)
        let result = try writer.project(renewed, trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(31)))
        let kinds = Set(result.drift.map(\.kind))
        #expect(kinds.contains(.expiry))
        #expect(kinds.contains(.missingTransaction))
        #expect(!kinds.contains(.status), "ACTIVE both before and after")
        let recorded = try db.query("SELECT kind, store_value FROM drift_event WHERE subscription_id = $1::uuid ORDER BY id", [created.subscriptionId]).rows
        #expect(recorded.count == result.drift.count)
        #expect(try recorded.contains { try $0.decode(String.self, "kind") == "missing_transaction"
            && $0.decode(String.self, "store_value") == "APPLE:\(original):\(renewedID)" })
        let end = try #require(try db.query("SELECT current_period_end_at FROM subscription WHERE id = $1::uuid", [created.subscriptionId]).first)
        #expect(try end.decode(Date.self, "current_period_end_at") == StoreWorld.at(60))
        let repeatRun = try writer.project(renewed, trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(31)))
        #expect(repeatRun.drift.isEmpty, "the second re-query finds nothing left to repair")
    }

    @Test func anErrorMidTransactionLeavesNothingHalfWritten() throws {
        let world = try Self.world.get()
        let db = try world.connect()
        let original = originalID()
        let writer = ProjectionWriter(database: db)
        let buy = try world.apple("SUBSCRIBED", subtype: "INITIAL_BUY", original: original, transaction: original, signedDay: 0, expiresDay: 30)
        let created = try writer.project(buy, trigger: ProjectionTrigger(source: .webhook(inboundEventId: UUID().uuidString), now: StoreWorld.at(0)))
        let before = try fingerprint(db)
        let renewed = try world.apple("DID_RENEW", original: original, transaction: original + "9", signedDay: 30, expiresDay: 60)
        let trigger = ProjectionTrigger(source: .requery, now: StoreWorld.at(31))
        // The price change is written last; its lowercase currency violates a CHECK after everything else was written.
        #expect(throws: PostgresError.self) {
            try writer.apply(.apple(originalTransactionId: original), trigger: trigger) { current in
                var outcome = try Projection.project(current: current, storeState: renewed, trigger: trigger,
                                                     resolved: ResolvedReferences(tokenAccount: ResolvedAccount(id: world.accountID), plan:
                                                        ResolvedPlan(planId: world.planID, provider: .apple, productId: StoreWorld.product, intervalUnit: .monthly)))
                outcome.priceChange = BillingCore.SubscriptionPriceChange(provider: .apple, mode: .priceIncrease, state: .pending,
                                                                         currencyCode: "usd", oldAmountMicros: 9_990_000, newAmountMicros: 12_990_000)
                return outcome
            }
        }
        #expect(try fingerprint(db) == before)
        #expect(created.created)
    }

    @Test func anIdentityOfAnotherSubscriptionIsNeverMovedAndNothingIsWritten() throws {
        let world = try Self.world.get()
        let db = try world.connect()
        let writer = ProjectionWriter(database: db)
        let first = originalID(), second = originalID()
        for original in [first, second] {
            let buy = try world.apple("SUBSCRIBED", subtype: "INITIAL_BUY", original: original, transaction: original, signedDay: 0, expiresDay: 30)
            _ = try writer.project(buy, trigger: ProjectionTrigger(source: .webhook(inboundEventId: UUID().uuidString), now: StoreWorld.at(0)))
        }
        let before = try fingerprint(db)
        let renewed = try world.apple("DID_RENEW", original: second, transaction: second + "9", signedDay: 30, expiresDay: 60)
        let trigger = ProjectionTrigger(source: .requery, now: StoreWorld.at(31))
        // The second subscription's outcome claims the first one's originalTransactionId.
        let error = try #require(throws: ProjectionStoreError.self) {
            try writer.apply(.apple(originalTransactionId: second), trigger: trigger) { current in
                var outcome = try Projection.project(current: current, storeState: renewed, trigger: trigger,
                                                     resolved: ResolvedReferences(tokenAccount: ResolvedAccount(id: world.accountID), plan:
                                                        ResolvedPlan(planId: world.planID, provider: .apple, productId: StoreWorld.product, intervalUnit: .monthly)))
                outcome.subscription.apple?.originalTransactionId = first
                return outcome
            }
        }
        #expect("\(error)".contains("never moved"))
        #expect(try fingerprint(db) == before)
        #expect(!db.isInTransaction)
    }

    @Test func concurrentWritersForOneSubscriptionSerialise() throws {
        let world = try Self.world.get()
        let setup = try world.connect()
        let original = originalID()
        let buy = try world.apple("SUBSCRIBED", subtype: "INITIAL_BUY", original: original, transaction: original, signedDay: 0, expiresDay: 30)
        let created = try ProjectionWriter(database: setup).project(buy, trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(0)))
        let states = try (1...8).map { month in
            try world.apple("DID_RENEW", original: original, transaction: "\(original)\(month)", signedDay: Double(30 * month),
                            expiresDay: Double(30 * (month + 1)))
        }
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: states.count) { index in
            do {
                let db = try world.connect()
                _ = try ProjectionWriter(database: db).project(states[index], trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(300)))
            } catch {
                errors.add("\(error)")
            }
        }
        #expect(errors.all.isEmpty, "\(errors.all)")
        let count = try setup.query("SELECT count(*) AS c FROM billing_transaction WHERE subscription_id = $1::uuid", [created.subscriptionId]).first
        #expect(try count?.decode(Int64.self, "c") == 9)
        let end = try #require(try setup.query("SELECT current_period_end_at FROM subscription WHERE id = $1::uuid", [created.subscriptionId]).first)
        #expect(try end.decode(Date.self, "current_period_end_at") == StoreWorld.at(270), "the newest state wins whatever the commit order")
        let subscriptions = try setup.query("SELECT count(*) AS c FROM apple_subscription_identity WHERE original_transaction_id = $1", [original]).first
        #expect(try subscriptions?.decode(Int64.self, "c") == 1)
    }

    @Test func concurrentCreatorsOfOneNewSubscriptionMakeOneRow() throws {
        let world = try Self.world.get()
        let original = originalID()
        let buy = try world.apple("SUBSCRIBED", subtype: "INITIAL_BUY", original: original, transaction: original, signedDay: 0, expiresDay: 30)
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                _ = try ProjectionWriter(database: try world.connect()).project(buy, trigger: ProjectionTrigger(source: .requery, now: StoreWorld.at(1)))
            } catch {
                errors.add("\(error)")
            }
        }
        #expect(errors.all.isEmpty, "\(errors.all)")
        let db = try world.connect()
        let rows = try db.query("""
            SELECT count(DISTINCT s.id) AS c FROM subscription s JOIN apple_subscription_identity a ON a.subscription_id = s.id
            WHERE a.original_transaction_id = $1
            """, [original]).first
        #expect(try rows?.decode(Int64.self, "c") == 1)
        let orphans = try db.query("""
            SELECT count(*) AS c FROM subscription s WHERE provider = 'APPLE'
              AND NOT EXISTS (SELECT 1 FROM apple_subscription_identity a WHERE a.subscription_id = s.id)
              AND created_at = $1
            """, [StoreWorld.at(1)]).first
        #expect(try orphans?.decode(Int64.self, "c") == 0, "a lost creation race rolls back its subscription row")
    }
}

/// Collects errors from concurrent workers.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    func add(_ error: String) { lock.lock(); errors.append(error); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return errors }
}

import Foundation
import Postgres
import RepairJobs
import Testing
import WorldGen

/// The answers a repair job must survive without writing anything: a purchase token Google no longer serves (410)
/// and a voided purchase whose token the database never knew.
@Suite(.serialized) struct RepairEdgeCaseTests {
    @Test func ackRescueOfATokenGoogleNoLongerServesCountsItGoneAndWritesNothing() throws {
        let options = WorldOptions(seed: 103, subscriptions: 400, months: 6, appleShare: 0.1, testShare: 0)
        let harness = try RequeryHarness(name: "edge_ack_gone", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let queryable = Set(harness.world.truth.google.subscriptions.filter(\.queryable).map(\.purchaseToken))
        let tokens = try db.query("""
            SELECT s.id::text AS id, t.purchase_token FROM subscription s JOIN google_purchase_token t ON t.subscription_id = s.id AND t.is_current
            WHERE s.provider = 'GOOGLE' AND s.acknowledgement_status = 'ACKNOWLEDGED'
            """).rows.map { (try $0.decode(String.self, "id"), try $0.decode(String.self, "purchase_token")) }
        let gone = try #require(tokens.first { !queryable.contains($0.1) }, "the world holds a token Google no longer serves")
        // The database believes the long-expired purchase still awaits its acknowledgement.
        _ = try db.execute("UPDATE subscription SET acknowledgement_status = 'PENDING' WHERE id = $1::uuid", [gone.0])
        let before = try Dump.all(db)

        let (code, summary) = harness.run(AckRescue.definition(stores: harness.stores), ["--as-of", PostgresTimestamp.iso8601(options.asOf)])
        #expect(code == .succeeded, "\(summary)")
        #expect(summary.contains("\"gone\":1"), "\(summary)")
        #expect(try Dump.all(db) == before, "nothing is projected for a token the store no longer serves")
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query WHERE endpoint = 'google.subscriptions.acknowledge'") == 0)
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query WHERE outcome = 'gone'") == 1)
    }

    @Test func sweepVoidedCountsATokenTheDatabaseNeverKnewAndInsertsNothingForIt() throws {
        var options = WorldOptions(seed: 107, subscriptions: 600, months: 2, appleShare: 0.1, testShare: 0)
        options.faultShares = [.voidedPurchaseNotApplied: 0.5]
        let harness = try RequeryHarness(name: "edge_void_unknown", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let fault = try #require(harness.world.manifest.faults.first { $0.kind == .voidedPurchaseNotApplied })
        // The purchase never reached the database: its subscription, history and token rows are absent (money rows
        // do not cascade with their subscription, so they go first).
        for table in ["billing_transaction", "subscription_price_change"] {
            _ = try db.execute("DELETE FROM \(table) WHERE subscription_id = $1::uuid", [fault.subscriptionId])
        }
        _ = try db.execute("DELETE FROM subscription WHERE id = $1::uuid", [fault.subscriptionId])
        let transactionsBefore = try RepairCheck.int(db, "SELECT count(*)::int AS n FROM billing_transaction")

        let (code, summary) = harness.run(SweepVoided.definition(stores: harness.stores), ["--as-of", PostgresTimestamp.iso8601(options.asOf)])
        #expect(code == .succeeded, "\(summary)")
        #expect(summary.contains("\"unknown_token\":"), "\(summary)")
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM subscription WHERE id = $1::uuid", [fault.subscriptionId]) == 0,
                "a void never creates a subscription")
        let inserted = try RepairCheck.int(db, "SELECT count(*)::int AS n FROM billing_transaction") - transactionsBefore
        let reported = summary.range(of: #""inserted_transactions":(\d+)"#, options: .regularExpression)
            .map { Int(summary[$0].split(separator: ":")[1]) ?? -1 } ?? 0
        #expect(inserted == reported, "only the known tokens' voids were inserted: \(summary)")
    }
}

import Foundation
import GooglePlay
import Postgres
import RepairJobs
import Testing
import WorldGen

@Suite(.serialized) struct AckRescueTests {
    static let kinds: Set<ProjectionFault> = [.acknowledgementNotRecorded, .acknowledgementPendingInStore]

    @Test func rescuesEveryPendingAcknowledgementNeverAcknowledgesUnpaidAndSecondRunChangesNothing() throws {
        var options = WorldOptions(seed: 53, subscriptions: 900, months: 3, appleShare: 0.2, testShare: 0)
        options.faultShares = [.acknowledgementNotRecorded: 0.05, .acknowledgementPendingInStore: 0.9]
        let harness = try RequeryHarness(name: "repair_ack", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        let job = AckRescue.definition(stores: harness.stores)
        let faults = harness.world.manifest.faults.filter { Self.kinds.contains($0.kind) }
        let notRecorded = faults.filter { $0.kind == .acknowledgementNotRecorded }
        let pendingInStore = faults.filter { $0.kind == .acknowledgementPendingInStore }
        #expect(notRecorded.count > 10, "\(notRecorded.count)")
        #expect(!pendingInStore.isEmpty, "the world holds purchases pending at the store")
        let initial = try Dump.all(db)
        let untouched = try RepairCheck.untouched(db, world: harness.world, kinds: Self.kinds)
        let untouchedBefore = try RepairCheck.dump(db, subscriptions: untouched, excludedEvents: [])
        let client = try #require(try harness.stores(harness.environment, harness.configuration, { _ in }).google)
        // Unpaid purchases per the store truth: still PENDING, or canceled before payment.
        let pending = try db.query("""
            SELECT s.id::text AS id, t.purchase_token FROM subscription s JOIN google_purchase_token t ON t.subscription_id = s.id AND t.is_current
            WHERE s.provider = 'GOOGLE' AND s.acknowledgement_status = 'PENDING'
            """).rows.map { (try $0.decode(String.self, "id"), try $0.decode(String.self, "purchase_token")) }
        let unpaid = try pending.filter { [.pending, .pendingPurchaseCanceled].contains(try client.subscription(token: $0.1).purchase.subscriptionStateValue) }
            .map(\.0)
        #expect(!unpaid.isEmpty, "the world holds unpaid purchases")

        let (dryCode, drySummary) = harness.run(job, ["--as-of", asOf, "--dry-run"])
        #expect(dryCode == .succeeded, "\(drySummary)")
        #expect(drySummary.contains("\"would_acknowledge\":\(pendingInStore.count)"), "\(drySummary)")
        #expect(try Dump.all(db) == initial, "--dry-run writes nothing")
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query") == 0)
        for fault in pendingInStore {
            #expect(try client.subscription(token: fault.storeIdentifier).purchase.acknowledgementStateValue == .pending,
                    "--dry-run acknowledges nothing")
        }

        let (code, summary) = harness.run(job, ["--as-of", asOf])
        #expect(code == .succeeded, "\(summary)")
        #expect(summary.contains("\"acknowledged\":\(pendingInStore.count)"), "\(summary)")
        #expect(summary.contains("\"repaired\":\(notRecorded.count)"), "\(summary)")
        #expect(!summary.contains("\"failed\""), "\(summary)")
        #expect(summary.contains("\"skipped_unpaid\":\(unpaid.count)"), "\(summary)")
        for fault in faults {
            let status = try db.query("SELECT acknowledgement_status::text AS a FROM subscription WHERE id = $1::uuid", [fault.subscriptionId])
                .first?.decode(String.self, "a")
            #expect(status == "ACKNOWLEDGED", "\(fault.kind) \(fault.subscriptionId): \(status ?? "nil")")
            #expect(try client.subscription(token: fault.storeIdentifier).purchase.acknowledgementStateValue == .acknowledged,
                    "\(fault.kind): the store's truth is acknowledged")
        }
        let acknowledgedRows = try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query WHERE endpoint = 'google.subscriptions.acknowledge'")
        #expect(acknowledgedRows == pendingInStore.count, "one acknowledge call per pending paid purchase")
        let unpaidAcknowledged = try RepairCheck.int(db, """
            SELECT count(*)::int AS n FROM store_query q JOIN subscription s ON s.id = q.subscription_id
            WHERE q.endpoint = 'google.subscriptions.acknowledge' AND s.id::text = ANY ($1::text[])
            """, ["{" + unpaid.joined(separator: ",") + "}"])
        #expect(unpaidAcknowledged == 0, "an unpaid PENDING purchase is never acknowledged")
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query WHERE endpoint = 'google.subscriptionsv2.get'") >= faults.count)
        let untouchedAfter = try RepairCheck.dump(db, subscriptions: untouched, excludedEvents: [])
        let outside = RepairCheck.changedRows(untouchedBefore, untouchedAfter)
        #expect(outside.isEmpty, "changed outside the manifest: \(outside.count): \(outside.prefix(3))")
        let after = try Dump.all(db)

        let (secondCode, secondSummary) = harness.run(job, ["--as-of", asOf])
        #expect(secondCode == .succeeded, "\(secondSummary)")
        #expect(!secondSummary.contains("\"acknowledged\"") && !secondSummary.contains("\"repaired\""), "\(secondSummary)")
        #expect(try Dump.all(db) == after, "the second run changes nothing")
    }
}

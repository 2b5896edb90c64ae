import Crypto
import Foundation
import Postgres
import RepairJobs
import Testing
import WorldGen

@Suite(.serialized) struct SweepVoidedTests {
    @Test func appliesEveryVoidedPurchaseInTheWindowTouchesNothingElseAndSecondRunInsertsNothing() throws {
        var options = WorldOptions(seed: 61, subscriptions: 1_000, months: 2, appleShare: 0.1, testShare: 0)
        options.faultShares = [.voidedPurchaseNotApplied: 0.6]
        let harness = try RequeryHarness(name: "repair_voided", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        let job = SweepVoided.definition(stores: harness.stores)
        let windowStartMs = Int64((options.asOf.timeIntervalSince1970 - SweepVoided.maximumWindow) * 1_000)
        var voidedAt: [String: Int64] = [:]
        for item in harness.world.truth.google.voidedPurchases {
            guard let token = item["purchaseToken"]?.stringValue,
                  let at = item["voidedTimeMillis"]?.stringValue.flatMap({ Int64($0) }) ?? item["voidedTimeMillis"]?.int64Value else { continue }
            voidedAt[token] = max(voidedAt[token] ?? 0, at)
        }
        let faults = harness.world.manifest.faults.filter { $0.kind == .voidedPurchaseNotApplied }
        let inWindow = faults.filter { (voidedAt[$0.storeIdentifier] ?? 0) >= windowStartMs }
        #expect(inWindow.count >= 5, "\(inWindow.count) of \(faults.count) faults are within voidedpurchases.list's 30 days")
        let listable = voidedAt.values.filter { $0 >= windowStartMs }.count
        #expect(listable > inWindow.count, "the window also holds voids the world already applied")
        let refundsBefore = try RepairCheck.int(db, """
            SELECT count(*)::int AS n FROM billing_transaction WHERE subscription_id::text = ANY ($1::text[]) AND event_type IN ('REFUNDED', 'REVOKED')
            """, ["{" + inWindow.map(\.subscriptionId).joined(separator: ",") + "}"])
        #expect(refundsBefore == 0, "the faults' voids were never applied")
        let initial = try Dump.all(db)
        let untouched = try RepairCheck.untouched(db, world: harness.world, kinds: [.voidedPurchaseNotApplied])
        let untouchedBefore = try RepairCheck.dump(db, subscriptions: untouched, excludedEvents: [])

        let (dryCode, drySummary) = harness.run(job, ["--as-of", asOf, "--dry-run"])
        #expect(dryCode == .succeeded && drySummary.contains("\"would_project\":\(listable)"), "\(drySummary)")
        #expect(try Dump.all(db) == initial, "--dry-run writes nothing")
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query") == 0)

        let (code, summary) = harness.run(job, ["--as-of", asOf])
        #expect(code == .succeeded, "\(summary)")
        #expect(summary.contains("\"listed\":\(listable)") && summary.contains("\"projected\":\(listable)"), "\(summary)")
        #expect(summary.contains("2026-10-30T00:10:00"), "first run: 30 days back, 10 minutes inside the limit: \(summary)")
        #expect(!summary.contains("\"failed\""), "\(summary)")
        #expect(summary.contains("\"inserted_transactions\":\(inWindow.count)"), "one refund or chargeback row per unapplied void: \(summary)")
        for fault in inWindow {
            let refunds = try RepairCheck.int(db, """
                SELECT count(*)::int AS n FROM billing_transaction
                WHERE subscription_id = $1::uuid AND event_type IN ('REFUNDED', 'REVOKED') AND reason IS NOT NULL
                """, [fault.subscriptionId])
            #expect(refunds >= 1, "subscription \(fault.subscriptionId): no refund row")
            let active = try RepairCheck.int(db, "SELECT count(*)::int AS n FROM entitlement WHERE source_subscription_id = $1::uuid AND is_active",
                                             [fault.subscriptionId])
            #expect(active == 0, "subscription \(fault.subscriptionId): the entitlement is still on")
        }
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query WHERE endpoint = 'google.voidedpurchases.list'") >= 1)
        let untouchedAfter = try RepairCheck.dump(db, subscriptions: untouched, excludedEvents: [])
        let outside = RepairCheck.changedRows(untouchedBefore, untouchedAfter)
        #expect(outside.isEmpty, "changed outside the manifest: \(outside.count): \(outside.prefix(3))")
        let after = try Dump.all(db)

        let since = PostgresTimestamp.iso8601(options.asOf.addingTimeInterval(-SweepVoided.maximumWindow))
        let (secondCode, secondSummary) = harness.run(job, ["--as-of", asOf, "--since", since])
        #expect(secondCode == .succeeded && !secondSummary.contains("\"inserted_transactions\""), "\(secondSummary)")
        #expect(try Dump.all(db) == after, "the second run changes nothing")

        let (thirdCode, thirdSummary) = harness.run(job, ["--as-of", asOf])
        #expect(thirdCode == .succeeded && thirdSummary.contains("2026-11-28T23:00:00"), "overlap of 1 h: \(thirdSummary)")
    }
}

import BillingCore
import Foundation
import JobKit
import Postgres
import Reconciliation
import Reporting
import RepairJobs
import ReportImport
import StoreTruth
import Testing
import WorldGen

/// A late Google void after a month-end close (issue 27): Google's 30-day void window reaches only the closed month's
/// last days, so the case is staged by hand: a Google charge of those days is voided at the store (the simulator lists
/// it) after the close, and `sweep-voided` projects it. The void is dated in the closed month but recorded after the
/// close, so the closed month's snapshot and its `--basis known` reports as of the close stay byte-identical, the
/// closed period still reproduces, and the void is a prior-period adjustment of the next Google period.
@Suite(.serialized) struct LateGoogleVoidAfterCloseTests {
    @Test func aVoidOfTheClosedMonthSweptAfterTheCloseIsAnAdjustmentOfTheNext() throws {
        let options = WorldOptions(seed: 29, subscriptions: 500, months: 4, testShare: 0)
        let harness = try RequeryHarness(name: "late_void_close", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let month = LateRowsAfterCloseTests.month
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("late-void-\(getpid())")
        try? FileManager.default.removeItem(at: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try LateRowsAfterCloseTests.importReports(harness, into: scratch, asOf: asOf)

        // Month-end: the closed month's known-basis reports, then the close.
        let late = LateRowsAfterCloseTests()
        let closedReports = scratch.appendingPathComponent("closed"), rebuilt = scratch.appendingPathComponent("rebuilt")
        let buildAsOf = PostgresTimestamp.iso8601(Date())
        try late.buildReports(harness, period: month, basis: "known", asOf: buildAsOf, into: closedReports)
        let (closeCode, closeLine) = harness.run(ClosePeriod.definition(), ["--period", month, "--reports", closedReports.path, "--as-of", asOf])
        #expect(closeCode == .succeeded, "close-period: \(closeLine)")
        let closedAt = try #require(try db.query("SELECT closed_at FROM period_close WHERE period = $1", [month]).first)
            .decode(Date.self, "closed_at")
        let snapshotsBefore = try late.snapshots(db)

        // A Google charge of the closed month's last days (inside the 30-day void window), its subscription's latest.
        let windowStart = options.asOf.addingTimeInterval(-30 * 86_400)
        let charge = try #require(try db.query("""
            SELECT b.transaction_key AS key, b.order_id, t.purchase_token, b.amount_micros,
                   (extract(epoch FROM b.effective_at) * 1000)::int8 AS charged_ms,
                   (extract(epoch FROM l.ends_at) * 1000)::int8 AS lock_end_ms
            FROM billing_transaction b
            JOIN period_lock l ON l.provider = b.provider
            JOIN google_purchase_token t ON t.subscription_id = b.subscription_id AND b.transaction_key LIKE 'GOOGLE:' || t.purchase_token || ':%'
            WHERE b.provider = 'GOOGLE' AND b.event_type = ANY(\(MoneyEvents.chargesSQLArray)) AND b.amount_micros > 0 AND b.order_id IS NOT NULL
              AND b.effective_at >= $1 AND b.effective_at < l.ends_at - interval '2 hours'
              AND NOT EXISTS (SELECT 1 FROM billing_transaction r WHERE r.refunded_transaction_key = b.transaction_key)
              AND NOT EXISTS (SELECT 1 FROM billing_transaction n WHERE n.subscription_id = b.subscription_id
                              AND n.effective_at > b.effective_at AND n.event_type = ANY(\(MoneyEvents.chargesSQLArray)))
            ORDER BY b.effective_at, b.transaction_key LIMIT 1
            """, [windowStart]).first, "no Google charge in the closed month's last days")
        let key = try charge.decode(String.self, "key")
        let chargedMs = try charge.decode(Int64.self, "charged_ms")
        let voidedMs = max(chargedMs, Int64(windowStart.timeIntervalSince1970 * 1000)) + 3_600_000
        #expect(voidedMs < (try charge.decode(Int64.self, "lock_end_ms")), "the void is dated in the closed month")

        // After the close, Google voids it and the sweep projects the void.
        harness.simulator.voidGooglePurchase(.object([
            "kind": .string("androidpublisher#voidedPurchase"), "purchaseToken": .string(try charge.decode(String.self, "purchase_token")),
            "orderId": .string(try charge.decode(String.self, "order_id")), "purchaseTimeMillis": .string(String(chargedMs)),
            "voidedTimeMillis": .string(String(voidedMs)), "voidedSource": .integer(0), "voidedReason": .integer(1),
            "voidedQuantity": .integer(1),
        ]))
        let (sweepCode, sweepLine) = harness.run(SweepVoided.definition(stores: harness.stores), ["--as-of", asOf])
        #expect(sweepCode == .succeeded && sweepLine.contains("\"applied\":1"), "sweep-voided: \(sweepLine)")
        let void = try #require(try db.query("""
            SELECT b.transaction_key AS key, b.amount_micros, b.recorded_at > $2 AS after_close,
                   b.effective_at >= l.starts_at AND b.effective_at < l.ends_at AS in_closed_month
            FROM billing_transaction b JOIN period_lock l ON l.provider = b.provider
            WHERE b.refunded_transaction_key = $1
            """, [key, closedAt]).first, "the void of \(key) was not written")
        #expect(try void.decode(Bool.self, "after_close") && void.decode(Bool.self, "in_closed_month"))
        #expect(try void.decode(Int64.self, "amount_micros") == -(try charge.decode(Int64.self, "amount_micros")))
        let voidKey = try void.decode(String.self, "key")

        // The closed month is unchanged: its known-basis reports as of the month-end build, its snapshot, its reconciliation.
        try late.buildReports(harness, period: month, basis: "known", asOf: buildAsOf, into: rebuilt)
        let closedNames = try FileManager.default.contentsOfDirectory(atPath: closedReports.path).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: rebuilt.path).sorted() == closedNames)
        for name in closedNames {
            #expect(try Data(contentsOf: closedReports.appendingPathComponent(name)) == Data(contentsOf: rebuilt.appendingPathComponent(name)),
                    "\(name) of the closed month changed")
        }
        #expect(try late.snapshots(db) == snapshotsBefore)
        let google = try #require(ClosePeriod.periods(ofMonth: month).first { $0.provider == .google })
        let (rerunCode, rerunLine) = harness.run(Reconcile.definition(), LateRowsAfterCloseTests.asking(google) + [
            "--out", scratch.appendingPathComponent("rerun").path, "--as-of", asOf])
        #expect(rerunCode == .succeeded && rerunLine.contains("\"closed_periods_reproduced\":1"), "\(google): \(rerunLine)")

        // The next Google period carries the void as a prior-period adjustment of the closed month.
        let next = try #require(google.next)
        let (code, line) = harness.run(Reconcile.definition(), LateRowsAfterCloseTests.asking(next) + [
            "--out", scratch.appendingPathComponent("next").path, "--as-of", asOf])
        #expect(code == .succeeded, "\(next): \(line)")
        let adjusted = Set(try db.query("""
            SELECT i.detail || ' ' || coalesce(i.adjustment_period, '') AS item
            FROM reconciliation_item i JOIN reconciliation_run r ON r.id = i.run_id
            WHERE r.provider = $1 AND r.period = $2 AND r.superseded_by IS NULL AND i.prior_period_adjustment
            """, [next.provider.rawValue, next.label]).rows.map { try $0.decode(String.self, "item") })
        #expect(adjusted == [Redaction.transactionKey(voidKey) + " " + google.label], "\(next): adjustments \(adjusted)")
    }
}

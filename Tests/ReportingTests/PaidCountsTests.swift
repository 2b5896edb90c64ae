import Foundation
import Postgres
@testable import Reporting
import Testing

/// refunds' paid counts as a run fills them (`PaidCounts`, migrations 0056 and 0070): the run's table holds the row
/// part and, negated once, the charges of the subscriptions that do not count, and `report_run_paid_count` reads it as
/// it is; the counts equal the function's own (the row part less the excluded part) in a session that filled nothing.
@Suite(.serialized) struct PaidCountsTests {
    @Test func theRunsPaidCountsLeaveOutTheSubscriptionsThatDoNotCountOnce() throws {
        let harness = try ReportingHarness("paid_counts_excluded", subscriptions: 120, months: 4)
        let database = harness.database
        // A paying subscription found to be a sandbox purchase: its charges are the excluded part.
        let sandboxed = try database.execute("""
            UPDATE subscription SET is_sandbox = true
            WHERE id = (SELECT b.subscription_id FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
                        WHERE b.event_type IN ('PURCHASED', 'RENEWED') AND b.amount_micros > 0 AND NOT s.is_sandbox
                          AND NOT s.is_test_purchase
                        ORDER BY b.effective_at, b.transaction_key LIMIT 1)
            """)
        #expect(sandboxed == 1)
        let last = ReportMonth(containing: harness.options.asOf)
        let settings = ReportSettings(asOf: harness.options.asOf, firstMonth: last.advanced(by: -3), lastMonth: last, currency: "USD",
                                      basis: .corrected, outputFolder: harness.folder("out"), sqlFolder: harness.folder("sql"),
                                      writeCSV: true, writeXLSX: false, rawIdentifiers: true)
        let all = ReportQuery.parameters(settings)
        let counts = "SELECT COALESCE(string_agg(concat_ws(' ', month, provider, currency, paid_count), ', ' ORDER BY month, provider, currency), '') FROM report_run_paid_count($1, $2)"
        let excluded = try database.query("SELECT count(*)::text FROM report_paid_count_excluded($1, $2)", [all[0], all[4]])
            .textRows().first?.first ?? nil
        #expect(excluded != "0", "the world has charges that do not count")
        let computed = try database.query(counts, [all[0], all[4]]).textRows().first?.first ?? nil

        try database.execute("CREATE TEMP TABLE report_run_filled (LIKE public.report_run_filled)")
        try PaidCounts.prepare(database)
        _ = try PaidCounts.fill(database, settings: settings, changes: nil)
        let filled = try database.query(counts, [all[0], all[4]]).textRows().first?.first ?? nil
        #expect(filled != nil && filled == computed, "the run's counts equal the function's own: \(filled ?? "none") against \(computed ?? "none")")
    }
}

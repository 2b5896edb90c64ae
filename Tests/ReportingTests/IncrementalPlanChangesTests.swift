import Foundation
import JobKit
import Postgres
import Reporting
import Testing

/// `plan_change_mix` from stored plan changes (migration 0069; Reports/README.md, "Plan-change mix"): a night reads
/// the plan changes stored by the night before for every subscription that did not change since, and computes the
/// candidates' own. A plan change made in the as-of month after a night stored its facts moves the next night's file,
/// which equals `--full`'s (read from the whole history); so do `cohorts` (whose first charges take the same path).
@Suite(.serialized) struct IncrementalPlanChangesTests {
    @Test func aNightAfterANightComputesTheCandidatesPlanChangesAndEqualsAFullRun() throws {
        let harness = try ReportingHarness("incremental_plan_changes", seed: 41, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        func run(_ name: String, full: Bool = false) throws -> [String: Any] {
            let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name).path] + (full ? ["--full"] : []))
            #expect(code == .succeeded, "\(name): \(summary)")
            return summary
        }
        func file(_ run: String, _ report: String) throws -> String? {
            try ReportingHarness.files(harness.folder(run))[report + ".csv"].map { String(decoding: $0, as: UTF8.self) }
        }
        // Two nights: the first stores every subscription's plan changes, the second reads them (no candidate).
        _ = try run("first")
        _ = try run("second")
        let stored = try database.query("SELECT count(*)::text FROM report_stored_plan_change WHERE basis = 'corrected'")
            .textRows().first?.first ?? nil
        #expect((Int(stored ?? "") ?? 0) > 0, "the nights stored the world's plan changes")

        // A counting subscription's product changes in the as-of month, after the stored night.
        let changed = try database.execute("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                                             currency_code, country_code, product_id, billing_period, period_start_at,
                                             period_end_at, raw_payload)
            SELECT b.subscription_id, b.provider, 'PRODUCT_CHANGED', b.transaction_key || ':night-change',
                   $1::timestamptz - interval '1 hour', b.amount_micros * 2, b.currency_code, b.country_code, o.product_id,
                   b.billing_period, $1::timestamptz - interval '1 hour', $1::timestamptz + interval '1 month', '{}'::jsonb
            FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
            CROSS JOIN LATERAL (SELECT min(x.product_id) AS product_id FROM billing_transaction x
                                WHERE x.provider = b.provider AND x.product_id <> b.product_id) o
            WHERE b.event_type IN ('PURCHASED', 'RENEWED') AND b.amount_micros > 0 AND NOT b.is_test
              AND NOT s.is_test_purchase AND NOT s.is_sandbox AND o.product_id IS NOT NULL
              AND b.effective_at < $1::timestamptz - interval '1 day'
              AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = b.subscription_id AND t.is_test)
            ORDER BY b.effective_at DESC, b.transaction_key LIMIT 1
            """, [harness.asOf])
        #expect(changed == 1)
        _ = try run("night")
        _ = try run("night-full", full: true)
        for report in ["plan_change_mix", "cohorts"] {
            let (night, full) = (try file("night", report), try file("night-full", report))
            #expect(night != nil && night == full, "\(report): the night equals --full")
        }
        let (before, after) = (try file("second", "plan_change_mix"), try file("night", "plan_change_mix"))
        #expect(before != after, "the plan change moves plan_change_mix")
    }
}

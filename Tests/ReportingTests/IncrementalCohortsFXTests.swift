import Foundation
import JobKit
import Postgres
import Reporting
import Testing

/// `cohorts` stored and reused per month as cells (`ReportReuse.monthCells`), and the FX check run only on the months a
/// run computes (Reports/README.md, "Incremental runs" and "FX").
@Suite(.serialized) struct IncrementalCohortsFXTests {
    /// A purchase refunded within its closed month, then claimed by an existing account: it never contributes MRR, so
    /// no contribution, movement or state moves, but its money and its customer change (`cohorts` names a customer by
    /// its account). The history digest hashes the subscription's billing account (migration 0043), so every reusing
    /// report recomputes from that month and the files equal `--full`'s; without it, the stored `cohorts` cells of
    /// that month would be reused and differ.
    @Test func aClaimOfAPurchaseRefundedInItsMonthRecomputesCohortsFromIt() throws {
        let base = IncrementalReportsTests()
        let harness = try ReportingHarness("incremental_cohorts_claim", seed: 41, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        // An unclaimed purchase, three months before the as-of month, refunded five days later; and the account that
        // will claim it (one paying in the same provider and currency since an earlier month).
        let claimed = try #require(database.query("""
            WITH owner AS (
                SELECT s.billing_account_id AS account, s.provider, s.plan_id, b.currency_code, b.product_id
                FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
                WHERE b.event_type = 'PURCHASED' AND b.amount_micros > 0 AND s.billing_account_id IS NOT NULL
                  AND NOT s.is_test_purchase AND NOT s.is_sandbox
                  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
                  AND b.effective_at < date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '4 months'
                ORDER BY b.effective_at, b.transaction_key LIMIT 1),
            sub AS (
                INSERT INTO subscription (provider, billing_account_id, plan_id, status)
                SELECT o.provider, NULL, o.plan_id, 'REVOKED' FROM owner o RETURNING id, provider),
            month AS (SELECT date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '3 months' AS start),
            rows AS (
                INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                                                 currency_code, product_id, billing_period, period_start_at, period_end_at,
                                                 refund_kind, refunded_transaction_key, raw_payload)
                SELECT s.id, s.provider, 'PURCHASED'::billing_event_type, 'claim-test:1', m.start + interval '4 days', 9990000, o.currency_code,
                       o.product_id, 'P1M', m.start + interval '4 days', m.start + interval '1 month 4 days', NULL::refund_kind, NULL, '{}'::jsonb
                FROM sub s, month m, owner o
                UNION ALL
                SELECT s.id, s.provider, 'REFUNDED'::billing_event_type, 'claim-test:2', m.start + interval '9 days', -9990000, o.currency_code,
                       NULL, NULL, NULL, NULL, 'REFUND'::refund_kind, 'claim-test:1', '{}'::jsonb
                FROM sub s, month m, owner o
                RETURNING 1)
            SELECT s.id::text, o.account::text, to_char(m.start AT TIME ZONE 'UTC', 'YYYY-MM')
            FROM sub s, owner o, month m, (SELECT count(*) FROM rows) r
            """, [harness.asOf]).textRows().first)
        let (subscription, account, month) = (try #require(claimed[0]), try #require(claimed[1]), try #require(claimed[2]))
        let asOfMonth = try base.closeMonths(harness)
        let (first, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("first").path])
        #expect(first == .succeeded, "\(summary)")
        try base.expectIncrementalEqualsFull(harness, sql: sql, name: "before", reusedThrough: asOfMonth)

        let contributions = try harness.database.query("""
            SELECT count(*) FROM report_contribution($1::timestamptz, $1::timestamptz - interval '2 years', $1::timestamptz, 'corrected')
            WHERE subscription_id = $2::uuid
            """, [harness.asOf, subscription]).textRows().first?.first ?? nil
        #expect(contributions == "0", "the refunded purchase contributes at no snapshot")
        _ = try database.execute("UPDATE subscription SET billing_account_id = $1::uuid WHERE id = $2::uuid", [account, subscription])
        try base.expectIncrementalEqualsFull(harness, sql: sql, name: "after", reusedThrough: month)
        let before = try ReportingHarness.files(harness.folder("before-full")), after = try ReportingHarness.files(harness.folder("after-full"))
        let cohortsChanged = before["cohorts.csv"] != after["cohorts.csv"]
        let mrrSame = before["mrr_movements.csv"] == after["mrr_movements.csv"]
        #expect(cohortsChanged, "the claim in \(month) changes cohorts")
        #expect(mrrSame, "the claim moves no MRR: only the history digest's account sees it")
    }

    /// A night checks for missing FX rates only from the first month a reusing report computes; the months before it
    /// were checked when they were stored. That is sound because the month digest covers every `fx_rate` row up to the
    /// month: a rate deleted from a reused month moves the digest, the month is recomputed, and so checked, and the
    /// run fails naming it. (Were the rates not in the digest, the night would reuse the month unchecked and succeed.)
    @Test func aNightChecksTheMonthsItComputesAndAMissingRateOfAnEarlierMonthStillFails() throws {
        let base = IncrementalReportsTests()
        let harness = try ReportingHarness("incremental_fx_checked", seed: 43, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        let asOfMonth = try base.closeMonths(harness)
        let (first, firstSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("first").path])
        #expect(first == .succeeded, "\(firstSummary)")
        #expect(firstSummary["fx_checked"] == nil, "a run that computes every month checks every month")
        let summary = try base.expectIncrementalEqualsFull(harness, sql: sql, name: "night", reusedThrough: asOfMonth)
        let last = try #require((summary["period"] as? String)?.suffix(7)).description
        #expect(summary["fx_checked"] as? String == "\(asOfMonth)..\(last)", "\(summary)")

        // A rate a reported month's snapshot needs, two months before the as-of month, deleted.
        let deleted = try #require(harness.database.query("""
            DELETE FROM fx_rate f
            WHERE (f.month, f.from_currency) = (
                SELECT c.month_start, c.currency FROM (
                    SELECT DISTINCT date_trunc('month', b.effective_at AT TIME ZONE 'UTC')::date AS month_start, b.currency_code AS currency
                    FROM billing_transaction b
                    WHERE b.event_type = 'RENEWED' AND b.amount_micros > 0 AND b.currency_code <> 'USD'
                      AND date_trunc('month', b.effective_at AT TIME ZONE 'UTC') = date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') - interval '2 months'
                ) c JOIN fx_rate r ON r.month = c.month_start AND r.from_currency = c.currency AND r.to_currency = 'USD'
                ORDER BY c.currency LIMIT 1)
              AND f.to_currency = 'USD'
            RETURNING to_char(f.month, 'YYYY-MM') || ' ' || f.from_currency
            """, [harness.asOf]).textRows().first?.first ?? nil)
        let (code, failed) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("missing").path])
        #expect(code != .succeeded, "a night with \(deleted)'s rate deleted fails")
        let message = "\(failed)"
        #expect(message.contains(deleted), "the failure names \(deleted): \(message)")
    }
}

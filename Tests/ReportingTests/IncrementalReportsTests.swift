import Foundation
import JobKit
import Postgres
import Reporting
import Testing

/// Incremental `build-reports` (Reports/README.md, "Incremental runs"): a run that reuses stored complete months
/// writes files byte-identical to `--full` on the same database, before and after a late row (recorded after its
/// month's close, effective inside it) changes a closed month; and it did reuse them.
@Suite(.serialized) struct IncrementalReportsTests {
    /// The reports that store and reuse their complete months (their catalogue entry declares `reuse`).
    static let reusing = ReportCatalogue.standard.filter { $0.reuse != nil }.map(\.name)

    @Test func reusedMonthsAreByteIdenticalToAFullRunBeforeAndAfterALateRow() throws {
        let harness = try ReportingHarness("incremental", seed: 23, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        let asOfMonth = try closeMonths(harness)

        // Stores every complete month, then reuses them all.
        let (first, firstSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("first").path])
        #expect(first == .succeeded, "\(firstSummary)")
        #expect(firstSummary["reused_mrr"] == nil, "nothing is stored before the first run")
        let stored = try database.query("SELECT count(*) FROM report_stored_month WHERE report = 'mrr'").textRows().first?.first ?? nil
        #expect(stored == "23", "the 23 complete months of the 24 reported are stored")
        try expectIncrementalEqualsFull(harness, sql: sql, name: "before", reusedThrough: asOfMonth)

        // A late row: a charge's subscription expires a day after it, in a closed month, recorded now (after the close).
        let late = try #require(database.query("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, raw_payload)
            SELECT b.subscription_id, b.provider, 'EXPIRED', b.transaction_key || ':late', b.effective_at + interval '1 day', '{}'::jsonb
            FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
            WHERE b.event_type = 'RENEWED' AND b.amount_micros > 0 AND NOT b.is_test AND NOT s.is_test_purchase AND NOT s.is_sandbox
              AND b.effective_at < date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '40 days'
              AND b.period_end_at > b.effective_at + interval '20 days'
              AND date_trunc('month', b.effective_at) = date_trunc('month', b.effective_at + interval '1 day')
            ORDER BY b.effective_at DESC, b.transaction_key LIMIT 1
            RETURNING to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM')
            """, [harness.asOf]).textRows().first?.first ?? nil)
        try expectIncrementalEqualsFull(harness, sql: sql, name: "after", reusedThrough: late)
        // The late row changed a stored month: the run without reuse would have written the old numbers.
        let before = try ReportingHarness.files(harness.folder("before-full"))["mrr.csv"]
        let after = try ReportingHarness.files(harness.folder("after-full"))["mrr.csv"]
        let changed = before != after
        #expect(changed, "the late row in \(late) changes mrr")

        // A corrected FX rate of an earlier month: that month and the later ones are recomputed.
        let corrected = try #require(database.query("""
            UPDATE fx_rate SET rate = rate * 1.01
            WHERE (month, from_currency, to_currency) = (SELECT month, from_currency, to_currency FROM fx_rate
                                                         WHERE from_currency <> to_currency AND month < $1::date
                                                         ORDER BY month DESC, from_currency LIMIT 1)
            RETURNING to_char(month, 'YYYY-MM')
            """, [late + "-01"]).textRows().first?.first ?? nil)
        try expectIncrementalEqualsFull(harness, sql: sql, name: "rate", reusedThrough: corrected)

        // A late auto-renew switch (CANCELED) in a closed month: the subscriber's state at that month's end turns from
        // paying to cancelled but paid through, its MRR does not change. The month digest covers the states (0030; 0027's
        // did not see them, and subscribers reused its stale months), so the stored reports recompute from that month.
        let cancelled = try #require(database.query("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, raw_payload)
            SELECT b.subscription_id, b.provider, 'CANCELED', b.transaction_key || ':cancel', b.effective_at + interval '1 day', '{}'::jsonb
            FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
            WHERE b.event_type = 'RENEWED' AND b.amount_micros > 0 AND NOT b.is_test AND NOT s.is_test_purchase AND NOT s.is_sandbox
              AND b.effective_at < date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '40 days'
              AND b.period_end_at > date_trunc('month', b.effective_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 month'
              AND date_trunc('month', b.effective_at) = date_trunc('month', b.effective_at + interval '1 day')
              AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = b.subscription_id
                                AND (t.is_test OR (t.effective_at > b.effective_at
                                     AND t.effective_at < date_trunc('month', b.effective_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 month')))
            ORDER BY b.effective_at DESC, b.transaction_key LIMIT 1
            RETURNING to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM')
            """, [harness.asOf]).textRows().first?.first ?? nil)
        try expectIncrementalEqualsFull(harness, sql: sql, name: "cancelled", reusedThrough: cancelled)
        let statesBefore = try ReportingHarness.files(harness.folder("rate-full"))["subscribers.csv"]
        let statesAfter = try ReportingHarness.files(harness.folder("cancelled-full"))["subscribers.csv"]
        let statesChanged = statesBefore != statesAfter
        #expect(statesChanged, "the late CANCELED row in \(cancelled) changes subscribers")

        // A report whose SQL changed reuses nothing; the others still reuse their months.
        try (String(contentsOf: sql.appendingPathComponent("mrr.sql"), encoding: .utf8) + "\n-- edited\n")
            .write(to: sql.appendingPathComponent("mrr.sql"), atomically: true, encoding: .utf8)
        let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("edited").path])
        #expect(code == .succeeded, "\(summary)")
        #expect(summary["reused_mrr"] == nil && summary["reused_mrr_movements"] != nil, "\(summary)")
    }

    /// A late chargeback, effective in a closed month after its subscription had expired: `kpis` counts it in that
    /// month (`chargebacks_count`) while no contribution and no subscriber state changes, so only the history part of
    /// the month digest (migration 0040) sees it. `kpis` (and every reusing report) recomputes from that month, and
    /// the files equal `--full`'s; without that part, the stored `kpis` month would be reused and differ.
    @Test func aLateChargebackInAClosedMonthRecomputesKPIsFromIt() throws {
        let (harness, sql) = try storedAndReused("incremental_kpis", seed: 29)

        let late = try #require(harness.database.query("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                                             currency_code, refund_kind, refunded_transaction_key, raw_payload)
            SELECT e.subscription_id, e.provider, 'REFUNDED', c.transaction_key || ':chargeback', e.effective_at + interval '1 day',
                   -c.amount_micros, c.currency_code, 'CHARGEBACK', c.transaction_key, '{}'::jsonb
            FROM billing_transaction e JOIN subscription s ON s.id = e.subscription_id
            CROSS JOIN LATERAL (SELECT b.transaction_key, b.amount_micros, b.currency_code FROM billing_transaction b
                                WHERE b.subscription_id = e.subscription_id AND b.event_type = 'RENEWED' AND b.amount_micros > 0
                                  AND b.effective_at < e.effective_at
                                ORDER BY b.effective_at DESC LIMIT 1) c
            WHERE e.event_type = 'EXPIRED' AND NOT s.is_test_purchase AND NOT s.is_sandbox
              AND e.effective_at < date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '40 days'
              AND date_trunc('month', e.effective_at) = date_trunc('month', e.effective_at + interval '1 day')
              AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = e.subscription_id
                                AND (t.is_test OR t.effective_at > e.effective_at OR t.event_type = 'REFUNDED'))
            ORDER BY e.effective_at DESC, e.transaction_key LIMIT 1
            RETURNING to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM')
            """, [harness.asOf]).textRows().first?.first ?? nil)
        try expectIncrementalEqualsFull(harness, sql: sql, name: "after", reusedThrough: late)
        let before = try ReportingHarness.files(harness.folder("before-full")), after = try ReportingHarness.files(harness.folder("after-full"))
        let kpisChanged = before["kpis.csv"] != after["kpis.csv"]
        let mrrSame = before["mrr.csv"] == after["mrr.csv"] && before["mrr_movements.csv"] == after["mrr_movements.csv"]
        let statesSame = before["subscribers.csv"] == after["subscribers.csv"]
        #expect(kpisChanged, "the late chargeback in \(late) changes kpis")
        #expect(mrrSame && statesSame, "the late chargeback moves no contribution or state: only the history digest sees it")
    }

    /// A late plan change (a `PRODUCT_CHANGED` charge to another product of its provider) in a closed month:
    /// `plan_change_mix` counts it in that month; it recomputes from there and the files equal `--full`'s.
    @Test func aLatePlanChangeInAClosedMonthRecomputesPlanChangeMixFromIt() throws {
        let (harness, sql) = try storedAndReused("incremental_plan_change", seed: 31)

        let late = try #require(harness.database.query("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                                             currency_code, country_code, product_id, billing_period, period_start_at,
                                             period_end_at, raw_payload)
            SELECT b.subscription_id, b.provider, 'PRODUCT_CHANGED', b.transaction_key || ':change', b.effective_at + interval '1 day',
                   b.amount_micros * 2, b.currency_code, b.country_code, o.product_id, b.billing_period,
                   b.effective_at + interval '1 day', b.period_end_at, '{}'::jsonb
            FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
            CROSS JOIN LATERAL (SELECT min(x.product_id) AS product_id FROM billing_transaction x
                                WHERE x.provider = b.provider AND x.product_id <> b.product_id) o
            WHERE b.event_type = 'RENEWED' AND b.amount_micros > 0 AND NOT b.is_test AND NOT s.is_test_purchase AND NOT s.is_sandbox
              AND o.product_id IS NOT NULL
              AND b.effective_at < date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '40 days'
              AND b.period_end_at > b.effective_at + interval '20 days'
              AND date_trunc('month', b.effective_at) = date_trunc('month', b.effective_at + interval '1 day')
              AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = b.subscription_id AND t.is_test)
            ORDER BY b.effective_at DESC, b.transaction_key LIMIT 1
            RETURNING to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM')
            """, [harness.asOf]).textRows().first?.first ?? nil)
        try expectIncrementalEqualsFull(harness, sql: sql, name: "after", reusedThrough: late)
        let before = try ReportingHarness.files(harness.folder("before-full"))["plan_change_mix.csv"]
        let after = try ReportingHarness.files(harness.folder("after-full"))["plan_change_mix.csv"]
        let changed = before != after
        #expect(changed, "the late plan change in \(late) changes plan_change_mix")
    }

    /// The excluded part of the history digest (migration 0040): a test row, even one effective after the as-of instant
    /// (so no history row read changes), excludes its subscription from `kpis` and `plan_change_mix` in every month it
    /// has rows. `report_month_history` moves at the month of the subscription's first read row, and only there
    /// (`report_month_inputs` accumulates it into every later month); without the excluded part nothing moves.
    @Test func aLateTestRowMovesTheHistoryDigestAtTheSubscriptionsFirstMonth() throws {
        let harness = try ReportingHarness("incremental_excluded", seed: 37, subscriptions: 300, months: 6)
        let database = harness.database
        func digest() throws -> [String: String] { try harness.monthHistoryDigest() }
        let before = try digest()
        let first = try #require(database.query("""
            WITH counted AS (
                SELECT b.subscription_id, min(b.effective_at) AS first_at
                FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
                WHERE NOT s.is_test_purchase AND NOT s.is_sandbox AND b.effective_at <= $1::timestamptz
                GROUP BY b.subscription_id
                HAVING NOT bool_or(b.is_test) AND min(b.effective_at) < $1::timestamptz - interval '90 days'
                ORDER BY 2, 1 LIMIT 1),
            late AS (
                INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, is_test, raw_payload)
                SELECT c.subscription_id, s.provider, 'CANCELED', 'late-test-row', $1::timestamptz + interval '1 day', true, '{}'::jsonb
                FROM counted c JOIN subscription s ON s.id = c.subscription_id RETURNING 1)
            SELECT to_char(c.first_at AT TIME ZONE 'UTC', 'YYYY-MM') FROM counted c CROSS JOIN (SELECT count(*) FROM late) l
            """, [harness.asOf]).textRows().first?.first ?? nil)
        let after = try digest()
        #expect(Set(before.keys) == Set(after.keys))
        let moved = after.keys.filter { before[$0] != after[$0] }.sorted()
        #expect(moved == [first], "the late test row moves the month of the subscription's first row (\(first)), not \(moved)")
    }

    /// Closes every month with history before the as-of month (its rows locked; late rows may still be inserted), as
    /// the month-end close does; the as-of month (`YYYY-MM`).
    /// A 300-subscription, 6-month world with its months before the as-of month closed, a first run storing them,
    /// and a nightly run that reuses them all checked equal to `--full` (files "before…"); its harness and SQL folder.
    func storedAndReused(_ name: String, seed: UInt64) throws -> (ReportingHarness, URL) {
        let harness = try ReportingHarness(name, seed: seed, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        let asOfMonth = try closeMonths(harness)
        let (first, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("first").path])
        #expect(first == .succeeded, "\(summary)")
        try expectIncrementalEqualsFull(harness, sql: sql, name: "before", reusedThrough: asOfMonth)
        return (harness, sql)
    }

    func closeMonths(_ harness: ReportingHarness) throws -> String {
        let database = harness.database
        _ = try database.execute("""
            WITH m AS (SELECT generate_series(date_trunc('month', min(effective_at) AT TIME ZONE 'UTC'),
                                              date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') - interval '1 month',
                                              interval '1 month') AS start FROM billing_transaction),
            c AS (INSERT INTO period_close (period, closed_at, closed_by)
                  SELECT to_char(start, 'YYYY-MM'), $1::timestamptz, 'test' FROM m RETURNING id, period)
            INSERT INTO period_lock (close_id, provider, report_period, starts_at, ends_at)
            SELECT c.id, p.provider, c.period, (c.period || '-01')::timestamp AT TIME ZONE 'UTC',
                   ((c.period || '-01')::timestamp + interval '1 month') AT TIME ZONE 'UTC'
            FROM c CROSS JOIN unnest(enum_range(NULL::billing_provider)) AS p(provider)
            """, [harness.asOf])
        return try #require(database.query("SELECT to_char($1::timestamptz, 'YYYY-MM')", [harness.asOf]).textRows().first?.first ?? nil)
    }

    /// Runs `build-reports` incrementally, then with `--full`, into `<name>` and `<name>-full`; the files are
    /// byte-identical and the incremental run reused every month before `reusedThrough` (its month excluded).
    @discardableResult
    func expectIncrementalEqualsFull(_ harness: ReportingHarness, sql: URL, name: String,
                                     reusedThrough: String) throws -> [String: Any] {
        let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name).path])
        #expect(code == .succeeded, "\(summary)")
        let (full, fullSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name + "-full").path, "--full"])
        #expect(full == .succeeded, "\(fullSummary)")
        #expect(fullSummary["reused_mrr"] == nil, "--full reuses nothing")
        let incremental = try ReportingHarness.files(harness.folder(name)), recomputed = try ReportingHarness.files(harness.folder(name + "-full"))
        #expect(Set(incremental.keys) == Set(recomputed.keys))
        for file in recomputed.keys.sorted() {
            let same = incremental[file] == recomputed[file]
            #expect(same, "\(name): \(file) differs between the incremental and the full run")
        }
        let period = try #require((summary["period"] as? String)?.prefix(7)).description
        #expect(Self.reusing.contains("kpis") && Self.reusing.contains("plan_change_mix") && Self.reusing.contains("cohorts") && Self.reusing.count == 7)
        for report in Self.reusing {
            let reused = summary["reused_" + report] as? String
            let through = ReportMonth(text: reusedThrough)?.advanced(by: -1).description ?? ""
            #expect(reused == "\(period)..\(through)", "\(name): \(report) reused \(reused ?? "nothing"), expected \(period)..\(through)")
        }
        return summary
    }
}

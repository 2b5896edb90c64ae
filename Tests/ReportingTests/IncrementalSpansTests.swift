import Foundation
import JobKit
import Postgres
import Reporting
import TestSupport
import Testing

/// The stored per-subscription spans (migration 0031; Reports/README.md, "Incremental runs"): a run recomputes only
/// the spans of the subscriptions whose digest changed, reads the others back, and writes files byte-identical to
/// `--full` after each change that must invalidate stored spans. Every change is checked to matter (the full run's
/// files differ from the run before it) and to be detected (exactly its subscription recomputed), so dropping its
/// part of the digest fails the test.
@Suite(.serialized) struct IncrementalSpansTests {
    /// A change to the database and the number of subscriptions whose spans it must make the next run recompute.
    struct Change {
        let name: String
        let recomputed: Int
        let sql: String
    }

    /// Closed months' charges of counted subscriptions (not the as-of month's), as the changes below pick them.
    static let closedPaidCharge = """
        b.amount_micros > 0 AND NOT b.is_test AND NOT s.is_test_purchase AND NOT s.is_sandbox
          AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = b.subscription_id AND t.is_test)
          AND b.effective_at < date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '40 days'
        """

    static let changes: [Change] = [
        // A refund recorded late, effective in a closed month a day after a renewal: the paid span ends there.
        Change(name: "late-refund", recomputed: 1, sql: """
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, refund_kind,
                                             refunded_transaction_key, amount_micros, currency_code, raw_payload)
            SELECT b.subscription_id, b.provider, 'REFUNDED', b.transaction_key || ':late-refund', b.effective_at + interval '1 day',
                   'REFUND', b.transaction_key, -b.amount_micros, b.currency_code, '{}'::jsonb
            FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
            WHERE b.event_type = 'RENEWED' AND \(closedPaidCharge)
              AND b.period_end_at > date_trunc('month', b.effective_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 month'
            ORDER BY b.effective_at DESC, b.transaction_key LIMIT 1
            """),
        // A refund recorded late that names another subscription's charge (no store sends one; the file reads such a
        // charge by its key at run time, never from the refund's stored facts: migration 0064): it ends its own
        // subscription's paid span and is counted by that charge's month.
        Change(name: "refund-of-another-charge", recomputed: 1, sql: """
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, refund_kind,
                                             refunded_transaction_key, amount_micros, currency_code, raw_payload)
            SELECT x.subscription_id, x.provider, 'REFUNDED', x.transaction_key || ':refund-elsewhere', x.effective_at + interval '1 day',
                   'REFUND', y.transaction_key, -y.amount_micros, y.currency_code, '{}'::jsonb
            FROM (SELECT b.* FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
                  WHERE b.event_type = 'RENEWED' AND \(closedPaidCharge)
                    AND b.period_end_at > date_trunc('month', b.effective_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 month'
                  ORDER BY b.effective_at DESC, b.transaction_key LIMIT 1 OFFSET 5) x
            CROSS JOIN (SELECT b.* FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
                        WHERE b.event_type = 'RENEWED' AND \(closedPaidCharge)
                        ORDER BY b.effective_at, b.transaction_key LIMIT 1 OFFSET 17) y
            WHERE x.subscription_id <> y.subscription_id
            """),
        // That charge repaired afterwards, moved into the month before: only its own subscription is a candidate; the
        // refund above now counts in the other charge month.
        Change(name: "repaired-charge-of-another", recomputed: 1, sql: """
            UPDATE billing_transaction SET effective_at = effective_at - interval '40 days'
            WHERE transaction_key = (SELECT r.refunded_transaction_key FROM billing_transaction r
                                     WHERE r.transaction_key LIKE '%:refund-elsewhere')
              AND $1::timestamptz IS NOT NULL
            """),
        // A subscription flagged a test purchase afterwards: it counts nowhere, in every month.
        Change(name: "test-flag", recomputed: 1, sql: """
            UPDATE subscription SET is_test_purchase = true
            WHERE id = (SELECT b.subscription_id FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
                        WHERE b.event_type = 'RENEWED' AND \(closedPaidCharge)
                        ORDER BY b.effective_at, b.transaction_key LIMIT 1 OFFSET 3)
              AND $1::timestamptz IS NOT NULL
            """),
        // A test row recorded late for a subscription that paid in closed months: the subscription counts nowhere, in
        // every month, though the row is effective in the last one (refunds' paid counts subtract it: migration 0056).
        Change(name: "late-test-row", recomputed: 1, sql: """
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, is_test, raw_payload)
            SELECT b.subscription_id, b.provider, 'EXPIRED', b.transaction_key || ':late-test', $1::timestamptz - interval '1 hour',
                   true, '{}'::jsonb
            FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
            WHERE b.event_type = 'RENEWED' AND \(closedPaidCharge)
            ORDER BY b.effective_at, b.transaction_key LIMIT 1 OFFSET 7
            """),
        // A repair of a closed month's charge amount (the store's price, learned later): an UPDATE, logged with both
        // versions of the row (migration 0053).
        Change(name: "repaired-amount", recomputed: 1, sql: """
            UPDATE billing_transaction SET amount_micros = amount_micros * 3
            WHERE id = (SELECT b.id FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
                        WHERE b.event_type = 'RENEWED' AND \(closedPaidCharge)
                        ORDER BY b.effective_at, b.transaction_key LIMIT 1 OFFSET 11)
            """),
        // Retention's erasure of a subscription's history (a DELETE): it counts nowhere any more.
        Change(name: "erased-history", recomputed: 1, sql: """
            DELETE FROM billing_transaction
            WHERE subscription_id = (SELECT b.subscription_id FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
                                     WHERE b.event_type = 'RENEWED' AND \(closedPaidCharge)
                                     ORDER BY b.effective_at, b.transaction_key LIMIT 1 OFFSET 13)
            """),
        // A corrected FX rate of a closed month: no span changes (the month digest recomputes the months it moves).
        Change(name: "fx-correction", recomputed: 0, sql: """
            UPDATE fx_rate SET rate = rate * 1.02
            WHERE (month, from_currency, to_currency) = (SELECT month, from_currency, to_currency FROM fx_rate
                                                         WHERE from_currency <> to_currency AND month < date_trunc('month', $1::timestamptz)::date - 31
                                                         ORDER BY month DESC, from_currency LIMIT 1)
            """),
        // A purchase claimed by another account: its movements move to that account, in every month.
        Change(name: "claim-moves-account", recomputed: 1, sql: """
            UPDATE subscription SET billing_account_id = (SELECT a.id FROM billing_account a
                                                          WHERE a.id IS DISTINCT FROM subscription.billing_account_id
                                                          ORDER BY a.id LIMIT 1)
            WHERE id = (SELECT b.subscription_id FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
                        WHERE b.event_type = 'RENEWED' AND \(closedPaidCharge)
                        ORDER BY b.effective_at, b.transaction_key LIMIT 1 OFFSET 7)
              AND $1::timestamptz IS NOT NULL
            """),
        // A recovery learned late for a grace that was open at a closed month's end: the grace row is priced and
        // described by the recovering charge (twice the price), from the grace on.
        Change(name: "recovery-reprices-grace", recomputed: 1, sql: """
            WITH grace AS (
                SELECT g.*, (date_trunc('month', g.effective_at AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC' AS month_end,
                       c.amount_micros AS paid, c.billing_period AS paid_period, c.product_id AS paid_product, c.currency_code AS paid_currency
                FROM billing_transaction g JOIN subscription s ON s.id = g.subscription_id
                CROSS JOIN LATERAL (SELECT c.* FROM billing_transaction c WHERE c.subscription_id = g.subscription_id
                                      AND c.amount_micros > 0 AND c.period_end_at IS NOT NULL AND c.effective_at < g.effective_at
                                    ORDER BY c.effective_at DESC LIMIT 1) c
                WHERE g.event_type = 'ENTERED_GRACE_PERIOD' AND NOT g.is_test AND NOT s.is_test_purchase AND NOT s.is_sandbox
                  AND g.effective_at < date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '40 days'
                  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = g.subscription_id AND t.is_test)
            ),
            picked AS (
                SELECT g.* FROM grace g
                WHERE (g.expires_at IS NULL OR g.expires_at > g.month_end + interval '1 day')
                  AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = g.subscription_id
                                    AND t.effective_at > g.effective_at AND t.effective_at <= g.month_end + interval '1 day')
                ORDER BY g.effective_at DESC, g.transaction_key LIMIT 1
            )
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                                             currency_code, billing_period, product_id, period_end_at, raw_payload)
            SELECT p.subscription_id, p.provider, 'RECOVERED', p.transaction_key || ':recovered', p.month_end + interval '1 day',
                   2 * p.paid, p.paid_currency, p.paid_period, p.paid_product, p.month_end + interval '1 day' + interval '1 month',
                   '{}'::jsonb
            FROM picked p
            """),
    ]

    @Test func aRunRecomputesOnlyTheChangedSubscriptionsAndEqualsAFullRun() throws {
        let harness = try ReportingHarness("spans", seed: 29, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        let digests = try database.query("SELECT count(*) FROM report_span_input($1, 'corrected')", [harness.asOf])
            .textRows().first?.first ?? nil

        // The first run computes and stores every subscription's spans; the next one, with nothing changed, none.
        let (first, firstSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("first").path])
        #expect(first == .succeeded, "\(firstSummary)")
        #expect((firstSummary["counts"] as? [String: Int])?["spans_recomputed"] == Int(digests ?? ""), "\(firstSummary)")
        try expectIncrementalEqualsFull(harness, sql: sql, name: "unchanged", recomputed: 0)

        var previous = "unchanged"
        for change in Self.changes {
            let changed = try database.execute(change.sql, [harness.asOf])
            #expect(changed >= 1, "\(change.name): the change found its rows")
            try expectIncrementalEqualsFull(harness, sql: sql, name: change.name, recomputed: change.recomputed)
            // The change mattered: without detecting it, the run would have written the previous numbers.
            let before = try ReportingHarness.files(harness.folder(previous + "-full"))
            let after = try ReportingHarness.files(harness.folder(change.name + "-full"))
            let moved = ["mrr.csv", "mrr_bridge.csv", "mrr_movements.csv", "subscribers.csv", "refunds.csv"].filter { before[$0] != after[$0] }
            #expect(!moved.isEmpty, "\(change.name) changes the MRR, subscriber or refund reports")
            previous = change.name
        }
    }

    /// A `--full` run that replaces the basis's stored spans whole (here: the store was written by other span
    /// functions) does it with TRUNCATE (migration 0037), which is not MVCC-safe: a run whose snapshot is older and that
    /// locks the stores (as `StoredSpans.fill` does first) after the TRUNCATE committed sees the digests and the spans
    /// both empty, so it recomputes every span; never digests without their spans.
    @Test func aSnapshotOlderThanAFullRunsReplacementSeesDigestsAndSpansBothEmpty() throws {
        let harness = try ReportingHarness("spans_overlap", seed: 31, subscriptions: 120, months: 4)
        let sql = try harness.sqlFolder("sql")
        let (first, firstSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("first").path])
        #expect(first == .succeeded, "\(firstSummary)")
        let counts = """
            SELECT (SELECT count(*) FROM report_stored_span_input WHERE basis = 'corrected') > 0,
                   (SELECT count(*) FROM report_stored_span WHERE basis = 'corrected') > 0
            """
        #expect(try harness.database.query(counts).textRows().first ?? [] == ["t", "t"], "the first run stored spans")
        let reader = try PostgresConnection(configuration: try TestDatabase.serverConfiguration().withDatabase(harness.databaseName))
        defer { reader.close() }
        try reader.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        _ = try reader.query("SELECT count(*) FROM subscription")  // the snapshot, no store locked
        try harness.database.execute("UPDATE report_stored_span_set SET definition = 'the span functions of an older build'")
        let (full, fullSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("full").path, "--full"])
        #expect(full == .succeeded, "\(fullSummary)")
        try reader.execute("LOCK TABLE report_stored_span_set, report_stored_span_input, report_stored_span IN ACCESS SHARE MODE")
        #expect(try reader.query(counts).textRows().first ?? [] == ["f", "f"], "the older snapshot sees both stores empty")
        try reader.execute("COMMIT")
        #expect(try harness.database.query(counts).textRows().first ?? [] == ["t", "t"], "the --full run stored spans again")
    }

    /// A `--full` run after another stores only what differs from the store (migration 0047): every span and month
    /// entry it would write again byte for byte stays as it is (the same row versions), while a subscription whose
    /// stored spans an older build computed differently (another span hash) and a month whose stored rows differ from
    /// the computed ones (another rows digest) are replaced, and only they. The files stay those of the first run.
    @Test func aFullRunStoresOnlyWhatDiffersFromTheStore() throws {
        let harness = try ReportingHarness("spans_full_keeps", seed: 37, subscriptions: 150, months: 5)
        let db = harness.database
        let sql = try harness.sqlFolder("sql")
        let (first, firstSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("first").path, "--full"])
        #expect(first == .succeeded, "\(firstSummary)")
        // What an older build stored differently: one subscription's spans (doubled, their hash another) and one
        // month's rows (a cell changed, its digest another).
        let victim = try db.query("""
            SELECT subscription_id::text FROM report_stored_span WHERE basis = 'corrected' AND twelfths > 0
            ORDER BY subscription_id LIMIT 1
            """).textRows().first?.first.flatMap { $0 } ?? ""
        try db.execute("UPDATE report_stored_span SET twelfths = twelfths * 2 WHERE basis = 'corrected' AND subscription_id = $1::uuid", [victim])
        try db.execute("UPDATE report_stored_span_input SET span_hash = span_hash + 1 WHERE basis = 'corrected' AND subscription_id = $1::uuid", [victim])
        let month = try db.query("SELECT min(month) FROM report_stored_month WHERE report = 'mrr' AND row_count > 0")
            .textRows().first?.first.flatMap { $0 } ?? ""
        try db.execute("""
            UPDATE report_stored_row SET cells = jsonb_set(cells, '{0}', '"tampered"') WHERE report = 'mrr' AND month = $1
              AND ordinal = (SELECT min(ordinal) FROM report_stored_row WHERE report = 'mrr' AND month = $1)
            """, [month])
        try db.execute("UPDATE report_stored_month SET rows_sha256 = 'an older build' WHERE report = 'mrr' AND month = $1", [month])
        let versions = """
            SELECT (SELECT string_agg(xmin::text, ',' ORDER BY subscription_id, from_at, state) FROM report_stored_span
                    WHERE basis = 'corrected' AND subscription_id <> $1::uuid),
                   (SELECT string_agg(xmin::text, ',' ORDER BY report, month) FROM report_stored_month WHERE NOT (report = 'mrr' AND month = $2)),
                   (SELECT count(*) FROM report_stored_row WHERE cells ->> 0 = 'tampered'),
                   (SELECT count(*) FROM ((SELECT * FROM report_span($3::timestamptz, 'corrected', NULL))
                                          EXCEPT ALL (SELECT subscription_id, provider, billing_account_id, state, from_at, to_at, currency,
                                                             country, product_id, plan_id, billing_period, twelfths
                                                      FROM report_stored_span WHERE basis = 'corrected')) d)
            """
        let before = try db.query(versions, [victim, month, harness.asOf]).textRows().first ?? []
        #expect(before.count == 4 && before[2] == "1" && before[3] != "0", "the store was changed: \(before)")
        let (full, fullSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("full").path, "--full"])
        #expect(full == .succeeded, "\(fullSummary)")
        let after = try db.query(versions, [victim, month, harness.asOf]).textRows().first ?? []
        #expect(after.count == 4 && after[0] == before[0] && after[1] == before[1], "the equal spans and months were left as they were")
        #expect(after.count == 4 && after[2] == "0" && after[3] == "0", "the different spans and month were replaced: \(after)")
        #expect(try ReportingHarness.files(harness.folder("first")) == ReportingHarness.files(harness.folder("full")))
        // Nothing differs now: a third run leaves everything, the replaced rows included.
        let settled = try db.query(versions, [victim, month, harness.asOf]).textRows().first ?? []
        _ = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("again").path, "--full"])
        #expect(try db.query(versions, [victim, month, harness.asOf]).textRows().first ?? [] == settled)
    }

    /// The month history's row part a night stored (of the complete months: computed from the month of its earliest
    /// change or the store's as-of month on, the months before taken from the store: migrations 0054, 0072), its
    /// failure episodes, refund facts and first charges (the changed subscriptions' computed, the others' from the
    /// store: 0055, 0064, 0065), refunds' paid counts' row part (as the month history: 0056) and price_change_churn's
    /// facts (0059) equal the whole computation's as of `asOf`.
    static func expectStoredHistoryWhole(_ harness: ReportingHarness, asOf: String, name: String) throws {
        // Each store's basis rows (`stored`, a SELECT of its columns) against the whole computation (`whole`): some
        // rows, and none on one side only.
        let stores: [(what: String, stored: String, whole: String)] = [
            ("month history", "SELECT month, row_count, hash_sum FROM report_stored_month_history WHERE basis = 'corrected'",
             // (complete months only: the as-of month's row part is never stored, migration 0072)
             """
             SELECT month, row_count, hash_sum FROM report_month_history($1::timestamptz, 'corrected')
             WHERE month < (date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC'))::date
             """),
            ("failure episodes", """
                SELECT subscription_id, failed_at, provider, country_code, entered_grace, entered_hold, close_kind, closed_at,
                       plan_id, currency, recovered_twelfths FROM report_stored_grace_episode WHERE basis = 'corrected'
                """, "SELECT * FROM report_grace_episode($1::timestamptz, 'corrected', NULL)"),
            ("refund facts", """
                SELECT subscription_id, provider, refund_kind, store_reason, micros, refund_currency, charge_currency,
                       fallback_currency, refunded_key, refund_at, charge_at, other_charge_key
                FROM report_stored_refund_fact WHERE basis = 'corrected'
                """, "SELECT * FROM report_refund_fact($1::timestamptz, 'corrected', NULL)"),
            ("first charges", """
                SELECT subscription_id, provider, account, currency, first_at, month_net FROM report_stored_first_charge WHERE basis = 'corrected'
                """, "SELECT * FROM report_first_charge($1::timestamptz, 'corrected', NULL)"),
            ("paid counts", "SELECT month, provider, currency, paid_count FROM report_stored_paid_count WHERE basis = 'corrected'",
             "SELECT * FROM report_paid_count($1::timestamptz, 'corrected', NULL)"),
        ]
        for store in stores {
            let row = try harness.database.query("""
                WITH stored AS (\(store.stored)), whole AS (\(store.whole))
                SELECT (SELECT count(*) FROM stored),
                       (SELECT count(*) FROM ((SELECT * FROM stored EXCEPT ALL SELECT * FROM whole)
                                              UNION ALL (SELECT * FROM whole EXCEPT ALL SELECT * FROM stored)) d)
                """, [asOf]).textRows().first ?? []
            #expect(row.count == 2 && row[0] != "0" && row[1] == "0", "\(name): the stored \(store.what) differ from the whole: \(row)")
        }
        // And price_change_churn's facts (0059): the changed subscriptions' computed, the others kept from the store;
        // the whole computation's notices, memberships and peer states in the memberships' own slots.
        let facts = try harness.database.query("""
            WITH stored AS (
                SELECT 'notice' AS kind, to_jsonb(n) - 'basis' - 'definition' AS fact FROM report_stored_price_change_notice n WHERE basis = 'corrected'
                UNION ALL SELECT 'member', to_jsonb(m) - 'basis' - 'definition' FROM report_stored_price_change_member m WHERE basis = 'corrected'
                UNION ALL SELECT 'peer', to_jsonb(p) - 'basis' - 'definition' FROM report_stored_price_change_peer p WHERE basis = 'corrected'),
                 whole AS (
                SELECT 'notice' AS kind, to_jsonb(n) AS fact FROM report_price_change_notice($1::timestamptz, 'corrected', NULL) n
                UNION ALL SELECT 'member', to_jsonb(m) - 'kind' - 'window_start' - 'country_code' - 'first_end_at'
                FROM report_price_change_fact($1::timestamptz, 'corrected', NULL, NULL) m WHERE m.kind = 'member'
                UNION ALL SELECT 'peer', jsonb_build_object('window_start', p.window_start, 'provider', p.provider,
                                                            'product_id', p.product_id, 'subscription_id', p.subscription_id,
                                                            'country_code', p.country_code, 'first_end_at', p.first_end_at)
                FROM report_price_change_fact($1::timestamptz, 'corrected', NULL, NULL) p WHERE p.kind = 'peer')
            SELECT (SELECT string_agg(k || ' ' || c, ', ' ORDER BY k) FROM (SELECT kind, count(*) FROM stored GROUP BY 1) x(k, c)),
                   (SELECT count(*) FROM ((SELECT * FROM stored EXCEPT ALL SELECT * FROM whole)
                                          UNION ALL (SELECT * FROM whole EXCEPT ALL SELECT * FROM stored)) d)
            """, [asOf]).textRows().first ?? []
        #expect(facts.count == 2 && (facts[0] ?? "").contains("member") && (facts[0] ?? "").contains("peer") && facts[1] == "0",
                "\(name): the stored price-change facts differ from the whole: \(facts)")
    }

    /// Runs `build-reports` reusing the store, then with `--full`, into `<name>` and `<name>-full`: the first
    /// recomputed the spans of exactly `recomputed` subscriptions and its files are byte-identical to the second's.
    func expectIncrementalEqualsFull(_ harness: ReportingHarness, sql: URL, name: String, recomputed: Int) throws {
        let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name).path])
        #expect(code == .succeeded, "\(summary)")
        let counts = summary["counts"] as? [String: Int]
        #expect(counts?["spans_recomputed"] == recomputed, "\(name): \(counts?["spans_recomputed"] ?? -1) recomputed")
        #expect((counts?["spans_reused"] ?? 0) > 0, "\(name): stored spans read back")
        try Self.expectStoredHistoryWhole(harness, asOf: harness.asOf, name: name)
        let (full, fullSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name + "-full").path, "--full"])
        #expect(full == .succeeded, "\(fullSummary)")
        #expect((fullSummary["counts"] as? [String: Int])?["spans_reused"] == 0, "--full reads no stored span")
        let incremental = try ReportingHarness.files(harness.folder(name)), recomputedFiles = try ReportingHarness.files(harness.folder(name + "-full"))
        #expect(Set(incremental.keys) == Set(recomputedFiles.keys))
        for file in recomputedFiles.keys.sorted() {
            let same = incremental[file] == recomputedFiles[file]
            #expect(same, "\(name): \(file) differs between the incremental and the full run")
        }
    }
}

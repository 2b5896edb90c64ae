import Foundation
import JobKit
import Postgres
import Reporting
import TestSupport
import Testing

/// price_change_churn from stored per-subscription facts (migration 0059; Reports/README.md, "Stored price-change
/// facts"): a night computes the notices, memberships and peer states of the changed subscriptions only and reads the
/// others' from the store; every membership when the change set moved, every peer state when a slot is new. After each
/// change below its file is byte-identical to `--full`'s, it differs from the run before (the change mattered), the
/// stores equal the whole computation, and the stored facts of the other subscriptions were left as they were where
/// the night read them back.
@Suite(.serialized) struct IncrementalPriceChangeTests {
    /// A change (SQL inserting one row whose transaction key holds `marker`) and which stores the night must only patch.
    struct Change {
        let name: String
        let marker: String
        let membersKept: Bool
        let peersKept: Bool
        let sql: String
    }

    /// A subscription no test, sandbox or test-row purchase, as the changes below pick them.
    static let counted = """
        NOT s.is_test_purchase AND NOT s.is_sandbox
          AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = s.id AND t.is_test)
        """

    static let changes: [Change] = [
        // A consent learned late for a told member that had none.
        Change(name: "late-consent", marker: "late-consent:", membersKept: true, peersKept: true, sql: """
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, raw_payload)
            SELECT m.subscription_id, s.provider, 'PRICE_CHANGE_ACCEPTED', 'late-consent:' || m.subscription_id,
                   m.start_at + interval '1 hour', '{}'::jsonb
            FROM report_stored_price_change_member m JOIN subscription s ON s.id = m.subscription_id
            WHERE m.basis = 'corrected' AND m.was_told AND NOT m.consented AND m.start_at + interval '1 hour' <= $1::timestamptz
            ORDER BY m.subscription_id LIMIT 1
            """),
        // A peer of a cohort (paying its product at the window start, in another country, no member) ends an hour after
        // the window start: the baseline's churn moves.
        Change(name: "peer-expires", marker: "peer-expires:", membersKept: true, peersKept: true, sql: """
            WITH cohort AS (
                SELECT provider, product_id, region_code, min(start_at) AS window_start FROM report_stored_price_change_member
                WHERE basis = 'corrected'
                GROUP BY provider, product_id, region_code, currency_code, old_amount_micros, new_amount_micros, mode
            ),
            pick AS (
                SELECT p.subscription_id, p.window_start FROM report_stored_price_change_peer p
                JOIN cohort c ON c.window_start = p.window_start AND c.provider = p.provider AND c.product_id = p.product_id
                                 AND p.country_code IS DISTINCT FROM c.region_code
                WHERE p.basis = 'corrected' AND p.first_end_at IS NULL AND p.window_start + interval '1 hour' <= $1::timestamptz
                  AND NOT EXISTS (SELECT 1 FROM report_stored_price_change_member m WHERE m.subscription_id = p.subscription_id)
                ORDER BY p.subscription_id LIMIT 1
            )
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, raw_payload)
            SELECT k.subscription_id, s.provider, 'EXPIRED', 'peer-expires:' || k.subscription_id,
                   k.window_start + interval '1 hour', '{}'::jsonb
            FROM pick k JOIN subscription s ON s.id = k.subscription_id
            """),
        // A renewal at a lower price, without notice (a day before the as-of instant): an untold decrease, a cohort (and
        // a slot) of its own.
        Change(name: "untold-decrease", marker: ":cheaper", membersKept: true, peersKept: false, sql: """
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                                             currency_code, country_code, product_id, plan_id, billing_period, period_start_at,
                                             period_end_at, raw_payload)
            SELECT b.subscription_id, b.provider, 'RENEWED', b.transaction_key || ':cheaper', $1::timestamptz - interval '1 day',
                   b.amount_micros - 1000000, b.currency_code, b.country_code, b.product_id, b.plan_id, b.billing_period,
                   $1::timestamptz - interval '1 day', $1::timestamptz - interval '1 day' + b.billing_period::interval, '{}'::jsonb
            FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
            WHERE b.event_type IN ('PURCHASED', 'RENEWED') AND b.amount_micros > 2000000 AND \(counted)
              AND b.effective_at < $1::timestamptz - interval '2 days' AND b.period_end_at > $1::timestamptz
              AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = b.subscription_id
                                AND t.effective_at > b.effective_at)
            ORDER BY b.subscription_id LIMIT 1
            """),
        // A notice of a price no subscription_price_change row names: an inferred change, so the change set moves.
        Change(name: "unnamed-notice", marker: ":notice", membersKept: false, peersKept: false, sql: """
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, amount_micros,
                                             currency_code, country_code, raw_payload)
            SELECT b.subscription_id, b.provider, 'PRICE_CHANGE_PENDING', b.transaction_key || ':notice',
                   $1::timestamptz - interval '2 days', b.amount_micros + 3000000, b.currency_code, b.country_code, '{}'::jsonb
            FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
            WHERE b.event_type IN ('PURCHASED', 'RENEWED') AND b.amount_micros > 0 AND b.product_id IS NOT NULL
              AND b.country_code IS NOT NULL AND \(counted)
              AND b.effective_at < $1::timestamptz - interval '3 days' AND b.period_end_at > $1::timestamptz
              AND NOT EXISTS (SELECT 1 FROM billing_transaction t WHERE t.subscription_id = b.subscription_id
                                AND t.effective_at > b.effective_at)
            ORDER BY b.subscription_id LIMIT 1
            """),
    ]

    /// The stored rows' versions of the subscriptions other than `changed`, per store.
    static let versions = """
        SELECT (SELECT string_agg(xmin::text, ',' ORDER BY subscription_id, start_at, product_id, region_code)
                FROM report_stored_price_change_member WHERE basis = 'corrected' AND subscription_id <> $1::uuid),
               (SELECT string_agg(xmin::text, ',' ORDER BY subscription_id, window_start, product_id)
                FROM report_stored_price_change_peer WHERE basis = 'corrected' AND subscription_id <> $1::uuid)
        """

    @Test func aNightComputesOnlyTheChangedSubscriptionsFactsAndEqualsAFullRun() throws {
        let harness = try ReportingHarness("price_change_facts", seed: 37, subscriptions: 400, months: 8)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        let (first, firstSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("first").path])
        #expect(first == .succeeded, "\(firstSummary)")
        var previous = "first"
        for change in Self.changes {
            #expect(try database.execute(change.sql, [harness.asOf]) == 1, "\(change.name): the change found its subscription")
            let victim = try #require(try database.query("""
                SELECT subscription_id::text FROM billing_transaction WHERE transaction_key LIKE '%' || $1 || '%'
                """, [change.marker]).textRows().first?.first ?? nil)
            let before = try database.query(Self.versions, [victim]).textRows().first ?? []
            let (night, nightSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(change.name).path])
            #expect(night == .succeeded, "\(nightSummary)")
            let after = try database.query(Self.versions, [victim]).textRows().first ?? []
            #expect(before.count == 2 && after.count == 2)
            #expect((before.first == after.first) == change.membersKept, "\(change.name): the other memberships kept: \(change.membersKept)")
            #expect((before.last == after.last) == change.peersKept, "\(change.name): the other peer states kept: \(change.peersKept)")
            try IncrementalSpansTests.expectStoredHistoryWhole(harness, asOf: harness.asOf, name: change.name)
            let (full, fullSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(change.name + "-full").path, "--full"])
            #expect(full == .succeeded, "\(fullSummary)")
            let nightFile = try ReportingHarness.files(harness.folder(change.name))["price_change_churn.csv"]
            let fullFile = try ReportingHarness.files(harness.folder(change.name + "-full"))["price_change_churn.csv"]
            let earlier = try ReportingHarness.files(harness.folder(previous))["price_change_churn.csv"]
            #expect(nightFile != nil && nightFile == fullFile, "\(change.name): the night's file equals --full's")
            #expect(fullFile != earlier, "\(change.name): the change moves price_change_churn")
            previous = change.name + "-full"
        }
    }
}

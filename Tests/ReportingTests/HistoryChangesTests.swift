import Foundation
import JobKit
import Postgres
import Reporting
import TestSupport
import Testing

/// What a night reads instead of digesting every subscription (migration 0053; Reports/README.md, "Changed since the
/// last store"): the log of the history's changes, and the candidates since a store. Every write that can move a span
/// digest is logged and nothing else is; the candidates hold every subscription whose digest an as-of move changes
/// (both bases, both directions), and a night at a later or earlier as-of instant equals `--full` there.
@Suite(.serialized) struct HistoryChangesTests {
    /// The log's rows a statement appended: subscription (empty for none) and from_at, in order.
    static func logged(_ database: PostgresConnection, _ sql: String, _ parameters: [any PostgresEncodable] = []) throws -> [[String?]] {
        let before = try database.query("SELECT COALESCE(max(xid)::text, '0') FROM report_history_change").textRows().first?.first ?? "0"
        _ = try database.execute(sql, parameters)
        return try database.query("""
            SELECT COALESCE(subscription_id::text, ''), to_char(from_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')
            FROM report_history_change WHERE xid > $1::xid8 ORDER BY 1, 2
            """, [before ?? "0"]).textRows()
    }

    @Test func everyWriteThatCanMoveADigestIsLoggedAndNothingElse() throws {
        let harness = try ReportingHarness("history_changes", seed: 43, subscriptions: 40, months: 3)
        let db = harness.database
        let row = try db.query("""
            SELECT b.id::text, b.subscription_id::text, to_char(b.effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')
            FROM billing_transaction b WHERE b.amount_micros > 0 ORDER BY b.effective_at DESC, b.id LIMIT 1
            """).textRows().first ?? []
        let (id, subscription, effective) = (row[0] ?? "", row[1] ?? "", row[2] ?? "")

        // A new row: its subscription, from its instant.
        #expect(try Self.logged(db, """
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, raw_payload)
            SELECT subscription_id, provider, 'EXPIRED', transaction_key || ':probe', effective_at + interval '2 days', '{}'::jsonb
            FROM billing_transaction WHERE id = $1::uuid
            """, [id]).count == 1)
        // An amount repaired one day earlier: both versions, from the earlier instant.
        #expect(try Self.logged(db, """
            UPDATE billing_transaction SET amount_micros = amount_micros + 1, effective_at = effective_at - interval '1 day'
            WHERE id = $1::uuid
            """, [id]).map { $0[0] } == [subscription])
        let moved = try Self.logged(db, "UPDATE billing_transaction SET effective_at = effective_at + interval '1 day' WHERE id = $1::uuid", [id])
        #expect(moved.first?[1].map { $0 < effective } == true, "from the earlier version's instant: \(moved)")
        // Retention's redaction changes only the payload, which nothing reads: nothing.
        #expect(try Self.logged(db, "UPDATE billing_transaction SET raw_payload = '{\"redacted\": true}' WHERE subscription_id = $1::uuid",
                                [subscription]).isEmpty)
        // A subscription's status (the repair jobs' frequent update): nothing; its account: the subscription, every row.
        #expect(try Self.logged(db, "UPDATE subscription SET last_verified_at = now() WHERE id = $1::uuid", [subscription]).isEmpty)
        #expect(try Self.logged(db, """
            UPDATE subscription SET billing_account_id = (SELECT a.id FROM billing_account a
                                                          WHERE a.id IS DISTINCT FROM subscription.billing_account_id ORDER BY a.id LIMIT 1)
            WHERE id = $1::uuid
            """, [subscription]) == [[subscription, nil]])
        // Deleted rows: their subscription, from the earliest.
        let erased = try Self.logged(db, "DELETE FROM billing_transaction WHERE subscription_id = $1::uuid", [subscription])
        #expect(erased.map { $0[0] } == [subscription])
        // A TRUNCATE: a row that means every subscription.
        #expect(try Self.logged(db, "TRUNCATE billing_transaction CASCADE") == [["", nil]])
    }

    /// The candidates between two as-of instants hold every subscription whose span digest differs between them, on
    /// both bases, forwards and backwards; and they are not simply every subscription.
    @Test func theCandidatesHoldEverySubscriptionWhoseDigestAnAsOfMoveChanges() throws {
        let harness = try ReportingHarness("history_changes_as_of", seed: 47, subscriptions: 200, months: 5)
        let db = harness.database
        var movedAny = false
        for basis in ["corrected", "known"] {
            for (from, to) in [("-3 days", "0 days"), ("0 days", "-10 days"), ("-40 days", "-1 day")] {
                let row = try db.query("""
                    WITH instants AS (SELECT $1::timestamptz + $3::interval AS a0, $1::timestamptz + $4::interval AS a1),
                    a AS (SELECT d.* FROM instants i, report_span_input(i.a0, $2) d),
                    b AS (SELECT d.* FROM instants i, report_span_input(i.a1, $2) d),
                    moved AS (SELECT COALESCE(a.subscription_id, b.subscription_id) AS id FROM a FULL JOIN b USING (subscription_id)
                              WHERE a.row_count IS DISTINCT FROM b.row_count OR a.hash_sum IS DISTINCT FROM b.hash_sum),
                    candidate AS (SELECT c.* FROM instants i, report_history_changed($2, i.a1, i.a0, pg_current_snapshot()) c)
                    SELECT (SELECT count(*) FROM moved),
                           (SELECT count(*) FROM moved m WHERE NOT EXISTS (SELECT 1 FROM candidate c WHERE c.subscription_id = m.id)),
                           (SELECT count(DISTINCT subscription_id) FROM candidate), (SELECT count(*) FROM subscription)
                    """, [harness.asOf, basis, from, to]).textRows().first ?? []
                let counts = row.map { Int($0 ?? "") ?? -1 }
                #expect(counts.count == 4 && counts[1] == 0, "\(basis) \(from) → \(to): digests moved outside the candidates: \(counts)")
                #expect(counts.count == 4 && counts[2] < counts[3], "\(basis) \(from) → \(to): not every subscription: \(counts)")
                movedAny = movedAny || (counts.first ?? 0) > 0
            }
        }
        #expect(movedAny, "some move changed digests")
    }

    /// The nightly case: the store written as of an instant, then a run as of a later (and one as of an earlier)
    /// instant recomputes the candidates' changed spans only, and its files equal `--full` as of that instant.
    @Test func aNightAtAnotherAsOfEqualsAFullRunThere() throws {
        let harness = try ReportingHarness("history_changes_night", seed: 53, subscriptions: 250, months: 5)
        let sql = try harness.sqlFolder("sql")
        let day = 86_400.0
        let asOf = try #require(PostgresTimestamp.parse(harness.asOf))
        let previous = PostgresTimestamp.iso8601(asOf.addingTimeInterval(-2 * day))
        let (first, firstSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("previous").path, "--as-of", previous])
        #expect(first == .succeeded, "\(firstSummary)")
        for (name, instant) in [("later", harness.asOf), ("earlier", PostgresTimestamp.iso8601(asOf.addingTimeInterval(-9 * day)))] {
            let (night, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name).path, "--as-of", instant])
            #expect(night == .succeeded, "\(summary)")
            let counts = summary["counts"] as? [String: Int]
            #expect((counts?["spans_recomputed"] ?? 0) > 0, "\(name): the move changed spans: \(counts ?? [:])")
            #expect((counts?["spans_reused"] ?? 0) > (counts?["spans_recomputed"] ?? 0), "\(name): most were read back: \(counts ?? [:])")
            try IncrementalSpansTests.expectStoredHistoryWhole(harness, asOf: instant, name: name)
            let (full, fullSummary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name + "-full").path, "--as-of", instant, "--full"])
            #expect(full == .succeeded, "\(fullSummary)")
            let nightly = try ReportingHarness.files(harness.folder(name)), recomputed = try ReportingHarness.files(harness.folder(name + "-full"))
            #expect(Set(nightly.keys) == Set(recomputed.keys))
            for file in recomputed.keys.sorted() {
                #expect(nightly[file] == recomputed[file], "\(name): \(file) differs between the night and the full run")
            }
            // Back to the previous night's store for the next instant.
            _ = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name + "-reset").path, "--as-of", previous, "--full"])
        }
    }
}

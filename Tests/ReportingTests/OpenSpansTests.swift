import Foundation
import JobKit
import Postgres
import Reporting
import TestSupport
import Testing

/// The stored spans open after the set's instant are kept apart (migration 0063; Reports/README.md, "Open spans"): after
/// every kind of run — full, a night with changes, a night a month later (the instant moves forward), a night earlier
/// (written anew) — `report_stored_span_open` holds exactly the store's spans with no end or an end after
/// `open_after`, which is the run's second snapshot from the last; a night's files equal `--full`'s; and a night's
/// placements read the open spans (one altered by hand shows in its file).
@Suite(.serialized) struct OpenSpansTests {
    static let columns = "subscription_id, provider, billing_account_id, state, from_at, to_at, currency, country, product_id, "
        + "plan_id, billing_period, twelfths"

    @Test func theOpenSpansAreTheStoresSpansOpenAfterTheInstantAndANightReadsThem() throws {
        let harness = try ReportingHarness("open_spans", seed: 63, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        let day = 86_400.0
        let asOf = try #require(PostgresTimestamp.parse(harness.asOf))
        func text(_ query: String, _ parameters: [any PostgresEncodable] = []) throws -> String? {
            try database.query(query, parameters).textRows().first?.first ?? nil
        }
        func run(_ name: String, asOf instant: String? = nil, full: Bool = false) throws -> [String: Int] {
            let arguments = ["--sql-dir", sql.path, "--out", harness.folder(name).path] + (instant.map { ["--as-of", $0] } ?? [])
            let (code, summary) = try harness.run(arguments + (full ? ["--full"] : []))
            #expect(code == .succeeded, "\(name): \(summary)")
            return summary["counts"] as? [String: Int] ?? [:]
        }
        func expectSame(_ night: String, _ full: String) throws {
            let (a, b) = (try ReportingHarness.files(harness.folder(night)), try ReportingHarness.files(harness.folder(full)))
            #expect(Set(a.keys) == Set(b.keys))
            for file in b.keys.sorted() { #expect(a[file] == b[file], "\(night): \(file) differs from \(full)") }
        }
        /// The open spans are exactly the store's spans open after the set's instant, a real part of them, and the
        /// instant is the run's second snapshot from the last (the end of the month before the as-of month).
        func expectOpenSpansKept(_ name: String, asOf instant: Date) throws {
            let openAfter = try #require(try text("SELECT open_after::text FROM report_stored_span_set WHERE basis = 'corrected'"),
                                         "\(name): the open spans are kept")
            let differing = try text("""
                WITH stored AS (SELECT \(Self.columns) FROM report_stored_span
                                WHERE basis = 'corrected' AND (to_at IS NULL OR to_at > $1::timestamptz)),
                     open AS (SELECT \(Self.columns) FROM report_stored_span_open WHERE basis = 'corrected')
                SELECT count(*) FROM ((SELECT * FROM stored EXCEPT ALL SELECT * FROM open)
                                      UNION ALL (SELECT * FROM open EXCEPT ALL SELECT * FROM stored)) d
                """, [openAfter])
            #expect(differing == "0", "\(name): the open spans differ from the store's spans open after \(openAfter)")
            let open = Int(try text("SELECT count(*) FROM report_stored_span_open WHERE basis = 'corrected'") ?? "") ?? 0
            let all = Int(try text("SELECT count(*) FROM report_stored_span WHERE basis = 'corrected'") ?? "") ?? 0
            #expect(open > 0 && open < all, "\(name): \(open) open of \(all) spans")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            let expected = try #require(calendar.date(from: calendar.dateComponents([.year, .month], from: instant)))
            let kept = try #require(PostgresTimestamp.parse(try text("SELECT $1::timestamptz", [openAfter]) ?? ""))
            #expect(abs(kept.timeIntervalSince(expected)) < 1, "\(name): open after \(kept), not just before \(expected)")
        }

        _ = try run("first", full: true)
        try expectOpenSpansKept("first", asOf: asOf)

        // A night with changes: a late expiry in a closed month and a purchase found to be a sandbox one.
        let expired = try IncrementalSnapshotPartsTests.expireLate(database, asOf: harness.asOf)
        let sandboxed = try database.execute("""
            UPDATE subscription SET is_sandbox = true WHERE id = (
                SELECT o.subscription_id FROM report_stored_span_open o JOIN subscription s ON s.id = o.subscription_id
                WHERE o.basis = 'corrected' AND o.state IS NULL AND o.to_at > $1::timestamptz AND NOT s.is_sandbox
                  AND NOT s.is_test_purchase
                ORDER BY o.subscription_id LIMIT 1)
            """, [harness.asOf])
        #expect(expired == 1 && sandboxed == 1)
        let night = try run("night")
        #expect(night["spans_recomputed"] == 2, "\(night)")
        try expectOpenSpansKept("night", asOf: asOf)
        _ = try run("night-full", full: true)
        try expectSame("night", "night-full")
        try expectOpenSpansKept("night-full", asOf: asOf)

        // A night's placements read the open spans: an open contribution span altered by hand moves its last month.
        let key = try #require(try text("""
            SELECT o.subscription_id::text FROM report_stored_span_open o
            WHERE o.basis = 'corrected' AND o.state IS NULL AND o.to_at > $1::timestamptz AND o.twelfths > 0
            ORDER BY o.subscription_id LIMIT 1
            """, [harness.asOf]))
        let alter = """
            UPDATE report_stored_span_open SET twelfths = twelfths %@ 120000000
            WHERE subscription_id = $1::uuid AND to_at > $2::timestamptz AND state IS NULL
            """
        #expect(try database.execute(String(format: alter, "+"), [key, harness.asOf]) == 1)
        _ = try run("altered")
        let mrr = "mrr.csv"
        #expect(try ReportingHarness.files(harness.folder("altered"))[mrr] != ReportingHarness.files(harness.folder("night-full"))[mrr],
                "the night read the open spans")
        #expect(try database.execute(String(format: alter, "-"), [key, harness.asOf]) == 1)
        // (the movements the altered night kept for the next are the altered span's, a hand edit no night can tell)
        _ = try database.execute("DELETE FROM report_stored_movement_set")
        _ = try run("restored")
        try expectSame("restored", "night-full")

        // A night a month later moves the instant forward (the spans that end by it leave), one earlier writes them anew;
        // each equals a full run there. The later month's rates are the last month's.
        _ = try database.execute("""
            INSERT INTO fx_rate (month, from_currency, to_currency, rate, source)
            SELECT (month + interval '1 month')::date, from_currency, to_currency, rate, source FROM fx_rate
            WHERE month = (SELECT max(month) FROM fx_rate)
            """)
        for (name, instant) in [("later", asOf.addingTimeInterval(31 * day)), ("earlier", asOf.addingTimeInterval(-40 * day))] {
            let text = PostgresTimestamp.iso8601(instant)
            _ = try run(name, asOf: text)
            try expectOpenSpansKept(name, asOf: instant)
            _ = try run(name + "-full", asOf: text, full: true)
            try expectSame(name, name + "-full")
        }
    }
}

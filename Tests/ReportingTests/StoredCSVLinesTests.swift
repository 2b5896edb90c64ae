import Crypto
import Foundation
import JobKit
import Postgres
@testable import Reporting
import Testing

/// A stored month's CSV lines (migration 0062; Reports/README.md, "Stored CSV of a month"): a run that computes a
/// complete month of a report whose file is its CSV alone (`mrr_movements`) stores its lines under the formatting
/// version and identifier mode; a night writes the reused months' lines as they are when every one has them, and
/// formats the stored rows otherwise; the files stay byte-identical to `--full`'s.
@Suite(.serialized) struct StoredCSVLinesTests {
    @Test func aNightWritesTheStoredLinesOfItsReusedMonthsAndFallsBackToTheRowsWithoutThem() throws {
        let harness = try ReportingHarness("stored_csv", seed: 62, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        let database = harness.database
        func run(_ name: String, _ options: [String] = []) throws -> [String: Int] {
            let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name).path] + options)
            #expect(code == .succeeded, "\(summary)")
            return summary["counts"] as? [String: Int] ?? [:]
        }
        func movements(_ name: String) throws -> [UInt8]? { try ReportingHarness.files(harness.folder(name))["mrr_movements.csv"] }
        func same(_ a: String, _ b: String) throws -> Bool {
            let (x, y) = (try movements(a), try movements(b))
            return x != nil && x == y
        }
        func text(_ query: String) throws -> String? { try database.query(query).textRows().first?.first ?? nil }
        let masked = ReportFormatter.csvFormat(rawIdentifiers: false), raw = ReportFormatter.csvFormat(rawIdentifiers: true)

        // A full run stores every complete month's lines, masked, beside the rows they were formatted from.
        let full = try run("full", ["--full"])
        #expect(full["rows_reused_as_csv"] == nil, "\(full)")
        let months = try text("SELECT count(*) FROM report_stored_month WHERE report = 'mrr_movements'")
        let withLines = try text("""
            SELECT count(*) FROM report_stored_csv c JOIN report_stored_month m USING (report, basis, currency, month)
            WHERE c.report = 'mrr_movements' AND c.format = '\(masked)' AND c.rows_sha256 = m.rows_sha256 AND c.row_count = m.row_count
            """)
        #expect(months == "23" && withLines == months, "every stored month of mrr_movements has its lines")
        let others = try text("SELECT count(*) FROM report_stored_csv WHERE report <> 'mrr_movements'")
        #expect(others == "0", "a report with a sheet or read whole stores no lines")

        // The night writes them: every reused row comes from the lines, and the file is the full run's.
        let night = try run("night")
        #expect((night["rows_reused_as_csv"] ?? 0) > 100 && (night["rows_reused"] ?? 0) >= (night["rows_reused_as_csv"] ?? 0), "\(night)")
        #expect(try same("night", "full"), "the night's mrr_movements.csv is the full run's")
        #expect(night["rows_mrr_movements"] == full["rows_mrr_movements"], "the replayed lines count as rows")

        // The lines are what the night writes: altered by hand (their digest left as it was), the file shows it.
        _ = try database.execute("""
            UPDATE report_stored_csv SET body = body || convert_to('altered' || chr(13) || chr(10), 'UTF8')
            WHERE report = 'mrr_movements' AND month = (SELECT min(month) FROM report_stored_csv)
            """)
        _ = try run("altered")
        #expect(!(try same("altered", "full")), "the stored lines are written as they are")
        // Lines no longer formatted from the entry's rows (another digest) are not used: the rows are formatted again.
        _ = try database.execute("""
            UPDATE report_stored_csv SET rows_sha256 = 'another' WHERE report = 'mrr_movements' AND month = (SELECT min(month) FROM report_stored_csv)
            """)
        let fallback = try run("fallback")
        #expect(fallback["rows_reused_as_csv"] == nil && (fallback["rows_reused"] ?? 0) > 100, "\(fallback)")
        #expect(try same("fallback", "full"))

        // Raw identifiers have no lines yet: the rows are formatted, raw, as a full raw run writes them; that full run
        // stores the raw lines, which the next raw night writes; the masked ones stay.
        let rawNight = try run("raw-night", ["--raw-ids"])
        #expect(rawNight["rows_reused_as_csv"] == nil, "\(rawNight)")
        _ = try run("raw-full", ["--raw-ids", "--full"])
        #expect(try same("raw-night", "raw-full"))
        #expect(!(try same("raw-full", "full")), "raw identifiers are written whole")
        let rawLines = try text("SELECT count(*) FROM report_stored_csv WHERE format = '\(raw)'")
        #expect(rawLines == months)
        let rawAgain = try run("raw-again", ["--raw-ids"])
        #expect((rawAgain["rows_reused_as_csv"] ?? 0) > 100, "\(rawAgain)")
        #expect(try same("raw-again", "raw-full"))

        // A month whose entry is replaced (a late row in a closed month moves the inputs of it and every later month)
        // loses the lines of every format formatted from other rows, and keeps those of the same rows.
        let late = try #require(database.query("""
            INSERT INTO billing_transaction (subscription_id, provider, event_type, transaction_key, effective_at, raw_payload)
            SELECT b.subscription_id, b.provider, 'EXPIRED', b.transaction_key || ':late', b.effective_at + interval '1 day', '{}'::jsonb
            FROM billing_transaction b JOIN subscription s ON s.id = b.subscription_id
            WHERE b.event_type = 'RENEWED' AND b.amount_micros > 0 AND NOT b.is_test AND NOT s.is_test_purchase AND NOT s.is_sandbox
              AND b.effective_at < $1::timestamptz - interval '90 days' AND b.period_end_at > b.effective_at + interval '20 days'
              AND date_trunc('month', b.effective_at) = date_trunc('month', b.effective_at + interval '1 day')
            ORDER BY b.effective_at DESC, b.transaction_key LIMIT 1
            RETURNING to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM')
            """, [harness.asOf]).textRows().first?.first ?? nil)
        let recomputedBefore = try text("SELECT count(*) FROM report_stored_csv WHERE format = '\(raw)' AND month >= '\(late)'")
        _ = try run("late")
        let rawAfter = try text("""
            SELECT count(*) FROM report_stored_csv c JOIN report_stored_month m USING (report, basis, currency, month)
            WHERE c.format = '\(raw)' AND m.month >= '\(late)' AND c.rows_sha256 IS DISTINCT FROM m.rows_sha256
            """)
        let rawKept = try text("SELECT count(*) FROM report_stored_csv WHERE format = '\(raw)' AND month >= '\(late)'")
        #expect(rawAfter == "0", "the recomputed months' raw lines of other rows went with them")
        #expect(rawKept != "0" && rawKept != recomputedBefore, "those of the same rows stayed: \(rawKept ?? "nil") of \(recomputedBefore ?? "nil")")
        let maskedAfter = try text("""
            SELECT count(*) FROM report_stored_csv c JOIN report_stored_month m USING (report, basis, currency, month)
            WHERE c.report = 'mrr_movements' AND c.format = '\(masked)' AND c.rows_sha256 = m.rows_sha256 AND m.month >= '\(late)'
            """)
        let recomputed = try text("SELECT count(*) FROM report_stored_month WHERE report = 'mrr_movements' AND month >= '\(late)'")
        #expect(maskedAfter == recomputed && recomputed != "0", "every recomputed month has masked lines of its rows")
        _ = try run("late-full", ["--full"])
        #expect(try same("late", "late-full"))
    }

    /// What a CSV field holds for each kind of column. A stored month's lines are replayed only under the formatting
    /// version they were written with (`ReportFormatter.csvVersion`): when this fails, formatting changed, and the
    /// version must increase (then update the digest here), or a night would write a month formatted the old way.
    @Test func theFormattingVersionNamesWhatAFieldHolds() throws {
        let columns = ["month", "provider", "billing_account_id", "currency", "mrr_micros", "net_revenue_micros",
                       "paying_count", "refund_rate", "days_to_convert", "fx_rate", "is_partial", "recorded_at", "product_id"]
        let rows: [[String?]] = [
            ["2026-11", "APPLE", "0b8a4c1e-3d2f-4a5b-9c8d-7e6f5a4b3c2d", "USD", "9990000", "-1234567", "42", "0.125000",
             "3.5", "1.0850", "t", "2026-11-29 00:00:00+00", "com.example.pro,yearly"],
            ["2026-11", "GOOGLE", nil, "JPY", "1200000000", "0", "0", "0", "0", "0.0067", "f", "2026-11-01 12:30:00.5+00", "pro \"monthly\""],
            ["2026-10", "WEB", "short", "BHD", "1234567", "-5", "1", "1.000000", "12.25", "2.65", "false", "2026-10-31 23:59:59+00", nil],
        ]
        var digests: [String] = []
        for raw in [false, true] {
            let lines = try ReportFormatter.csvLines(report: "version", columns: columns, rawIdentifiers: raw, rows: rows, firstRowNumber: 1)
            digests.append(SHA256Digest.hex(lines))
        }
        #expect(ReportFormatter.csvVersion == 1)
        #expect(digests == ["d76d1ff81c7b133812d55bae1679fa8f6ab570e426392d6e15c8e6b7543eb47c",
                            "2bf61fab62cbc94b7c7c627c507ef883fca934130d67d8afcd2330b14c5c7798"], "formatting changed: increase ReportFormatter.csvVersion, then set these digests")
    }
}

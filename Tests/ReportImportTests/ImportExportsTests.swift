import Foundation
import JobKit
import Postgres
import ReportImport
import Testing

/// `import-exports` against the real PostgreSQL: staging, idempotence, corrections, rejections, dry runs, rates.
@Suite(.serialized) struct ImportExportsTests {
    @Test func importsOneFileOfEachKind() throws {
        let harness = try ImportHarness("each_kind")
        try harness.addGood()
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        #expect(counts["files_imported"] == 9)
        for kind in ["apple_payments", "apple_subscriber", "apple_subscription", "apple_subscription_event", "apple_sales_summary",
                     "google_earnings", "google_estimated_sales"] {
            #expect(counts["\(kind)_imported"] == 1, "\(kind)")
        }
        #expect(counts["apple_financial_imported"] == 2)
        let tables = ["apple_financial_row", "apple_payments_row", "apple_subscriber_row", "apple_subscription_row",
                      "apple_subscription_event_row", "apple_sales_summary_row", "google_earnings_fact", "google_estimated_sales_row"]
        var staged: Int64 = 0
        for table in tables {
            // Google earnings are staged as facts, each folding a run of rows (migration 0033).
            let rows = try harness.scalar(table == "google_earnings_fact" ? "SELECT sum(row_count)::int8 AS n FROM \(table)"
                                                                         : "SELECT count(*) AS n FROM \(table)")
            #expect(rows > 0, "\(table)")
            staged += rows
        }
        #expect(Int64(counts["rows_loaded"] ?? -1) == staged)
        #expect(try harness.scalar("SELECT sum(row_count)::bigint AS n FROM report_file") == staged)
        // The gzip file is keyed by its canonical name and fiscal period; Apple's rates landed in fx_rate.
        #expect(try harness.scalar("""
            SELECT count(*) AS n FROM report_file WHERE report_key = '45545510_0914_CH.txt' AND period = '2014-12' AND region = 'CH'
            """) == 1)
        #expect(try harness.scalar("SELECT count(*) AS n FROM fx_rate WHERE source = 'apple_payments' AND month = '2014-09-01'") > 0)
        // The payments summary's period is the fiscal reportDate its title's month names; the title stays in the key.
        #expect(try harness.scalar("""
            SELECT count(*) AS n FROM report_file
            WHERE kind = 'applePayments' AND period = '2014-12' AND report_key = 'financial_report (September, 2014)'
            """) == 1)
        // The earnings file is kept as its bytes, named by its report_file row.
        #expect(try harness.scalar("""
            SELECT count(*) AS n FROM report_file f WHERE f.kind = 'googleEarnings'
              AND f.kept_size = (SELECT sum(length(c.bytes)) FROM report_file_content c WHERE c.sha256 = f.kept_sha256)
            """) == 1)
    }

    @Test func theSameFilesTwiceChangeNothing() throws {
        let harness = try ImportHarness("twice")
        try harness.addGood()
        #expect(try harness.run().0 == .succeeded)
        let before = try harness.digest()
        let (code, counts, _) = try harness.run()
        #expect(code == .succeeded)
        #expect(counts["files_unchanged"] == 9)
        #expect(counts["files_imported"] == nil)
        #expect(counts["rows_loaded"] == 0)
        #expect(try harness.digest() == before)
    }

    @Test func aCorrectedFileReplacesTheEarlierOne() throws {
        let harness = try ImportHarness("corrected")
        try harness.add("good/85000000_1125_ZZ.txt")
        #expect(try harness.run().0 == .succeeded)
        let oldHash = try #require(try harness.database.query("SELECT content_sha256 AS h FROM report_file").first).decode(String.self, "h")
        // A correction: one title changed (the footer's totals are unaffected).
        let path = harness.folder.appendingPathComponent("85000000_1125_ZZ.txt")
        let text = try String(contentsOf: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var fields = lines[1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        fields[12] = "Corrected title"
        let corrected = ([lines[0], Substring(fields.joined(separator: "\t"))] + lines.dropFirst(2)).joined(separator: "\n")
        try corrected.write(to: path, atomically: true, encoding: .utf8)
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        #expect(counts["apple_financial_replaced"] == 1)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file WHERE replaced_by IS NULL") == 1)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file WHERE replaced_by IS NOT NULL") == 1)
        #expect(try harness.scalar("""
            SELECT count(DISTINCT report_file_id) AS n FROM apple_financial_row
            WHERE report_file_id = (SELECT id FROM report_file WHERE replaced_by IS NULL)
            """) == 1)
        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_financial_row WHERE title = 'Corrected title'") == 1)
        let audit = try #require(try harness.database.query("""
            SELECT actor, detail->>'previous_sha256' AS old, detail->>'new_sha256' AS new FROM audit_log WHERE action = 'replace_report_file'
            """).first)
        #expect(try audit.decode(String.self, "actor") == "import-exports")
        #expect(try audit.decode(String.self, "old") == oldHash)
        #expect(try audit.decode(String.self, "new") != oldHash)
    }

    @Test func aMalformedFileIsRejectedWholeAndTheOthersImport() throws {
        let harness = try ImportHarness("malformed")
        try harness.addGood()
        #expect(try harness.run().0 == .succeeded)
        let before = try harness.digest()
        try harness.add("bad/85000000_0125_JP.txt")
        let (code, counts, line) = try harness.run()
        #expect(code == .failed)
        #expect(counts["apple_financial_rejected"] == 1)
        #expect(counts["files_unchanged"] == 9)
        #expect(line.contains("85000000_0125_JP.txt:"), "\(line)")
        #expect(line.contains("Total_Amount"), "\(line)")
        #expect(try harness.digest() == before)

        // In a fresh database the good files of the same run still import.
        let fresh = try ImportHarness("malformed_fresh")
        try fresh.addGood()
        try fresh.add("bad/85000000_0125_JP.txt")
        let (freshCode, freshCounts, _) = try fresh.run()
        #expect(freshCode == .failed)
        #expect(freshCounts["files_imported"] == 9)
        #expect(try fresh.scalar("SELECT count(*) AS n FROM report_file WHERE file_name = '85000000_0125_JP.txt'") == 0)
    }

    @Test func aDryRunWritesNothing() throws {
        let harness = try ImportHarness("dry_run")
        try harness.addGood()
        let before = try harness.digest()
        let (code, counts, line) = try harness.run(["--dry-run"])
        #expect(code == .succeeded, "\(line)")
        #expect(counts["files_imported"] == 9)
        #expect(try harness.digest() == before)
        #expect(try harness.scalar("SELECT count(*) AS n FROM job_run") == 0)
    }

    @Test func withoutReportsTheJobIsSkipped() throws {
        let harness = try ImportHarness("skipped")
        let (code, _, line) = try harness.run([], folder: false)
        #expect(code == .succeeded)
        #expect(line.contains("\"skipped\""), "\(line)")
    }

    @Test func exchangeRatesFromACSVReplaceAConflictingMonth() throws {
        let harness = try ImportHarness("fx")
        let file = harness.folder.appendingPathComponent("fx_rates.csv")
        try "date,currency,rate\n2026-01-01,EUR,1.0850000000\n2026-01-01,JPY,0.0063500000\n".write(to: file, atomically: true, encoding: .utf8)
        let (code, counts, line) = try harness.run(["--fx", file.path], folder: false)
        #expect(code == .succeeded, "\(line)")
        #expect(counts["fx_inserted"] == 2)
        #expect(try harness.scalar("SELECT count(*) AS n FROM fx_rate WHERE to_currency = 'USD' AND source = 'csv'") == 2)
        #expect(try harness.run(["--fx", file.path], folder: false).1["fx_unchanged"] == 2)
        try "date,currency,rate\n2026-01-15,EUR,1.0900000000\n".write(to: file, atomically: true, encoding: .utf8)
        let (_, again, _) = try harness.run(["--fx", file.path], folder: false)
        #expect(again["fx_replaced"] == 1)
        #expect(try harness.scalar("SELECT count(*) AS n FROM fx_rate WHERE from_currency = 'EUR' AND rate = 1.09") == 1)
        #expect(try harness.scalar("SELECT count(*) AS n FROM audit_log WHERE action = 'replace_fx_rate'") == 1)
        // A bad line rejects the whole file.
        let before = try harness.digest()
        try "date,currency,rate\n2026-02-01,EUR,1.1\n2026-02-01,eur,1.1\n".write(to: file, atomically: true, encoding: .utf8)
        let (badCode, _, badLine) = try harness.run(["--fx", file.path], folder: false)
        #expect(badCode == .failed)
        #expect(badLine.contains("fx_rates.csv:3:2"), "\(badLine)")
        #expect(try harness.digest() == before)
    }
}

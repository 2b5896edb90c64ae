import Foundation
import Postgres
import Reporting
import Testing

/// The Reconciliation sheet and `reconciliation.csv`: with no run it says so; with runs it shows the current run of
/// each provider and period in the range (not a superseded one, not one outside the range), per currency the items by
/// category, the totals whose variance the categories sum to (a currency mismatch counts its report gross in the
/// report's currency and its database gross in the database's), and prior-period adjustments apart.
@Suite(.serialized) struct ReconciliationSheetTests {
    @Test func emptyThenTheCurrentRunsByCategoryWithTotals() throws {
        let harness = try ReportingHarness("recsheet", subscriptions: 60, months: 3)
        let sql = try harness.sqlFolder("sql")
        let month = String(harness.asOf.prefix(7))
        let emptyOut = harness.folder("empty")
        let (emptyCode, emptySummary) = try harness.run(["--sql-dir", sql.path, "--out", emptyOut.path, "--period", month])
        #expect(emptyCode == .succeeded, "\(emptySummary)")
        let empty = try records(emptyOut)
        #expect(empty.count == 1 && empty.first?["note"] == "no reconciliation run for a period in this range", "\(empty)")
        let book = try XLSXReadBack(path: emptyOut.appendingPathComponent(BuildReports.workbookName).path)
        let sheet = try #require(book.sheetNames.firstIndex(of: "Reconciliation"))
        // Sheet rows from 1 (the header), columns from 0.
        let noteColumn = try #require(book.cells(sheet: sheet + 1)[1]?.first { $0.value == .text("note") }?.key)
        #expect(book.cells(sheet: sheet + 1)[2]?[noteColumn] == .text("no reconciliation run for a period in this range"))

        // Runs: a superseded and a current Google run of the month, an Apple run far outside the range.
        func run(_ provider: String, _ period: String, from: String, to: String) throws -> Int64 {
            try #require(try harness.database.query("""
                INSERT INTO reconciliation_run (provider, period, starts_at, ends_at, known_at, report_files, item_count, content_sha256)
                VALUES ($1, $2, $3::timestamptz, $4::timestamptz, $4::timestamptz, '[]', 0, repeat('0', 64)) RETURNING id
                """, [provider, period, from, to]).first).decode(Int64.self, "id")
        }
        let start = month + "-01T08:00:00Z"
        let old = try run("google", month, from: start, to: month + "-20T00:00:00Z")
        try harness.database.execute("UPDATE reconciliation_run SET superseded_by = id WHERE id = $1", [old])
        let current = try run("google", month, from: start, to: month + "-21T00:00:00Z")
        try harness.database.execute("UPDATE reconciliation_run SET superseded_by = $1 WHERE id = $2", [current, old])
        let outside = try run("apple", "2001-01", from: "2000-10-01T07:00:00Z", to: "2000-11-01T07:00:00Z")
        func item(_ runID: Int64, _ line: Int, _ category: String, _ currency: String, _ databaseCurrency: String?,
                  report: (Int64, Int64), database: (Int64, Int64), fee: Int64, adjustment: Bool = false) throws {
            try harness.database.execute("""
                INSERT INTO reconciliation_item (run_id, line, category, grain_key, side, product_id, country, currency,
                    database_currency, report_units, database_units, report_gross_micros, database_gross_micros, variance_micros,
                    store_fee_micros, tax_micros, net_micros, prior_period_adjustment, adjustment_period)
                VALUES ($1, $2, $3, 'GPA.1', 'charge', 'pro_monthly', 'US', $4, $5, $6, $7, $8::int8, $9::int8, $8::int8 - $9::int8,
                        $10::int8, 0, $8::int8 + $10::int8, $11::boolean, CASE WHEN $11::boolean THEN '2000-01' END)
                """, [runID, line, category, currency, databaseCurrency, report.0, database.0, report.1, database.1, fee, adjustment])
        }
        try item(old, 1, "duplicate", "USD", nil, report: (2, 19_980_000), database: (1, 9_990_000), fee: 0)
        try item(outside, 1, "matched", "USD", nil, report: (1, 9_990_000), database: (1, 9_990_000), fee: 0)
        try item(current, 1, "matched", "USD", nil, report: (2, 19_980_000), database: (2, 19_980_000), fee: -2_997_000)
        try item(current, 2, "currency_mismatch", "EUR", "USD", report: (1, 9_990_000), database: (1, 9_990_000), fee: -1_498_500)
        try item(current, 3, "missing_in_database", "USD", nil, report: (1, 9_990_000), database: (0, 0), fee: -1_498_500)
        try item(current, 4, "missing_in_store_report", "USD", nil, report: (0, 0), database: (1, -9_990_000), fee: 0, adjustment: true)

        let out = harness.folder("runs")
        let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path, "--period", month])
        #expect(code == .succeeded, "\(summary)")
        let rows = try records(out)
        func row(_ currency: String, _ kind: String, _ category: String) -> [String: String]? {
            rows.first { $0["currency"] == currency && $0["row_kind"] == kind && $0["category"] == category }
        }
        #expect(rows.allSatisfy { $0["provider"] == "google" && $0["period"] == month }, "only the current run in the range: \(rows)")
        #expect(row("USD", "category", "duplicate") == nil, "the superseded run is not shown")
        #expect(rows.count == 7, "\(rows.map { "\($0["currency"] ?? "") \($0["row_kind"] ?? "") \($0["category"] ?? "")" })")
        #expect(row("USD", "category", "matched")?["items_count"] == "1" && row("USD", "category", "matched")?["report_units_count"] == "2")
        #expect(row("USD", "category", "matched")?["variance_micros"] == "0")
        #expect(row("USD", "category", "currency_mismatch")?["database_gross_micros"] == "9990000")
        #expect(row("USD", "category", "currency_mismatch")?["variance_micros"] == "-9990000")
        #expect(row("EUR", "category", "currency_mismatch")?["variance_micros"] == "9990000")
        #expect(row("USD", "category", "missing_in_database")?["variance_micros"] == "9990000")
        #expect(row("USD", "total", "")?["variance_micros"] == "0")
        #expect(row("USD", "total", "")?["report_gross_micros"] == "29970000")
        #expect(row("USD", "total", "")?["net_micros"] == "25474500")
        #expect(row("EUR", "total", "")?["variance_micros"] == "9990000")
        #expect(row("USD", "prior_period_adjustment", "missing_in_store_report")?["database_gross_micros"] == "-9990000")
        #expect(row("USD", "category", "missing_in_store_report") == nil, "adjustments stay out of the period's categories")
        // Per currency the category variances sum to the total's.
        for currency in ["USD", "EUR"] {
            let sum = rows.filter { $0["currency"] == currency && $0["row_kind"] == "category" }
                .compactMap { Int64($0["variance_micros"] ?? "") }.reduce(0, +)
            #expect("\(sum)" == row(currency, "total", "")?["variance_micros"], "\(currency)")
        }
        #expect(row("USD", "total", "")?["variance"] == "0.00" && row("EUR", "total", "")?["variance"] == "9.99")
    }

    /// The rows of `reconciliation.csv` in `folder`, by column name.
    func records(_ folder: URL) throws -> [[String: String]] {
        let data = try Data(contentsOf: folder.appendingPathComponent("reconciliation.csv"))
        let csv = CSVReadBack.records(Array(data))
        let header = try #require(csv.first).map { $0 ?? "" }
        return csv.dropFirst().map { record in
            Dictionary(uniqueKeysWithValues: zip(header, record.map { $0 ?? "" }))
        }
    }
}

import Foundation
import JobKit
import Postgres
import Reporting
import Testing

/// `build-reports` end to end on a generated world: the workbook reads back equal to the CSVs with its charts, reruns
/// are byte-identical, a dry run writes nothing, identifiers are masked, a missing FX rate and a bad period fail.
@Suite(.serialized) struct BuildReportsJobTests {
    /// A stand-in for `Reports/fx_missing.sql` (the MRR report's author owns the real one): every month of the period
    /// and currency charged in it that has no rate to the reporting currency. Same contract, same parameters.
    static let fxMissingSQL = """
        WITH params AS (SELECT $1::timestamptz AS as_of, date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC') AS first_month,
                               date_trunc('month', $3::timestamptz AT TIME ZONE 'UTC') AS last_month, $4::text AS reporting, $5::text AS basis)
        SELECT DISTINCT to_char(date_trunc('month', b.effective_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS month, b.currency_code AS currency
        FROM billing_transaction b, params p
        WHERE b.currency_code IS NOT NULL AND b.currency_code <> p.reporting AND b.effective_at <= p.as_of
          AND date_trunc('month', b.effective_at AT TIME ZONE 'UTC') BETWEEN p.first_month AND p.last_month
          AND NOT EXISTS (SELECT 1 FROM fx_rate f WHERE f.month = date_trunc('month', b.effective_at AT TIME ZONE 'UTC')::date
                          AND f.from_currency = b.currency_code AND f.to_currency = p.reporting)
        ORDER BY 1, 2
        """

    @Test func theWorkbookReadsBackEqualToTheCSVsWithItsCharts() throws {
        let harness = try ReportingHarness("readback")
        let sql = try harness.sqlFolder("sql")
        let out = harness.folder("out")
        let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path])
        #expect(code == .succeeded, "\(summary)")
        let counts = try #require(summary["counts"] as? [String: Int])
        #expect(counts["reports"] == 1 && counts["charts"] == 1)

        let files = try ReportingHarness.files(out)
        #expect(Set(files.keys) == ["history_metrics.csv", "reports.xlsx"], "no temporary file is left")
        let csv = CSVReadBack.records(try #require(files["history_metrics.csv"]))
        let header = try #require(csv.first)
        #expect(Array(header.prefix(6)) == ["month", "snapshot_at", "provider", "currency", "mrr", "mrr_micros"])
        #expect(csv.count - 1 == counts["rows_history_metrics"] && csv.count > 10)

        let book = try XLSXReadBack(path: out.appendingPathComponent("reports.xlsx").path)
        #expect(book.sheetNames == ["Cover", "History metrics", "Chart data"])
        let cells = book.cells(sheet: 2)
        var compared = 0
        for (r, record) in csv.enumerated() {
            for (c, field) in record.enumerated() {
                let cell = cells[r + 1]?[c]
                switch (field, cell) {
                case (nil, nil): break
                case (let text?, .text(let value)?): #expect(text == value, "row \(r + 1) column \(header[c] ?? "")")
                case (let text?, .number(let value)?):
                    #expect(Double(text) != nil && Double(text) == Double(value), "row \(r + 1) column \(header[c] ?? ""): \(text) vs \(value)")
                default: Issue.record("row \(r + 1) column \(header[c] ?? ""): CSV \(field ?? "NULL") vs cell \(String(describing: cell))")
                }
                compared += 1
            }
        }
        #expect(compared == csv.count * header.count)
        // An amount shows the currency's minor units and keeps its exact micros beside it.
        let mrr = try #require(header.firstIndex(of: "mrr")), micros = try #require(header.firstIndex(of: "mrr_micros"))
        let currency = try #require(header.firstIndex(of: "currency"))
        for record in csv.dropFirst() {
            let places = ["JPY": 0, "KRW": 0][record[currency].flatMap { $0 } ?? ""] ?? 2
            let amount = try #require(record[mrr].flatMap { $0 }), exact = try #require(record[micros].flatMap { $0 })
            #expect(amount.split(separator: ".").dropFirst().first?.count ?? 0 == places, "\(amount) in \(record[currency] ?? "")")
            #expect(abs((Double(amount) ?? 0) - (Double(exact) ?? 0) / 1e6) <= 0.5 * pow(10, -Double(places)) + 1e-9)
        }

        // The chart: one series per provider and currency, drawn from the Chart data sheet, whose cells are the MRR
        // amounts of the report's rows for that provider and currency, month by month.
        #expect(book.charts == ["xl/charts/chart1.xml"])
        #expect(book.parts.keys.contains("xl/drawings/drawing1.xml"))
        let references = book.references("xl/charts/chart1.xml")
        #expect(!references.isEmpty && references.allSatisfy { $0.hasPrefix("'Chart data'!$") })
        let data = book.cells(sheet: 3)
        let seriesNames = (data[2] ?? [:]).sorted { $0.key < $1.key }.dropFirst().map { if case .text(let t) = $0.value { return t } else { return "" } }
        #expect(seriesNames.count * 2 == references.count)
        let months = Set(csv.dropFirst().compactMap { $0[0] ?? nil })
        for (index, name) in seriesNames.enumerated() {
            #expect(references[2 * index] == "'Chart data'!$A$3:$A$\(2 + months.count)")
            #expect(references[2 * index + 1] == "'Chart data'!$\(Character(UnicodeScalar(UInt8(66 + index))))$3:$\(Character(UnicodeScalar(UInt8(66 + index))))$\(2 + months.count)")
            for record in csv.dropFirst() where "\(record[2] ?? "") \(record[3] ?? "")" == name {
                let row = try #require(data.first { $0.key > 2 && $0.value[0] == .text(record[0] ?? "") }?.key)
                guard case .number(let value)? = data[row]?[index + 1] else { Issue.record("\(name) \(record[0] ?? ""): no number"); continue }
                #expect(Double(value) == Double(record[mrr] ?? ""), "\(name) \(record[0] ?? "")")
            }
        }

        // The cover names the period, as-of, basis and currency, the rows and the hashes of the SQL and the CSV.
        let cover = book.cells(sheet: 1).values.flatMap(\.values)
        let texts = Set(cover.compactMap { if case .text(let t) = $0 { return t } else { return nil } })
        #expect(texts.contains("corrected") && texts.contains("USD") && texts.contains(harness.asOf))
        #expect(texts.contains(sha256(try #require(files["history_metrics.csv"]))))
        #expect(texts.contains(sha256(Array(try Data(contentsOf: sql.appendingPathComponent("history_metrics.sql"))))))
        #expect(cover.contains(.number(String(csv.count - 1))))
    }

    @Test func aRerunWithTheSameInputsIsByteIdentical() throws {
        let harness = try ReportingHarness("rerun")
        let sql = try harness.sqlFolder("sql")
        #expect(try harness.run(["--sql-dir", sql.path, "--out", harness.folder("a").path]).0 == .succeeded)
        #expect(try harness.run(["--sql-dir", sql.path, "--out", harness.folder("b").path]).0 == .succeeded)
        let a = try ReportingHarness.files(harness.folder("a")), b = try ReportingHarness.files(harness.folder("b"))
        #expect(a.keys.sorted() == ["history_metrics.csv", "reports.xlsx"])
        #expect(a == b)
        // A later as-of is another document (its time and numbers), so the fixed time is the as-of's, not a constant.
        #expect(try harness.run(["--sql-dir", sql.path, "--out", harness.folder("c").path, "--as-of", "2026-11-01"]).0 == .succeeded)
        #expect(try ReportingHarness.files(harness.folder("c"))["reports.xlsx"] != a["reports.xlsx"])
    }

    @Test func aDryRunWritesNothing() throws {
        let harness = try ReportingHarness("dry")
        let sql = try harness.sqlFolder("sql")
        let out = harness.folder("out")
        let runs = try harness.database.query("SELECT count(*)::int8 AS n FROM job_run").first?.decode(Int64.self, "n")
        let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path, "--dry-run"])
        #expect(code == .succeeded)
        #expect((summary["counts"] as? [String: Int])?["reports"] == 1)
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(try harness.database.query("SELECT count(*)::int8 AS n FROM job_run").first?.decode(Int64.self, "n") == runs)
    }

    @Test func identifiersAreMaskedUnlessRawIDs() throws {
        let harness = try ReportingHarness("masking")
        let accounts = ReportDefinition(name: "accounts", sheet: "Accounts", summary: "test: accounts and their subscriptions", required: true)
        let sql = try harness.sqlFolder("sql", copying: [], extra: ["accounts.sql": """
            -- Test report: one row per subscription with its identifiers (contract parameters, unused but typed).
            WITH params AS (SELECT $1::timestamptz AS as_of, $2::timestamptz AS f, $3::timestamptz AS l, $4::text AS c, $5::text AS b)
            SELECT s.id::text AS subscription_id, s.billing_account_id::text AS billing_account_id, 'note, "quoted"' AS remark
            FROM subscription s ORDER BY s.id LIMIT 5
            """])
        let expected = try harness.database.query("SELECT id::text AS id FROM subscription ORDER BY id LIMIT 5").rows.map { try $0.decode(String.self, "id") }
        for raw in [false, true] {
            let out = harness.folder(raw ? "raw" : "masked")
            let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path] + (raw ? ["--raw-ids"] : []), catalogue: [accounts])
            #expect(code == .succeeded, "\(summary)")
            let records = CSVReadBack.records(try #require(try ReportingHarness.files(out)["accounts.csv"]))
            #expect(records.first == ["subscription_id", "billing_account_id", "remark"])
            let shown = records.dropFirst().map { $0[0] ?? "" }
            #expect(shown == (raw ? expected : expected.map { String($0.prefix(4)) + "…" + String($0.suffix(4)) }))
            #expect(records.dropFirst().allSatisfy { $0[2] == "note, \"quoted\"" })
            let book = try XLSXReadBack(path: out.appendingPathComponent("reports.xlsx").path)
            let cells = book.cells(sheet: 2)
            #expect((1...5).map { cells[$0 + 1]?[0] } == shown.map { .text($0) })
            #expect(!book.parts.values.contains { part in expected.contains { !raw && part.contains($0) } })
        }
    }

    @Test func aMissingFXRateFailsNamingTheMonthAndCurrency() throws {
        let harness = try ReportingHarness("fx")
        let sql = try harness.sqlFolder("sql", extra: ["fx_missing.sql": Self.fxMissingSQL])
        #expect(try harness.run(["--sql-dir", sql.path, "--out", harness.folder("ok").path]).0 == .succeeded)
        let victim = try #require(try harness.database.query("""
            SELECT to_char(f.month, 'YYYY-MM') AS month, f.from_currency AS currency FROM fx_rate f
            WHERE f.to_currency = 'USD' AND EXISTS (SELECT 1 FROM billing_transaction b WHERE b.currency_code = f.from_currency
                  AND date_trunc('month', b.effective_at AT TIME ZONE 'UTC')::date = f.month)
            ORDER BY f.month DESC, f.from_currency LIMIT 1
            """).first)
        let month = try victim.decode(String.self, "month"), currency = try victim.decode(String.self, "currency")
        try harness.database.execute("DELETE FROM fx_rate WHERE to_char(month, 'YYYY-MM') = $1 AND from_currency = $2", [month, currency])
        let out = harness.folder("failed")
        let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path])
        #expect(code == .failed)
        #expect((summary["error"] as? String)?.contains("\(month) \(currency)") == true, "\(summary)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("reports.xlsx").path))
        // A period before that month needs no such rate.
        let before = try #require(ReportMonth(text: month)).advanced(by: -1).description
        #expect(try harness.run(["--sql-dir", sql.path, "--out", harness.folder("before").path, "--to", before]).0 == .succeeded)
    }

    @Test func badOptionsAreUsageErrors() throws {
        let harness = try ReportingHarness("usage", subscriptions: 20, months: 2)
        let sql = try harness.sqlFolder("sql")
        for arguments in [["--period", "2026-13"], ["--period", "26-01"], ["--period", "2027-01"], ["--from", "2026-10", "--to", "2026-09"],
                          ["--period", "2026-10", "--from", "2026-09"], ["--currency", "usd"], ["--basis", "then"], ["--format", "pdf"]] {
            let out = harness.folder("usage")
            let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path] + arguments)
            #expect(code == .usageOrConfiguration, "\(arguments): \(summary)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test func aMissingRequiredReportFailsAndAFailingReportLeavesNoFile() throws {
        let harness = try ReportingHarness("failures", subscriptions: 20, months: 2)
        let empty = try harness.sqlFolder("empty", copying: [])
        let (code, summary) = try harness.run(["--sql-dir", empty.path, "--out", harness.folder("x").path])
        #expect(code == .failed && (summary["error"] as? String)?.contains("history_metrics.sql") == true)

        let broken = ReportDefinition(name: "broken", sheet: "Broken", summary: "test: fails after the first report is written", required: true)
        let good = ReportDefinition(name: "history_metrics", sheet: "History metrics", summary: "", required: true, binding: .asOfAndFirstMonth)
        let sql = try harness.sqlFolder("sql", extra: ["broken.sql": "SELECT 1 / 0 AS n"])
        let out = harness.folder("out")
        let (failed, failure) = try harness.run(["--sql-dir", sql.path, "--out", out.path], catalogue: [good, broken])
        #expect(failed == .failed && (failure["error"] as? String)?.contains("report broken") == true, "\(failure)")
        #expect(try ReportingHarness.files(out).isEmpty, "neither a final nor a temporary file")
    }
}

import Crypto
func sha256(_ bytes: [UInt8]) -> String { SHA256Digest.hex(bytes) }

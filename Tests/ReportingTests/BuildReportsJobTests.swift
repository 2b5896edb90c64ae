import Foundation
import JobKit
import Postgres
import Reporting
import Testing

/// `build-reports` end to end with the shipped Reports/*.sql on a small loaded world: the workbook reads back equal to
/// the CSVs with every chart drawn from the right cells, reruns are byte-identical, a dry run writes nothing,
/// identifiers are masked, a missing FX rate, a missing report and bad options fail.
@Suite(.serialized) struct BuildReportsJobTests {
    static let reports = ReportCatalogue.standard.map(\.name)
    static let expectedFiles = Set(reports.map { $0 + ".csv" } + ["reports.xlsx", "report.html"])

    @Test func theWorkbookReadsBackEqualToTheCSVsWithItsCharts() throws {
        let harness = try ReportingHarness("readback")
        let sql = try harness.sqlFolder("sql")
        let out = harness.folder("out")
        // With --detail-sheets every report has its sheet, so every CSV is compared with one.
        let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path, "--detail-sheets"])
        #expect(code == .succeeded, "\(summary)")
        let counts = try #require(summary["counts"] as? [String: Int])
        let charts = ReportCatalogue.standard.flatMap(\.charts)
        #expect(counts["reports"] == Self.reports.count)
        #expect(counts["charts"] == charts.count && counts["charts_skipped"] == nil, "every chart is drawn: \(counts)")
        // Each report's seconds (and the shared tables') are in the summary's notes, so a slow report is visible.
        for name in Self.reports + ["shared_tables", "movements"] {
            let seconds = (summary["seconds_" + name] as? String).flatMap(Double.init)
            #expect(seconds.map { $0 >= 0 } == true, "seconds_\(name): \(String(describing: summary["seconds_" + name]))")
        }

        let files = try ReportingHarness.files(out)
        #expect(Set(files.keys) == Self.expectedFiles, "no temporary file is left")
        for name in files.keys.sorted() {
            let mode = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(name).path)[.posixPermissions] as? Int
            #expect(mode == 0o640, "\(name): mode \(String(mode ?? 0, radix: 8)), not 640")
        }
        let book = try XLSXReadBack(path: out.appendingPathComponent("reports.xlsx").path)
        #expect(book.sheetNames == ["Cover", "Charts"] + ReportCatalogue.printOrder(ReportCatalogue.standard, name: \.name).map(\.sheet)
                + ["Chart data"])
        var csvs: [String: [[String?]]] = [:]
        for definition in ReportCatalogue.standard {
            let csv = CSVReadBack.records(try #require(files[definition.name + ".csv"]))
            csvs[definition.name] = csv
            #expect(csv.count - 1 == counts["rows_" + definition.name], "\(definition.name)")
            let header = try #require(csv.first)
            let cells = book.cells(sheet: try #require(book.sheetNames.firstIndex(of: definition.sheet)) + 1)
            // The Cohorts sheet pivots its CSV (WorkbookLayoutTests checks the triangle cell by cell).
            for (r, record) in csv.enumerated() where definition.name != "cohorts" {
                for (c, field) in record.enumerated() {
                    let cell = cells[r + 1]?[c], place = "\(definition.name) row \(r + 1) column \(header[c] ?? "")"
                    switch (field, cell) {
                    case (nil, nil): break
                    case (let text?, .text(let value)?): #expect(text == value, "\(place)")
                    case (let text?, .number(let value)?):
                        // A cell is a double written with 16 significant digits: a 20-decimal rate matches to that.
                        let csv = Double(text) ?? .nan, cell = Double(value) ?? .nan
                        #expect(abs(csv - cell) <= 1e-15 * max(1, abs(csv)), "\(place): \(text) vs \(value)")
                    default: Issue.record("\(place): CSV \(field ?? "NULL") vs cell \(String(describing: cell))")
                    }
                }
                #expect(record.count == header.count, "\(definition.name) row \(r + 1)")
            }
        }
        // The reports the world must fill (a small world has no price-change cohort or leakage guaranteed).
        for name in ["mrr", "mrr_bridge", "mrr_movements", "refunds", "grace_hold_recovery"] { #expect((csvs[name]?.count ?? 0) > 1, "\(name)") }

        // Amounts show the currency's minor units and keep their exact micros beside them; counts, rates and days are
        // numbers in the sheet (checked above: a cell read back as a number equals the CSV's decimal).
        let bridge = try #require(csvs["mrr_bridge"]), header = try #require(bridge.first)
        func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "\(name)") }
        let mrr = try column("mrr"), micros = try column("mrr_micros"), currency = try column("currency")
        for record in bridge.dropFirst() {
            let places = ["JPY": 0, "KRW": 0][record[currency].flatMap { $0 } ?? ""] ?? 2
            let amount = try #require(record[mrr].flatMap { $0 }), exact = try #require(record[micros].flatMap { $0 })
            #expect(amount.split(separator: ".").dropFirst().first?.count ?? 0 == places, "\(amount) in \(record[currency] ?? "")")
            #expect(abs((Double(amount) ?? 0) - (Double(exact) ?? 0) / 1e6) <= 0.5 * pow(10, -Double(places)) + 1e-9)
        }

        // Every chart: its own block of the Chart data sheet, titled "<report>: <chart>", whose category and value
        // ranges the chart's series reference.
        #expect(book.charts.count == charts.count)
        let data = book.cells(sheet: book.sheetNames.count)
        func text(_ value: XLSXReadBack.Value?) -> String? { if case .text(let t)? = value { return t } else { return nil } }
        /// A month category label without the partial-month mark the as-of month's carries.
        func monthLabel(_ value: XLSXReadBack.Value?) -> String? { text(value).map { $0.replacingOccurrences(of: " (partial)", with: "") } }
        var blocks: [String: (top: Int, rows: Int, series: [String])] = [:]
        for (row, values) in data where text(values[0])?.contains(": ") == true && values.count == 1 {
            var last = row + 2
            while data[last + 1]?[0] != nil { last += 1 }
            let names = (data[row + 1] ?? [:]).sorted { $0.key < $1.key }.dropFirst().compactMap { text($0.value) }
            blocks[text(values[0]) ?? ""] = (row + 2, last - row - 1, names)
        }
        for definition in ReportCatalogue.standard {
            for chart in definition.charts {
                let block = try #require(blocks["\(definition.name): \(chart.title)"], "\(chart.title)")
                let part = try #require(book.charts.first { (book.parts[$0] ?? "").contains(XLSXReadBack.escape(chart.title)) }, "\(chart.title)")
                let references = book.references(part)
                #expect(references.count == 2 * block.series.count && !block.series.isEmpty, "\(chart.title)")
                let first = block.top, last = block.top + block.rows - 1
                for (index, _) in block.series.enumerated() {
                    let letter = Character(UnicodeScalar(UInt8(66 + index)))
                    #expect(references[2 * index] == "'Chart data'!$A$\(first):$A$\(last)", "\(chart.title)")
                    #expect(references[2 * index + 1] == "'Chart data'!$\(letter)$\(first):$\(letter)$\(last)", "\(chart.title)")
                }
            }
        }
        // The MRR line: per provider, month by month, the reporting-view MRR of the bridge.
        let line = try #require(blocks["mrr_bridge: \(ReportCatalogue.standard[1].charts[0].title)"])
        let view = try column("view"), provider = try column("provider"), month = try column("month")
        let reporting = bridge.dropFirst().filter { $0[view] == "reporting" && $0[currency] == "USD" }
        #expect(line.rows == Set(reporting.map { $0[month] ?? "" }).count && Set(line.series) == Set(reporting.map { $0[provider] ?? "" }))
        for record in reporting {
            let row = try #require(data.first { $0.key >= line.top && $0.key < line.top + line.rows && monthLabel($0.value[0]) == record[month] ?? "" }?.key)
            let series = try #require(line.series.firstIndex(of: record[provider] ?? ""))
            #expect(number(data[row]?[series + 1]) == Double(record[mrr] ?? ""), "\(record[provider] ?? "") \(record[month] ?? "")")
        }
        // The movements: all providers' reporting-view new MRR added per month; churn drawn below the axis.
        let movements = try #require(blocks["mrr_bridge: \(ReportCatalogue.standard[1].charts[1].title)"])
        #expect(movements.series == ["new", "expansion", "reactivation", "contraction", "churn", "fx"])
        let new = try column("new_micros"), churn = try column("churn_micros")
        for offset in 0..<movements.rows {
            let cells = data[movements.top + offset] ?? [:], label = monthLabel(cells[0]) ?? ""
            let rows = reporting.filter { $0[month] == label }
            let newSum = rows.reduce(Int64(0)) { $0 + (Int64($1[new] ?? "") ?? 0) }, churnSum = rows.reduce(Int64(0)) { $0 + (Int64($1[churn] ?? "") ?? 0) }
            #expect(abs((number(cells[1]) ?? .nan) - Double(newSum) / 1e6) < 0.005 + 1e-9, "new \(label)")
            #expect(abs((number(cells[5]) ?? .nan) + Double(churnSum) / 1e6) < 0.005 + 1e-9, "churn \(label)")
        }

        // The cover names the period, as-of, basis and currency, the rows and the hashes of each SQL and CSV.
        let cover = book.cells(sheet: 1).values.flatMap(\.values)
        let texts = Set(cover.compactMap { text($0) })
        #expect(texts.contains("corrected") && texts.contains("USD") && texts.contains(harness.asOf))
        for name in Self.reports {
            #expect(texts.contains(sha256(try #require(files[name + ".csv"]))), "\(name).csv")
            #expect(texts.contains(sha256(Array(try Data(contentsOf: sql.appendingPathComponent(name + ".sql"))))), "\(name).sql")
        }
        #expect(!texts.contains { $0.contains("not drawn") })
    }

    @Test func detailReportsHaveACSVButNoSheetUnlessAskedAndTheCoverSaysWhere() throws {
        let harness = try ReportingHarness("detail")
        let out = harness.folder("out")
        let (code, summary) = try harness.run(["--sql-dir", try harness.sqlFolder("sql").path, "--out", out.path])
        #expect(code == .succeeded, "\(summary)")
        let files = try ReportingHarness.files(out)
        let book = try XLSXReadBack(path: out.appendingPathComponent("reports.xlsx").path)
        let detail = ReportCatalogue.standard.filter(\.detail)
        #expect(detail.map(\.name) == ["mrr_movements"])
        for definition in detail {
            #expect(files[definition.name + ".csv"] != nil, "\(definition.name): its CSV is written")
            #expect(!book.sheetNames.contains(definition.sheet), "\(definition.name): no sheet by default")
            let cover = book.cells(sheet: 1).values.compactMap { row -> String? in
                if case .text(let text)? = row[1] { return text } else { return nil }
            }
            #expect(cover.contains { $0.contains("every row is in \(definition.name).csv") }, "the cover says where its rows are")
        }
    }

    @Test func aRerunWithTheSameInputsIsByteIdentical() throws {
        let harness = try ReportingHarness("rerun", subscriptions: 120, months: 4)
        let sql = try harness.sqlFolder("sql")
        #expect(try harness.run(["--sql-dir", sql.path, "--out", harness.folder("a").path]).0 == .succeeded)
        #expect(try harness.run(["--sql-dir", sql.path, "--out", harness.folder("b").path]).0 == .succeeded)
        let a = try ReportingHarness.files(harness.folder("a")), b = try ReportingHarness.files(harness.folder("b"))
        #expect(Set(a.keys) == Self.expectedFiles)
        #expect(a == b)
        // A later as-of is another document (its time and numbers), so the fixed time is the as-of's, not a constant.
        #expect(try harness.run(["--sql-dir", sql.path, "--out", harness.folder("c").path, "--as-of", "2026-11-01"]).0 == .succeeded)
        #expect(try ReportingHarness.files(harness.folder("c"))["reports.xlsx"] != a["reports.xlsx"])
    }

    @Test func aDryRunWritesNothing() throws {
        let harness = try ReportingHarness("dry", subscriptions: 60, months: 3)
        let sql = try harness.sqlFolder("sql")
        let out = harness.folder("out")
        let runs = try harness.database.query("SELECT count(*)::int8 AS n FROM job_run").first?.decode(Int64.self, "n")
        let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path, "--dry-run"])
        #expect(code == .succeeded)
        #expect((summary["counts"] as? [String: Int])?["reports"] == Self.reports.count)
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(try harness.database.query("SELECT count(*)::int8 AS n FROM job_run").first?.decode(Int64.self, "n") == runs)
    }

    @Test func identifiersAreMaskedUnlessRawIDs() throws {
        let harness = try ReportingHarness("masking", subscriptions: 120, months: 4)
        let sql = try harness.sqlFolder("sql")
        var movements: [Bool: [[String?]]] = [:]
        for raw in [false, true] {
            let out = harness.folder(raw ? "raw" : "masked")
            let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path] + (raw ? ["--raw-ids"] : []))
            #expect(code == .succeeded, "\(summary)")
            let records = CSVReadBack.records(try #require(try ReportingHarness.files(out)["mrr_movements.csv"]))
            movements[raw] = records
            if !raw {
                // No raw identifier of the database is anywhere in the masked workbook.
                let book = try XLSXReadBack(path: out.appendingPathComponent("reports.xlsx").path)
                let ids = try harness.database.query("SELECT id::text AS id FROM subscription UNION ALL SELECT id::text FROM billing_account")
                    .rows.map { try $0.decode(String.self, "id") }
                #expect(!ids.isEmpty && !book.parts.values.contains { part in ids.contains { part.contains($0) } })
            }
        }
        let masked = try #require(movements[false]), raw = try #require(movements[true])
        let header = try #require(raw.first)
        #expect(masked.count == raw.count && raw.count > 1)
        let identifiers = ["billing_account_id", "subscription_id"].compactMap { header.firstIndex(of: $0) }
        #expect(identifiers.count == 2)
        for (m, r) in zip(masked.dropFirst(), raw.dropFirst()) {
            for c in identifiers {
                let value = r[c].flatMap { $0 } ?? ""
                #expect(value.count > 8 && m[c] == String(value.prefix(4)) + "…" + String(value.suffix(4)))
            }
            for c in header.indices where !identifiers.contains(c) { #expect(m[c] == r[c]) }
        }
    }

    @Test func aMissingFXRateFailsNamingTheMonthAndCurrency() throws {
        let harness = try ReportingHarness("fx", subscriptions: 120, months: 4)
        let sql = try harness.sqlFolder("sql")
        #expect(try harness.run(["--sql-dir", sql.path, "--out", harness.folder("ok").path]).0 == .succeeded)
        // The last month's rate of the non-USD currency most charged in it: the month's MRR needs it.
        let victim = try #require(try harness.database.query("""
            SELECT to_char(f.month, 'YYYY-MM') AS month, f.from_currency AS currency FROM fx_rate f
            JOIN billing_transaction b ON b.currency_code = f.from_currency AND b.amount_micros > 0
             AND date_trunc('month', b.effective_at AT TIME ZONE 'UTC')::date = f.month
            WHERE f.to_currency = 'USD' AND f.from_currency <> 'USD' AND f.month = (SELECT max(month) FROM fx_rate WHERE month <= $1::timestamptz)
            GROUP BY 1, 2 ORDER BY count(*) DESC, 2 LIMIT 1
            """, [harness.asOf]).first)
        let month = try victim.decode(String.self, "month"), currency = try victim.decode(String.self, "currency")
        try harness.database.execute("DELETE FROM fx_rate WHERE to_char(month, 'YYYY-MM') = $1 AND from_currency = $2", [month, currency])
        let out = harness.folder("failed")
        let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path])
        #expect(code == .failed)
        #expect((summary["error"] as? String)?.contains("\(month) \(currency)") == true, "\(summary)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing written")
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
        for absent in ["price_change_churn", ReportCatalogue.fxMissing] {
            let sql = try harness.sqlFolder("without_\(absent)", copying: ReportingHarness.shippedReports.filter { $0 != absent })
            let out = harness.folder("x")
            let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", out.path])
            #expect(code == .failed && (summary["error"] as? String)?.contains("\(absent).sql") == true, "\(summary)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }

        let broken = ReportDefinition(name: "broken", sheet: "Broken", summary: "test: fails after the real reports are written", required: true)
        // It names a run table (in a comment), so it runs in the job's session, after the real reports, not in the second.
        let sql = try harness.sqlFolder("sql", extra: ["broken.sql": """
            -- as if it read report_run_snapshot
            SELECT $1::timestamptz AS a, $2::timestamptz AS b, $3::timestamptz AS c, $4::text AS d, $5::text AS e, 1 / (count(*) - count(*)) AS n
            FROM billing_transaction
            """])
        let out = harness.folder("out")
        let (failed, failure) = try harness.run(["--sql-dir", sql.path, "--out", out.path], catalogue: ReportCatalogue.standard + [broken])
        #expect(failed == .failed && (failure["error"] as? String)?.contains("report broken") == true, "\(failure)")
        #expect(try ReportingHarness.files(out).isEmpty, "neither a final nor a temporary file")
        // Its months were recorded on their own connection (MonthWriter) as the reports before it ran: none is stored.
        let stored = try harness.database.query("SELECT (SELECT count(*) FROM report_stored_month) + (SELECT count(*) FROM report_stored_row)")
        #expect(stored.textRows().first?.first == "0", "a failed run stores no month")
        // The same run without the failing report stores its months (so the check above could see them).
        let (succeeded, _) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder("ok").path])
        let kept = try harness.database.query("SELECT count(*) FROM report_stored_month").textRows().first?.first.flatMap { $0 }
        #expect(succeeded == .succeeded && (Int(kept ?? "") ?? 0) > 0, "\(String(describing: kept))")
    }
}

/// The number a read-back cell holds, if it is one.
func number(_ value: XLSXReadBack.Value?) -> Double? { if case .number(let text)? = value { return Double(text) } else { return nil } }

import Crypto
func sha256(_ bytes: [UInt8]) -> String { SHA256Digest.hex(bytes) }

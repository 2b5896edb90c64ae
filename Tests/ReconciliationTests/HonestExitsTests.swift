import Foundation
import JobKit
import Postgres
import Reconciliation
import StoreExports
import TestSupport
import Testing

/// reconcile and close-period on a database with nothing staged: exit 3 (reconcile) or 2 (close-period) naming what
/// is missing, never exit 0; `--period` is a calendar month for both stores.
@Suite(.serialized) struct HonestExitsTests {
    final class Harness {
        let name: String
        let database: PostgresConnection
        let folder: URL

        init(_ name: String) throws {
            self.name = "honest_exits_" + name
            (_, database) = try TestDatabase.migrated(self.name)
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("honest-exits-\(name)-\(getpid())")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit {
            database.close()
            try? FileManager.default.removeItem(at: folder)
        }

        func run(_ definition: JobDefinition, _ arguments: [String], environment extra: [String: String] = [:]) throws -> (JobExitCode, String) {
            var variables = ProcessInfo.processInfo.environment
            variables["PGDATABASE"] = name
            variables["REPORT_OUT_DIR"] = nil
            variables["RECONCILE_OUT"] = nil
            for (key, value) in extra { variables[key] = value }
            let box = SummaryBox()
            let code = JobRunner.run(definition, arguments: ["--log-format", "json"] + arguments, environment: JobEnvironment(variables),
                                     output: { box.append($0) })
            return (code, box.text)
        }

        func stage(_ kind: String, provider: String, period: String) throws {
            _ = try database.execute("""
                INSERT INTO report_file (kind, provider, file_name, report_key, content_sha256, period, region, vendor, row_count)
                VALUES ($1, $2, $3, $3, md5($3), $4, '', '', 0)
                """, [kind, provider, "\(kind)_\(period)", period])
        }
    }

    @Test func reconcileOfAnAppleMonthWithNothingStagedExitsThree() throws {
        let harness = try Harness("reconcile_apple")
        let (code, line) = try harness.run(Reconcile.definition(), ["--provider", "apple", "--period", "2026-11"])
        #expect(code == .thresholdBreached, "\(line)")
        // November 2026 is fiscal 2027 period 02 (not fiscal August, reportDate 2026-11).
        #expect(line.contains("nothing staged for apple 2026-11 (FY2027 P02, 2026-11-01 to 2026-11-28)"), "\(line)")
        #expect(line.contains("Apple Financial Reports (<vendor>_1126_<region>.txt)"), "\(line)")
    }

    @Test func reconcileOfAGoogleMonthWithNothingStagedExitsThree() throws {
        let harness = try Harness("reconcile_google")
        let (code, line) = try harness.run(Reconcile.definition(), ["--provider", "google", "--period", "2026-11"])
        #expect(code == .thresholdBreached, "\(line)")
        #expect(line.contains("nothing staged for google 2026-11") && line.contains("earnings_202611_*.zip"), "\(line)")
    }

    @Test func theFiscalLabelAndTheCalendarMonthNameOnePeriod() throws {
        let november = try #require(ReconciliationPeriod.appleFiscal(forCalendarMonth: "2026-11"))
        #expect(november.label == "2027-02")
        #expect(ReconciliationPeriod.appleFiscal(label: "FY2027-P02") == november)
        #expect(november.readableName == "2026-11 (FY2027 P02, 2026-11-01 to 2026-11-28)")
        #expect(november.calendarMonth == "2026-11")
        #expect(ReconciliationPeriod.appleFiscal(label: "FY2027-P13") == nil)
        #expect(ReconciliationPeriod.appleFiscal(label: "2027-02") == nil)
        let harness = try Harness("fiscal_label")
        let (code, line) = try harness.run(Reconcile.definition(), ["--fiscal-period", "FY2027-P02"])
        #expect(code == .thresholdBreached, "\(line)")
        #expect(line.contains("apple 2026-11 (FY2027 P02"), "\(line)")
    }

    @Test(arguments: [["--provider", "google", "--period", "2026-13"], ["--provider", "apple", "--period", "2026-13"],
                      ["--fiscal-period", "2027-02"], ["--provider", "google", "--fiscal-period", "FY2027-P02"]])
    func badPeriodsAreUsageErrors(arguments: [String]) throws {
        let harness = try Harness("bad_period")
        let (code, line) = try harness.run(Reconcile.definition(), arguments)
        #expect(code == .usageOrConfiguration, "\(line)")
    }

    @Test(arguments: [("2027-05", "2026-12-02"), ("2026-12", "2026-12-02T12:00:00Z"), ("2026-11", "2026-11-30")])
    func closePeriodRefusesAMonthThatHasNotEnded(month: String, asOf: String) throws {
        let harness = try Harness("close_unended")
        let (code, line) = try harness.run(ClosePeriod.definition(), ["--period", month, "--as-of", asOf, "--without-store-reports"])
        #expect(code == .usageOrConfiguration, "\(line)")
        #expect(line.contains("\(month) has not ended"), "\(line)")
        #expect(try harness.database.query("SELECT 1 FROM period_close").count == 0)
    }

    @Test func closePeriodRefusesAMonthWhoseStoreReportsAreNotImported() throws {
        let harness = try Harness("close_unimported")
        try harness.stage("googleEarnings", provider: "google", period: "2026-10")
        let (code, line) = try harness.run(ClosePeriod.definition(), ["--period", "2026-10", "--as-of", "2026-12-02"])
        #expect(code == .usageOrConfiguration, "\(line)")
        #expect(line.contains("store reports are not imported: apple: Apple Financial Reports (<vendor>_1026_<region>.txt) of 2026-10 (FY2027 P01"),
                "\(line)")
        #expect(!line.contains("google:"), "\(line)")
    }

    @Test func closePeriodRefusesAnEmptyReportsFolderAndReadsReportOutDir() throws {
        let harness = try Harness("close_empty_reports")
        try harness.stage("googleEarnings", provider: "google", period: "2026-10")
        try harness.stage("appleFinancial", provider: "apple", period: "2027-01")
        let out = harness.folder.appendingPathComponent("reports-out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let (code, line) = try harness.run(ClosePeriod.definition(), ["--period", "2026-10", "--as-of", "2026-12-02"],
                                           environment: ["REPORT_OUT_DIR": out.path])
        #expect(code == .usageOrConfiguration, "\(line)")
        #expect(line.contains("no report files to snapshot under \(out.path)"), "\(line)")
        // With a report file there, REPORT_OUT_DIR is what gets snapshotted.
        try Data("month,mrr\n".utf8).write(to: out.appendingPathComponent("mrr.csv"))
        let (closed, closedLine) = try harness.run(ClosePeriod.definition(), ["--period", "2026-10", "--as-of", "2026-12-02"],
                                                   environment: ["REPORT_OUT_DIR": out.path])
        #expect(closed == .succeeded, "\(closedLine)")
        #expect(try harness.database.query("SELECT 1 FROM period_snapshot WHERE name = 'reports/mrr.csv'").count == 1)
    }

    @Test func reconcileChecksItsOutputFolderBeforeAnyQuery() throws {
        let harness = try Harness("reconcile_out")
        let file = harness.folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let out = file.appendingPathComponent("out")
        let (code, line) = try harness.run(Reconcile.definition(), ["--provider", "apple", "--period", "2026-11", "--out", out.path])
        // Exit 2 naming the folder, not 3 (nothing staged): the folder is checked first.
        #expect(code == .usageOrConfiguration, "\(line)")
        #expect(line.contains("cannot create the folder \(out.path)"), "\(line)")
    }

    /// The Reconciliation sheet's SQL shows an Apple period as people read it: calendar month, fiscal label, days.
    @Test func theReconciliationReportNamesAnApplePeriodReadably() throws {
        let harness = try Harness("sheet_period")
        let november = try #require(ReconciliationPeriod.appleFiscal(forCalendarMonth: "2026-11"))
        _ = try harness.database.execute("""
            INSERT INTO reconciliation_run (provider, period, starts_at, ends_at, known_at, report_files, item_count, content_sha256)
            VALUES ('apple', $1, to_timestamp($2), to_timestamp($3), to_timestamp($3), '[]', 1, repeat('0', 64))
            """, [november.label, november.start, november.end])
        _ = try harness.database.execute("""
            INSERT INTO reconciliation_item (run_id, line, category, grain_key, side, product_id, country, currency,
                database_currency, report_units, database_units, report_gross_micros, database_gross_micros, variance_micros,
                store_fee_micros, tax_micros, net_micros, prior_period_adjustment, adjustment_period)
            SELECT id, 1, 'matched', 'cell', 'charge', 'pro_monthly', 'US', 'USD', NULL, 1, 1, 9990000, 9990000, 0, 0, 0, 9990000,
                   false, NULL FROM reconciliation_run
            """)
        let sqlFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Reports/reconciliation.sql")
        let sql = try String(contentsOf: sqlFile, encoding: .utf8)
        let rows = try harness.database.query(sql, ["2026-12-31T00:00:00Z", "2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z", "USD", "known"]).rows
        let row = try #require(rows.first { (try? $0.decodeIfPresent(String.self, "provider")) == "apple" }, "\(rows.count) rows")
        #expect(try row.decodeIfPresent(String.self, "period") == "2027-02")
        #expect(try row.decodeIfPresent(String.self, "calendar_month") == "2026-11")
        #expect(try row.decodeIfPresent(String.self, "fiscal_period") == "FY2027 P02")
        #expect(try row.decodeIfPresent(String.self, "first_day") == "2026-11-01")
        #expect(try row.decodeIfPresent(String.self, "last_day") == "2026-11-28")
    }
}

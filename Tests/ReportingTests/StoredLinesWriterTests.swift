import Foundation
import JobKit
import Postgres
@testable import Reporting
import Testing

/// A night's reused months of the job's CSV-only files are written from their stored lines on a session of their own,
/// beside the movements (`StoredLinesWriter`; Reports/README.md, "The stored lines written beside the movements"): the
/// job appends the months it computes to the same file, which stays the full run's byte for byte; a run that fails
/// leaves no staged file.
@Suite(.serialized) struct StoredLinesWriterTests {
    /// The files whose reused months the job writes as stored lines, for `arguments`.
    static func chosen(_ arguments: [String]) throws -> [String] {
        let asOf = Date(timeIntervalSince1970: 1_795_910_400) // 2026-11-29
        let settings = try ReportOptions.settings(try JobArguments.parse(arguments, options: ReportOptions.all), asOf: asOf)
        return ReportCatalogue.standard.filter { BuildReports.writesStoredLines($0, settings: settings) }.map(\.name).sorted()
    }

    @Test func theFilesWithStoredLinesAreTheStreamedOnesWithoutASheet() throws {
        // (beside a workbook, the detail report without a sheet; a report the workbook's charts, cover or pack read never)
        #expect(try Self.chosen([]) == ["mrr_movements"])
        #expect(try Self.chosen(["--detail-sheets"]) == [])
        #expect(try Self.chosen(["--format", "xlsx"]) == [])
        let csvOnly = try Self.chosen(["--format", "csv"])
        #expect(csvOnly == ["entitlement_leakage", "mrr", "mrr_movements"], "\(csvOnly)")
    }

    @Test func aNightWritesItsReusedLinesBesideAndItsFilesAreTheFullRuns() throws {
        let harness = try ReportingHarness("stored_lines", seed: 76, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        func run(_ name: String, _ options: [String] = []) throws -> [String: Int] {
            let (code, summary) = try harness.run(["--sql-dir", sql.path, "--out", harness.folder(name).path] + options)
            #expect(code == .succeeded, "\(summary)")
            return summary["counts"] as? [String: Int] ?? [:]
        }
        let full = try run("full", ["--full"])
        #expect(full["files_lines_written_beside"] == nil, "a full run reuses no month: \(full)")
        let night = try run("night")
        #expect(night["files_lines_written_beside"] == 1 && (night["rows_reused_as_csv"] ?? 0) > 100, "\(night)")
        #expect(night["rows_mrr_movements"] == full["rows_mrr_movements"])
        #expect(try ReportingHarness.files(harness.folder("night")) == ReportingHarness.files(harness.folder("full")))

        // CSV alone: every file the job writes from stored lines gets them beside, each going on with its computed month.
        let csvFull = try run("csv-full", ["--full", "--format", "csv"])
        #expect(csvFull["files_lines_written_beside"] == nil)
        let csvNight = try run("csv-night", ["--format", "csv"])
        #expect((csvNight["files_lines_written_beside"] ?? 0) >= 2, "\(csvNight)")
        #expect(try ReportingHarness.files(harness.folder("csv-night")) == ReportingHarness.files(harness.folder("csv-full")))
    }

    @Test func aNightThatFailsAfterTheLinesWereStagedLeavesNothing() throws {
        let harness = try ReportingHarness("stored_lines_failed", seed: 77, subscriptions: 300, months: 6)
        let sql = try harness.sqlFolder("sql")
        #expect(try harness.run(["--sql-dir", sql.path, "--out", harness.folder("full").path, "--full"]).0 == .succeeded)
        // The last month's rate of the non-USD currency most charged in it: the run fails at the FX check, after the
        // writer started (it starts with the month digest, before the movements).
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
        #expect(code == .failed && (summary["error"] as? String)?.contains("\(month) \(currency)") == true, "\(summary)")
        #expect(!FileManager.default.fileExists(atPath: out.path),
                "no staged file and no folder: \((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [])")
    }
}

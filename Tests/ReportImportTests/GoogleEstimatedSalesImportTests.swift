import Crypto
import Foundation
import Postgres
import ReportImport
import StoreExports
import Testing

/// Google's estimated sales report is imported as a stream (issue 27, "bounded memory"; no size limit, as a real month
/// of a big app is hundreds of MB): a generated month several times the 1 MiB read buffer and the 1 MiB COPY buffer,
/// as a plain CSV and as the zip Google delivers, stages every row with its micros and the hash of the CSV; a defect
/// at its end, found after rows were already sent to the server, leaves nothing staged and the run failed.
@Suite(.serialized) struct GoogleEstimatedSalesImportTests {
    static let header = "Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,Device Model,Product Title,"
        + "Package ID,Product Type,SKU ID,Currency of Sale,Item Price,Taxes Collected,Charged Amount,City of Buyer,"
        + "State of Buyer,Postal Code of Buyer,Country of Buyer,Base Plan or Purchase Option ID,Offer ID,Group ID,"
        + "First USD 1M Eligible,Promotion ID,Coupon Value,Discount Rate,Featured Product ID,Price Experiment ID,Sales Channel"

    /// A month of `rows` orders (every tenth refunded, every seventh with a quoted title holding a comma and a quote),
    /// `lastLine` appended; and the sum of the rows' charged amounts in micros.
    static func month(rows: Int, lastLine: String? = nil) -> (data: Data, charged: Int64) {
        var out = header + "\n"
        var charged: Int64 = 0
        for n in 0..<rows {
            let refund = n % 10 == 9
            let sign = refund ? "-" : ""
            let cents = 499 + n % 500
            let tax = cents / 5
            charged += Int64(refund ? -(cents + tax) : cents + tax) * 10_000
            let title = n % 7 == 0 ? "\"Pro, \"\"yearly\"\" (Example)\"" : "Pro monthly (Example)"
            out += ["GPA.3300-\(1000 + n % 9000)-\(2000 + n / 9000)-\(10000 + n)", "2025-11-\(String(format: "%02d", 1 + n % 30))",
                    String(1_761_955_200 + n), refund ? "Refund" : "Charged", "Pixel 8", title, "com.example.app", "subscription",
                    "pro_monthly", "EUR", sign + cents.centsText, sign + tax.centsText, sign + (cents + tax).centsText, "Berlin", "",
                    "10115", "DE", "p1m", "", "4994392072746424206", "Yes", "", "", "", "", "", "Play Store"].joined(separator: ",")
            out += "\n"
        }
        if let lastLine { out += lastLine + "\n" }
        return (Data(out.utf8), charged)
    }

    /// Writes `data` as the one member `member` of the zip `url` (/usr/bin/zip).
    static func zip(_ data: Data, member: String, to url: URL) throws {
        let folder = url.deletingLastPathComponent().appendingPathComponent("zip-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try data.write(to: folder.appendingPathComponent(member))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
        process.currentDirectoryURL = folder
        process.arguments = ["-q", "-j", url.path, member]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func aMonthManyTimesTheBuffersImportsEveryRowPlainAndZipped() throws {
        let harness = try ImportHarness("google_estimated_streaming")
        let rows = 20_000
        let (data, charged) = Self.month(rows: rows)
        #expect(data.count > 3 << 20)
        try data.write(to: harness.folder.appendingPathComponent("salesreport_202511.csv"))
        try Self.zip(data, member: "salesreport_202512.csv", to: harness.folder.appendingPathComponent("salesreport_202512.zip"))
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        #expect(counts["google_estimated_sales_imported"] == 2 && counts["rows_loaded"] == 2 * rows, "\(line)")
        for name in ["salesreport_202511.csv", "salesreport_202512.zip"] {
            let staged = try #require(try harness.database.query("""
                SELECT count(*)::int8 AS n, sum(charged_amount_micros)::int8 AS charged, f.row_count::int8 AS row_count,
                       f.content_sha256, count(*) FILTER (WHERE product_title = 'Pro, "yearly" (Example)')::int8 AS quoted,
                       max(line)::int8 AS last FROM google_estimated_sales_row r JOIN report_file f ON f.id = r.report_file_id
                WHERE f.file_name = $1 GROUP BY f.id
                """, [name]).first)
            #expect(try staged.decode(Int64.self, "n") == Int64(rows), "\(name)")
            #expect(try staged.decode(Int64.self, "row_count") == Int64(rows), "\(name)")
            #expect(try staged.decode(Int64.self, "charged") == charged, "\(name)")
            #expect(try staged.decode(Int64.self, "quoted") == Int64((rows + 6) / 7), "\(name)")
            #expect(try staged.decode(Int64.self, "last") == Int64(rows + 1), "\(name)")
            // The hash is over the CSV parsed (the zip's member, not its compressed bytes).
            #expect(try staged.decode(String.self, "content_sha256") == SHA256Digest.hex([UInt8](data)), "\(name)")
        }
        let (again, againCounts, againLine) = try harness.run()
        #expect(again == .succeeded && againCounts["files_unchanged"] == 2, "\(againLine)")
    }

    @Test func aDefectAtTheEndOfALargeZippedMonthLeavesNothingStagedAndTheRunFailed() throws {
        let harness = try ImportHarness("google_estimated_streaming_defect")
        let rows = 20_000
        let (data, _) = Self.month(rows: rows, lastLine: "GPA.1,2025-11-30,not a row")
        try Self.zip(data, member: "salesreport_202511.csv", to: harness.folder.appendingPathComponent("salesreport_202511.zip"))
        let (code, counts, line) = try harness.run()
        #expect(code == .failed, "\(line)")
        #expect(counts["files_rejected"] == 1 && counts["files_imported"] == nil, "\(line)")
        #expect(line.contains("salesreport_202511.zip/salesreport_202511.csv:\(rows + 2):4: row has 3 fields, the header has 27"), "\(line)")
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_estimated_sales_row") == 0)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file") == 0)
        let status = try #require(try harness.database.query("SELECT status::text AS s FROM job_run ORDER BY id DESC LIMIT 1").first)
        #expect(try status.decode(String.self, "s") == "failed")
    }

    /// The rules of a whole file hold for the streamed report: a zipped month appended to while it is read is refused;
    /// a replacement with fewer rows is refused unless `--allow-shrink`; the same bytes under two months are two reports.
    @Test func aStreamedMonthIsImportedWholeOrRefused() throws {
        let harness = try ImportHarness("google_estimated_integrity")
        let (data, _) = Self.month(rows: 100)
        let zip = harness.folder.appendingPathComponent("salesreport_202510.zip")
        try Self.zip(data, member: "salesreport_202510.csv", to: zip)
        let file = try #require(try ReportFileFinder.find([zip.path]).reports.first)
        #expect(try ReportReader.read(file).rowCount == 100)
        do {
            _ = try ReportReader.read(file, afterReading: {
                let handle = try FileHandle(forWritingTo: zip)
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("x".utf8))
                try handle.close()
            })
            Issue.record("a zip changed during the read was accepted")
        } catch let error as StoreReportError {
            #expect(error.file == "salesreport_202510.zip" && error.reason.contains("the file changed while it was read"), "\(error)")
        }
        try FileManager.default.removeItem(at: zip)

        try data.write(to: harness.folder.appendingPathComponent("salesreport_202511.csv"))
        try data.write(to: harness.folder.appendingPathComponent("salesreport_202512.csv"))
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded && counts["google_estimated_sales_imported"] == 2, "\(line)")
        #expect(try harness.scalar("SELECT count(DISTINCT content_sha256) AS n FROM report_file") == 1)
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_estimated_sales_row") == 200)

        try Self.month(rows: 60).data.write(to: harness.folder.appendingPathComponent("salesreport_202512.csv"))
        let (shrunk, shrunkCounts, shrunkLine) = try harness.run()
        #expect(shrunk == .failed && shrunkCounts["files_shrinking"] == 1, "\(shrunkLine)")
        #expect(shrunkLine.contains("with 60 rows instead of 100"), "\(shrunkLine)")
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_estimated_sales_row") == 200)
        let (allowed, allowedCounts, allowedLine) = try harness.run(["--allow-shrink"])
        #expect(allowed == .succeeded && allowedCounts["files_replaced"] == 1, "\(allowedLine)")
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_estimated_sales_row") == 160)
    }

    /// A corrected month whose file a close in force compared is refused (`files_closed_period`), nothing written;
    /// after the reopen the same file replaces the earlier one.
    @Test func aCorrectionOfAClosedMonthIsRefused() throws {
        let harness = try ImportHarness("google_estimated_closed")
        let path = harness.folder.appendingPathComponent("salesreport_202511.csv")
        try Self.month(rows: 50).data.write(to: path)
        #expect(try harness.run().0 == .succeeded)
        let id = try harness.scalar("SELECT id AS n FROM report_file")
        _ = try harness.database.execute("""
            WITH run AS (
                INSERT INTO reconciliation_run (provider, period, starts_at, ends_at, known_at, report_files, item_count, content_sha256)
                VALUES ('google', '2025-11', '2025-11-01 07:00+00', '2025-12-01 08:00+00', now(),
                        jsonb_build_array(jsonb_build_object('id', $1::int8)), 0, repeat('0', 64)) RETURNING id),
            close AS (INSERT INTO period_close (period, closed_at, closed_by) VALUES ('2025-11', now(), 'test') RETURNING id)
            INSERT INTO period_lock (close_id, provider, report_period, starts_at, ends_at, run_id)
            SELECT close.id, 'GOOGLE', '2025-11', '2025-11-01 07:00+00', '2025-12-01 08:00+00', run.id FROM close, run
            """, [id])
        try Self.month(rows: 51).data.write(to: path)
        let (code, counts, line) = try harness.run()
        #expect(code == .failed && counts["files_closed_period"] == 1, "\(line)")
        #expect(line.contains("GOOGLE period 2025-11 is locked"), "\(line)")
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_estimated_sales_row") == 50)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file") == 1)
        _ = try harness.database.execute("UPDATE period_close SET reopened_at = now(), reopen_reason = 'test'")
        let (reopened, reopenedCounts, reopenedLine) = try harness.run()
        #expect(reopened == .succeeded && reopenedCounts["files_replaced"] == 1, "\(reopenedLine)")
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_estimated_sales_row") == 51)
    }
}

private extension Int {
    /// Cents as a decimal amount (`499` → `4.99`).
    var centsText: String { "\(self / 100)." + (self % 100 < 10 ? "0" : "") + "\(self % 100)" }
}

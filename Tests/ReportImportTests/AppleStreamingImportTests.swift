import Crypto
import Foundation
import JobKit
import Postgres
import ReportImport
import StoreExports
import Testing

/// Apple's Sales and Trends reports are imported as a stream (issue 27, "bounded memory"): a Subscriber file several
/// times the 1 MiB read buffer and the 1 MiB COPY buffer, plain or gzip, stages every row with the fixture's micros; a
/// defect at its end, found after rows were already sent to the server, leaves nothing staged and the run failed; an
/// Apple financial report over 20 MiB imports every row, and one renamed to another period stages nothing.
@Suite(.serialized) struct AppleStreamingImportTests {
    static let fixture = "good/Subscriber_85000000_20251103.txt"

    /// The fixture's data rows repeated until the text passes `bytes`, after its header; `lastLine` appended.
    static func big(bytes: Int, lastLine: String? = nil) throws -> (data: Data, times: Int) {
        let text = try String(contentsOf: ImportHarness.fixtures().appendingPathComponent(fixture), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let block = lines.dropFirst().joined(separator: "\n") + "\n"
        let times = bytes / block.utf8.count + 1
        var out = lines[0] + "\n" + String(repeating: block, count: times)
        if let lastLine { out += lastLine + "\n" }
        return (Data(out.utf8), times)
    }

    /// Writes `data` gzip-compressed to `url` (/usr/bin/gzip).
    static func gzip(_ data: Data, to url: URL) throws {
        let plain = url.deletingPathExtension()
        try data.write(to: plain)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        process.arguments = ["-f", plain.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// The fixture's rows and the sum of their developer proceeds.
    static func fixtureRows() throws -> (rows: Int, proceeds: Int64) {
        let bytes = [UInt8](try Data(contentsOf: ImportHarness.fixtures().appendingPathComponent(fixture)))
        let report = try AppleSubscriberReportParser.parse(bytes, file: "Subscriber_85000000_20251103.txt")
        return (report.rows.count, report.rows.reduce(0) { $0 + $1.developerProceedsMicros })
    }

    @Test func aSubscriberFileManyTimesTheBuffersImportsEveryRowPlainAndGzipped() throws {
        let harness = try ImportHarness("apple_streaming")
        let (rows, proceeds) = try Self.fixtureRows()
        let (data, times) = try Self.big(bytes: 3 << 20)
        try data.write(to: harness.folder.appendingPathComponent("Subscriber_85000000_20251103.txt"))
        try Self.gzip(data, to: harness.folder.appendingPathComponent("Subscriber_85000000_20251104.txt.gz"))
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        #expect(counts["files_imported"] == 2 && counts["rows_loaded"] == 2 * times * rows, "\(line)")
        for name in ["Subscriber_85000000_20251103.txt", "Subscriber_85000000_20251104.txt.gz"] {
            let staged = try #require(try harness.database.query("""
                SELECT count(*)::int8 AS n, sum(developer_proceeds_micros)::int8 AS proceeds, f.row_count::int8 AS row_count,
                       f.content_sha256 FROM apple_subscriber_row r JOIN report_file f ON f.id = r.report_file_id
                WHERE f.file_name = $1 GROUP BY f.id
                """, [name]).first)
            #expect(try staged.decode(Int64.self, "n") == Int64(times * rows), "\(name)")
            #expect(try staged.decode(Int64.self, "row_count") == Int64(times * rows), "\(name)")
            #expect(try staged.decode(Int64.self, "proceeds") == Int64(times) * proceeds, "\(name)")
            // The hash is over the text parsed (the gzip's content, not its compressed bytes).
            #expect(try staged.decode(String.self, "content_sha256") == SHA256Digest.hex([UInt8](data)), "\(name)")
        }
        // A rerun reads each file once more and finds it unchanged.
        let (again, againCounts, againLine) = try harness.run()
        #expect(again == .succeeded && againCounts["files_unchanged"] == 2, "\(againLine)")
    }

    @Test func aDefectAtTheEndOfALargeGzippedFileLeavesNothingStagedAndTheRunFailed() throws {
        let harness = try ImportHarness("apple_streaming_defect")
        let (rows, _) = try Self.fixtureRows()
        let (data, times) = try Self.big(bytes: 3 << 20, lastLine: "2025-11-03\tnot a row")
        try Self.gzip(data, to: harness.folder.appendingPathComponent("Subscriber_85000000_20251103.txt.gz"))
        let (code, counts, line) = try harness.run()
        #expect(code == .failed, "\(line)")
        #expect(counts["files_rejected"] == 1 && counts["files_imported"] == nil, "\(line)")
        #expect(line.contains("Subscriber_85000000_20251103.txt.gz:\(2 + times * rows):3: row has 2 fields, the header has 26"), "\(line)")
        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_subscriber_row") == 0)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file") == 0)
        let status = try #require(try harness.database.query("SELECT status::text AS s FROM job_run ORDER BY id DESC LIMIT 1").first)
        #expect(try status.decode(String.self, "s") == "failed")
    }

    /// A financial report for fiscal November 2025 (region US) of `pairs` sale and return rows, with its footer.
    static func bigFinancial(pairs: Int) -> Data {
        let header = ["Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
                      "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
                      "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
                      "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
                      "Customer Price", "Customer Currency"].joined(separator: "\t")
        let sale = "11/02/2025\t11/29/2025\t\t\tpro.monthly\t3\t6.99\t20.97\tUSD\tS\t900000001\tExample Dev\tPro Monthly\t\t\tIAY\t\tUS\t\t \t9.99\tUSD\n"
        let refund = "11/02/2025\t11/29/2025\t\t\tpro.monthly\t-1\t6.99\t-6.99\tUSD\tR\t900000001\tExample Dev\tPro Monthly\t\t\tIAY\t\tUS\t\t \t-9.99\tUSD\n"
        let footer = "Total_Rows\t\(2 * pairs)\nTotal_Amount\t\(Micros.format(Int64(pairs) * 13_980_000))\nTotal_Units\t\(3 * pairs)\n"
        return Data((header + "\n" + String(repeating: sale + refund, count: pairs) + footer).utf8)
    }

    @Test func aFinancialReportOfMoreThan20MiBImportsEveryRow() throws {
        let harness = try ImportHarness("apple_financial_streaming")
        let pairs = 110_000
        let data = Self.bigFinancial(pairs: pairs)
        #expect(data.count > 20 << 20)
        try data.write(to: harness.folder.appendingPathComponent("85000000_1125_US.txt"))
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        #expect(counts["files_imported"] == 1 && counts["rows_loaded"] == 2 * pairs, "\(line)")
        let staged = try #require(try harness.database.query("""
            SELECT count(*)::int8 AS n, sum(extended_partner_share_micros)::int8 AS amount, sum(quantity)::int8 AS units,
                   f.row_count::int8 AS row_count, f.content_sha256, f.period
            FROM apple_financial_row r JOIN report_file f ON f.id = r.report_file_id GROUP BY f.id
            """).first)
        #expect(try staged.decode(Int64.self, "n") == Int64(2 * pairs))
        #expect(try staged.decode(Int64.self, "row_count") == Int64(2 * pairs))
        #expect(try staged.decode(Int64.self, "amount") == Int64(pairs) * 13_980_000)
        #expect(try staged.decode(Int64.self, "units") == Int64(2 * pairs))
        #expect(try staged.decode(String.self, "content_sha256") == SHA256Digest.hex([UInt8](data)))
    }

    @Test func aFinancialReportRenamedToAnotherPeriodIsRefusedAtItsFirstRowWithNothingStaged() throws {
        let harness = try ImportHarness("apple_financial_period")
        try Self.bigFinancial(pairs: 3).write(to: harness.folder.appendingPathComponent("85000000_1025_US.txt"))
        let (code, counts, line) = try harness.run()
        #expect(code == .failed && counts["files_rejected"] == 1, "\(line)")
        #expect(line.contains("85000000_1025_US.txt:2:1: row dated 2025-11-02…2025-11-29 is outside"), "\(line)")
        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_financial_row") == 0)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file") == 0)
    }
}

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
/// Apple financial report, still read whole, is refused past its size limit.
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

    @Test func aFinancialReportOverTheWholeFileLimitIsRefused() throws {
        let harness = try ImportHarness("apple_whole_file_limit")
        let path = harness.folder.appendingPathComponent("85000000_1125_ZZ.txt")
        let line = String(repeating: "x", count: 1_000) + "\n"
        try Data(String(repeating: line, count: ReportReader.wholeFileLimit / line.utf8.count + 10).utf8).write(to: path)
        let file = try #require(try ReportFileFinder.find([path.path]).reports.first)
        #expect(file.kind == .appleFinancial)
        do {
            _ = try ReportReader.read(file)
            Issue.record("a financial report over the limit was read")
        } catch let error as StoreReportError {
            #expect(error.file == "85000000_1125_ZZ.txt" && error.reason.hasPrefix("content larger than 8388608 bytes"), "\(error)")
        }
    }
}

import Foundation
import JobKit
import Postgres
import ReportImport
import StoreExports
import Testing

/// A report file is imported whole or not at all (issue 27): a file that changes while it is read is refused, a
/// replacement with fewer rows than the file it replaces (a truncated download's signature) is refused unless
/// `--allow-shrink` (then audited with both row counts), and a report is its kind and key, not its bytes.
@Suite(.serialized) struct ReportIntegrityTests {
    static let subscriber = "Subscriber_85000000_20251103.txt"

    @Test func aFileThatChangesWhileItIsReadIsRefused() throws {
        let harness = try ImportHarness("changed_during_read")
        try harness.add("good/" + Self.subscriber)
        let path = harness.folder.appendingPathComponent(Self.subscriber)
        let file = try #require(try ReportFileFinder.find([path.path]).reports.first)
        // Unchanged: read as it is.
        #expect(try ReportReader.read(file).rowCount == 4)
        // Appended to while it was read (a download still running), and replaced by a new file of the same size.
        let original = try Data(contentsOf: path)
        let changes: [(String, () throws -> Void)] = [
            ("grown", { let handle = try FileHandle(forWritingTo: path); try handle.seekToEnd(); try handle.write(contentsOf: Data("x".utf8)); try handle.close() }),
            ("replaced", { try FileManager.default.removeItem(at: path); try original.write(to: path) }),
        ]
        for (what, change) in changes {
            try original.write(to: path)
            do {
                _ = try ReportReader.read(file, afterReading: change)
                Issue.record("\(what): a file changed during the read was accepted")
            } catch let error as StoreReportError {
                #expect(error.file == Self.subscriber && error.line == 1, "\(what): \(error)")
                #expect(error.reason.contains("the file changed while it was read"), "\(what): \(error)")
            }
        }
    }

    @Test func aTruncatedReplacementIsRefusedUnlessAllowedAndThenAudited() throws {
        let harness = try ImportHarness("shrink")
        try harness.add("good/" + Self.subscriber)
        #expect(try harness.run().0 == .succeeded)
        let before = try harness.digest()
        let path = harness.folder.appendingPathComponent(Self.subscriber)
        let lines = try String(contentsOf: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        try (lines.prefix(2).joined(separator: "\n") + "\n").write(to: path, atomically: true, encoding: .utf8)

        let (dryCode, dryCounts, dryLine) = try harness.run(["--dry-run"])
        #expect(dryCode == .failed && dryCounts["files_shrinking"] == 1, "\(dryLine)")
        let (code, counts, line) = try harness.run()
        #expect(code == .failed, "\(line)")
        #expect(counts["files_shrinking"] == 1 && counts["files_replaced"] == nil, "\(line)")
        #expect(line.contains("with 1 rows instead of 4") && line.contains("--allow-shrink"), "\(line)")
        #expect(try harness.digest() == before, "nothing written")

        let (allowed, allowedCounts, allowedLine) = try harness.run(["--allow-shrink"])
        #expect(allowed == .succeeded && allowedCounts["files_replaced"] == 1, "\(allowedLine)")
        let audit = try #require(try harness.database.query("""
            SELECT (detail->>'rows')::int8 AS rows, (detail->>'previous_rows')::int8 AS previous, (detail->>'allowed_shrink')::bool AS shrink
            FROM audit_log WHERE action = 'replace_report_file'
            """).first)
        #expect(try audit.decode(Int64.self, "rows") == 1 && audit.decode(Int64.self, "previous") == 4)
        #expect(try audit.decode(Bool.self, "shrink"))
        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_subscriber_row") == 1)
    }

    @Test func identicalBytesUnderTwoReportKeysAreTwoReports() throws {
        let harness = try ImportHarness("same_bytes")
        try harness.add("good/" + Self.subscriber)
        try harness.add("good/" + Self.subscriber, as: "Subscriber_85000000_20251104.txt")
        let (dryCode, dryCounts, dryLine) = try harness.run(["--dry-run"])
        #expect(dryCode == .succeeded && dryCounts["files_imported"] == 2, "\(dryLine)")
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded && counts["files_imported"] == 2 && counts["files_unchanged"] == nil, "\(line)")
        #expect(try harness.scalar("SELECT count(DISTINCT report_key) AS n FROM report_file") == 2)
        #expect(try harness.scalar("SELECT count(DISTINCT content_sha256) AS n FROM report_file") == 1)
        #expect(try harness.scalar("SELECT count(*) AS n FROM apple_subscriber_row") == 8)
        // Again: both unchanged.
        let (againCode, again, againLine) = try harness.run()
        #expect(againCode == .succeeded && again["files_unchanged"] == 2 && again["files_imported"] == nil, "\(againLine)")
    }
}

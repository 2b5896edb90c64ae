import Foundation
import JobKit
@testable import ReportImport
import StoreExports
import Testing

/// The nightly rerun's first look at a Google earnings file is the hash of its bytes (`KeptReportFile.firstLook`),
/// not of its decompressed content: a file whose bytes the report holds is a no-op without another read; the hash
/// also spares the staging its own hashing read, so a file that changes after the first look is refused; a report
/// staged before migration 0033 (no kept bytes) is looked at by its content's hash, as before.
@Suite(.serialized) struct GoogleEarningsFirstLookTests {
    static let name = "earnings_201911_1234567890123-0.csv"
    static let sequence = "SELECT last_value AS n FROM report_file_id_seq"

    func staged(_ label: String) throws -> (ImportHarness, String) {
        let harness = try ImportHarness(label)
        let target = harness.folder.appendingPathComponent(Self.name)
        try FileManager.default.copyItem(at: GoogleEarningsStagingTests.earningsFixture(Self.name), to: target)
        let loader = ReportLoader(database: harness.database, actor: "test")
        let outcome = try loader.loadGoogleEarnings(target.path, kept: KeptReportFile.firstLook(target.path)).outcome
        #expect(outcome != .unchanged)
        try GoogleEarningsStagingTests.expectKeptBytes(harness, files: [target])
        return (harness, target.path)
    }

    @Test func theBytesHashIsTheFirstLookAndKeepsTheSameBytes() throws {
        let (harness, path) = try staged("earnings_first_look")
        let look = try #require(KeptReportFile.firstLook(path))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(look.size == Int64(bytes.count))
        let keptHash = try #require(try harness.database.query(
            "SELECT '\\x' || encode(kept_sha256, 'hex') AS h FROM report_file WHERE file_name = $1", [Self.name]).first).decode(String.self, "h")
        #expect(keptHash == KeptReportFile.hexLiteral(look.sha256))
        let digest = try harness.digest()
        let drawn = try harness.scalar(Self.sequence)
        let loader = ReportLoader(database: harness.database, actor: "test")
        #expect(try loader.loadGoogleEarnings(path, kept: look).outcome == .unchanged)
        #expect(try harness.scalar(Self.sequence) == drawn, "an unchanged file drew a file id")
        #expect(try harness.digest() == digest)
    }

    @Test func aFileChangedAfterTheFirstLookIsRefused() throws {
        let harness = try ImportHarness("earnings_first_look_changed")
        let target = harness.folder.appendingPathComponent(Self.name)
        try FileManager.default.copyItem(at: GoogleEarningsStagingTests.earningsFixture(Self.name), to: target)
        let look = try #require(KeptReportFile.firstLook(target.path))
        // Its last row once more at the end: the content stages, the bytes are not the ones looked at.
        let bytes = try Data(contentsOf: target)
        let lastRow = bytes.dropLast().lastIndex(of: 0x0A).map { bytes[($0 + 1)...] } ?? Data()
        #expect(!lastRow.isEmpty)
        try (bytes + lastRow).write(to: target)
        let loader = ReportLoader(database: harness.database, actor: "test")
        var refusal: StoreReportError?
        do { _ = try loader.loadGoogleEarnings(target.path, kept: look) } catch let error as StoreReportError { refusal = error }
        #expect(refusal?.reason.contains("the file changed while it was read") == true, "\(String(describing: refusal))")
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file") == 0)
        #expect(try harness.scalar("SELECT count(*) AS n FROM google_earnings_fact") == 0)
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file_content") == 0)
        // Looked at again, it stages.
        #expect(try loader.loadGoogleEarnings(target.path, kept: KeptReportFile.firstLook(target.path)).outcome != .unchanged)
        try GoogleEarningsStagingTests.expectKeptBytes(harness, files: [target])
    }

    @Test func aReportStagedBeforeKeptBytesIsLookedAtByItsContent() throws {
        let (harness, path) = try staged("earnings_first_look_legacy")
        _ = try harness.database.execute("UPDATE report_file SET kept_sha256 = NULL, kept_size = NULL")
        let drawn = try harness.scalar(Self.sequence)
        let loader = ReportLoader(database: harness.database, actor: "test")
        #expect(try loader.loadGoogleEarnings(path, kept: KeptReportFile.firstLook(path)).outcome == .unchanged)
        #expect(try harness.scalar(Self.sequence) == drawn, "a file staged before kept bytes was staged again")
    }
}

import Foundation
import JobKit
import ReportImport
import Testing

/// `import-exports --reports-dir` exits 0 only when it had report files to import: a folder that does not exist, is
/// empty or holds only files it does not import exits 3 saying what it found; symbolic links inside (and as) the
/// folder are followed, each real folder once.
@Suite(.serialized) struct NothingToImportTests {
    @Test func aFolderThatDoesNotExistExitsThree() throws {
        let harness = try ImportHarness("nothing_missing")
        let missing = harness.folder.appendingPathComponent("no-such-folder").path
        let (code, _, line) = try harness.run(["--reports-dir", missing], folder: false)
        #expect(code == .thresholdBreached, "\(line)")
        #expect(line.contains("nothing done") && line.contains("no such file or folder: \(missing)"), "\(line)")
    }

    @Test func anEmptyFolderExitsThree() throws {
        let harness = try ImportHarness("nothing_empty")
        let (code, _, line) = try harness.run()
        #expect(code == .thresholdBreached, "\(line)")
        #expect(line.contains("no importable report file under \(harness.folder.path): found no files"), "\(line)")
    }

    @Test func onlyReportsOfUnknownKindsExitThreeNamingEach() throws {
        let harness = try ImportHarness("nothing_unknown")
        for name in ["Subscription_Offer_Code_85012345_20261130_V1_3.txt", "Winback_Eligibility_Report_85012345_20261130_V1_0.txt",
                     "notes.pdf"] {
            try Data("x\n".utf8).write(to: harness.folder.appendingPathComponent(name))
        }
        let (code, counts, line) = try harness.run()
        #expect(code == .thresholdBreached, "\(line)")
        #expect(counts["files_ignored"] == 3, "\(line)")
        #expect(line.contains("0 importable file(s); 3 other file(s)"), "\(line)")
        #expect(line.contains("Subscription_Offer_Code_85012345_20261130_V1_3.txt (Apple Subscription Offer Code Redemption report, not imported)"),
                "\(line)")
        #expect(line.contains("Winback_Eligibility_Report_85012345_20261130_V1_0.txt (Apple Win-back Eligibility report, not imported)"),
                "\(line)")
        #expect(line.contains("notes.pdf (not a report file name)"), "\(line)")
    }

    /// Decided: unknown kinds beside importable files are a warning (listed in the `files_ignored` note), not exit 3 —
    /// the importable files were imported.
    @Test func unknownKindsBesideReportsAreListedAndTheRunSucceeds() throws {
        let harness = try ImportHarness("unknown_beside")
        try harness.add("good/85000000_1125_ZZ.txt")
        try Data("x\n".utf8).write(to: harness.folder.appendingPathComponent("Subscription_Offer_Code_85012345_20261130_V1_3.txt"))
        let (code, counts, line) = try harness.run()
        #expect(code == .succeeded, "\(line)")
        #expect(counts["files_imported"] == 1 && counts["files_ignored"] == 1, "\(line)")
        #expect(line.contains("Subscription_Offer_Code_85012345_20261130_V1_3.txt (Apple Subscription Offer Code Redemption report, not imported)"),
                "\(line)")
    }

    @Test func aSymlinkedFolderIsFollowed() throws {
        let harness = try ImportHarness("symlinked_root")
        try harness.add("good/85000000_1125_ZZ.txt")
        let link = harness.folder.deletingLastPathComponent().appendingPathComponent("report-import-link-\(getpid())")
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: harness.folder)
        defer { try? FileManager.default.removeItem(at: link) }
        let (code, counts, line) = try harness.run(["--reports-dir", link.path], folder: false)
        #expect(code == .succeeded, "\(line)")
        #expect(counts["files_imported"] == 1, "\(line)")
    }

    @Test func symlinkedSubfoldersAreFollowedOnceWithALoopGuard() throws {
        let harness = try ImportHarness("symlinked_sub")
        let real = harness.folder.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try harness.add("good/85000000_1125_ZZ.txt", as: "real/85000000_1125_ZZ.txt")
        let top = harness.folder.appendingPathComponent("top")
        try FileManager.default.createDirectory(at: top, withIntermediateDirectories: true)
        // top/apple -> ../real (a symlinked sub-folder); real/again -> .. (a loop back up to the root).
        try FileManager.default.createSymbolicLink(atPath: top.appendingPathComponent("apple").path, withDestinationPath: "../real")
        try FileManager.default.createSymbolicLink(atPath: real.appendingPathComponent("again").path, withDestinationPath: "..")
        let (code, counts, line) = try harness.run(["--reports-dir", top.path], folder: false)
        #expect(code == .succeeded, "\(line)")
        #expect(counts["files_imported"] == 1, "\(line)")
        #expect(try harness.scalar("SELECT count(*) AS n FROM report_file") == 1)
        let found = try ReportFileFinder.find([harness.folder.path])
        #expect(found.reports.count == 1, "each real folder is searched once: \(found.reports)")
        #expect(!found.loopsSkipped.isEmpty)
    }
}

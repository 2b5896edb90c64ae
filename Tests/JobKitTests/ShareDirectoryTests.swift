import Foundation
import JobKit
import Testing

/// Where a job finds its run-time files: from its own location, never from the working directory.
@Suite struct ShareDirectoryTests {
    static func scratch(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("share-dir-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func anInstalledBinaryReadsItsPrefixsShareFolder() throws {
        let prefix = try Self.scratch("installed")
        defer { try? FileManager.default.removeItem(at: prefix) }
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("share/iap-pipeline/migrations"), withIntermediateDirectories: true)
        let share = try ShareDirectory.locate(executable: prefix.appendingPathComponent("bin/migrate"), environment: [:])
        #expect(share.migrations.path == prefix.appendingPathComponent("share/iap-pipeline/migrations").path)
        #expect(share.reports.path == prefix.appendingPathComponent("share/iap-pipeline/reports").path)
        #expect(share.buildCommit.path == prefix.appendingPathComponent("share/iap-pipeline/BUILD_COMMIT").path)
    }

    @Test func aBuildFolderBinaryReadsTheSourceTree() throws {
        let share = try ShareDirectory.locate(executable: URL(fileURLWithPath: "/src/repo/.build/x86_64-unknown-linux-gnu/debug/migrate"),
                                              environment: [:])
        #expect(share.migrations.path == "/src/repo/SQL/migrations")
        #expect(share.reports.path == "/src/repo/Reports")
        #expect(share.buildCommit.path == "/src/repo/.build/BUILD_COMMIT")
        // This test process is such a binary: the tree's real migrations are found.
        #expect(FileManager.default.fileExists(atPath: try ShareDirectory.current(environment: [:]).migrations
            .appendingPathComponent("0001_domain_enums.sql").path))
    }

    @Test func theOverrideWinsAndAnUnknownLayoutNamesWhereItLooked() throws {
        let share = try ShareDirectory.locate(executable: URL(fileURLWithPath: "/src/repo/.build/debug/migrate"),
                                              environment: ["IAP_SHARE_DIR": "/etc/iap/share"])
        #expect(share.reports.path == "/etc/iap/share/reports")
        #expect {
            try ShareDirectory.locate(executable: URL(fileURLWithPath: "/usr/local/bin/migrate"), environment: [:])
        } throws: { error in
            let text = String(describing: error)
            return text.contains("/usr/local/share/iap-pipeline") && text.contains("IAP_SHARE_DIR")
        }
    }

    @Test func versionNamesTheBuildCommit() throws {
        let share = try Self.scratch("commit")
        defer { try? FileManager.default.removeItem(at: share) }
        try "0123abc\n".write(to: share.appendingPathComponent("BUILD_COMMIT"), atomically: true, encoding: .utf8)
        #expect(PipelineVersion.description(environment: ["IAP_SHARE_DIR": share.path]) == "\(PipelineVersion.string) (commit 0123abc)")
        #expect(PipelineVersion.commit(environment: ["IAP_SHARE_DIR": share.appendingPathComponent("absent").path]) == "unknown")
    }
}

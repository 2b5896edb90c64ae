import Foundation
import JobKit
import Postgres
import Testing

/// A key file where a report file was expected (here a symlink named like an Apple financial report, pointing at a
/// made-up PEM key): import-exports refuses it, and neither its summary line nor `job_run.error` quotes a line of it.
@Suite(.serialized) struct MisplacedSecretFileTests {
    @Test func aKeyFileNamedLikeAReportIsRefusedWithoutEchoingIt() throws {
        let harness = try ImportHarness("misplaced_key")
        let key = try HostileReportContentTests.storeFixture("malformed/afr-key-file.txt")
        let keyFile = harness.folder.deletingLastPathComponent().appendingPathComponent("misplaced-key-\(getpid()).pem")
        try Data(key).write(to: keyFile)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        try FileManager.default.createSymbolicLink(at: harness.folder.appendingPathComponent("85000000_1125_ZZ.txt"),
                                                   withDestinationURL: keyFile)
        let (code, counts, line) = try harness.run()
        #expect(code != .succeeded && (counts["files_imported"] ?? 0) == 0, "\(line)")
        let error = try harness.database.query("SELECT coalesce(error, '') AS error FROM job_run ORDER BY id DESC LIMIT 1").first?
            .decode(String.self, "error") ?? ""
        for text in [line, error] {
            #expect(!text.contains("BEGIN") && !text.contains("PRIVATE KEY"), "\(text)")
            for keyLine in String(decoding: key, as: UTF8.self).split(separator: "\n") where keyLine.count > 8 {
                #expect(!text.contains(keyLine.dropFirst(4).prefix(12)), "\(text)")
            }
        }
    }
}

import Foundation
import Postgres
import Testing
import WorldGen

/// A real job process (requery-at-risk) refuses a key file group or others can read: exit 2, the summary names the variable and the
/// file, and neither the summary nor the log carries the key; the same file at mode 0600 runs.
@Suite(.serialized) struct SecretFileProcessTests {
    @Test func aWorldReadableKeyFileStopsTheJobWithExitTwo() throws {
        let options = WorldOptions(seed: 131, subscriptions: 40, months: 2, appleShare: 0.5, testShare: 0)
        let harness = try RequeryHarness(name: "secret_file_mode", options: options, systemClock: true)
        defer { harness.server.stop(); harness.database.close() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("secret-file-mode-\(getpid())")
        let job = try JobProcess("requery-at-risk", harness: harness, folder: folder)
        try #require(job.isBuilt, "build the jobs first (make test does)")
        let keyPath = try #require(job.environment["APPLE_PRIVATE_KEY_FILE"])
        let keyText = try String(contentsOfFile: keyPath, encoding: .utf8)
        let keyBody = try #require(keyText.split(separator: "\n").dropFirst().first.map(String.init))
        let arguments = ["--as-of", PostgresTimestamp.iso8601(options.asOf), "--fresh-hours", "0", "--threads", "2"]

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyPath)
        let refused = try job.run(arguments, logs: folder, tag: "open")
        #expect(refused.status == 2, "\(refused.summary)")
        #expect(refused.summary.contains("APPLE_PRIVATE_KEY_FILE") && refused.summary.contains(keyPath) && refused.summary.contains("0644"))
        let log = try String(contentsOf: folder.appendingPathComponent("open.err"), encoding: .utf8)
        for text in [refused.summary, log] {
            #expect(!text.contains(keyBody) && !text.contains("BEGIN PRIVATE KEY"), "key material must never be printed")
        }

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyPath)
        let accepted = try job.run(arguments, logs: folder, tag: "closed")
        #expect(accepted.status == 0, "\(accepted.summary)")
    }
}

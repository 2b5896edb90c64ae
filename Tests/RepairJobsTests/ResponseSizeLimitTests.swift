import Foundation
import Postgres
import Testing
import WorldGen

/// `STORE_MAX_RESPONSE_BYTES`: a job process whose store pads every answer past the limit aborts each transfer while it
/// arrives, counts the calls as failed, writes nothing and stays small in memory.
@Suite(.serialized) struct ResponseSizeLimitTests {
    @Test func oversizedAnswersAreFailedCallsAndWriteNothing() throws {
        var options = WorldOptions(seed: 73, subscriptions: 30, months: 3, testShare: 0)
        options.asOf = recentAsOf()
        let harness = try RequeryHarness(name: "size_limit", options: options, storeFaults: "oversized=1,oversized-bytes=6000000",
                                         clientTimeout: 5, systemClock: true)
        defer { harness.server.stop(); harness.database.close() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("size-limit-\(getpid())")
        let before = try StateDigest(harness.database, excluding: ["drift_event"])
        let job = try JobProcess("requery-at-risk", harness: harness, folder: folder, extra: ["STORE_MAX_RESPONSE_BYTES": "1000000"])
        try #require(job.isBuilt, "build the jobs first (make test does)")
        let process = try job.start(["--as-of", PostgresTimestamp.iso8601(options.asOf), "--fresh-hours", "0", "--run-key", "size-limit"],
                                    logs: folder, tag: "requery")
        var peak = 0
        while process.isRunning {
            peak = max(peak, PeakMemory.highWaterKiB(of: process.processIdentifier) ?? 0)
            Thread.sleep(forTimeInterval: 0.005)
        }
        process.waitUntilExit()
        let summary = (try? String(contentsOf: folder.appendingPathComponent("requery.out"), encoding: .utf8)) ?? ""
        let logs = (try? String(contentsOf: folder.appendingPathComponent("requery.err"), encoding: .utf8)) ?? ""
        // The run completed and left every selected item failed for the next run: exit 3, the failures counted by kind.
        #expect(process.terminationStatus == 3, "\(summary)")
        let object = try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any]
        let counts = object?["counts"] as? [String: Any]
        let selected = counts?["selected"] as? Int ?? 0
        #expect(selected > 0 && counts?["failed"] as? Int == selected, "every call failed and is counted: \(summary)")
        #expect(counts?["failed.too_large"] as? Int == selected, "the failures' kind is the size limit: \(summary)")
        #expect((object?["error"] as? String)?.contains("commonest errors: too_large \(selected)") == true, "\(summary)")
        #expect(logs.contains("response_too_large") || logs.contains("byte limit"), "the failure names the limit")
        #expect(harness.injectedFaults["oversized", default: 0] > 0, "\(harness.injectedFaults)")
        #expect(peak < 64 * 1024, "peaked at \(peak) KiB")
        let unchanged = try StateDigest(harness.database, excluding: ["drift_event"]).differences(from: before)
        #expect(unchanged.isEmpty, "nothing written from an aborted answer: \(unchanged)")
    }
}

import Foundation
import Postgres
import Testing
import WorldGen

/// recover-notifications as a process off a terminal (stderr to a file, as under systemd or cron): its 170-day
/// backfill reports progress as JSON records on stderr (hours of the window covered of the total, rate, ETA), the
/// count never goes back, and the last record is final with the whole window covered.
extension RecoverNotificationsTests {
    @Test func theBackfillReportsProgressAsJSONRecordsOnStderr() throws {
        var options = WorldOptions(seed: 53, subscriptions: 200, months: 5, appleShare: 0.8, testShare: 0)
        options.faultShares = [.appleNotificationNotStored: 0.08]
        let harness = try RequeryHarness(name: "repair_recover_progress", options: options, systemClock: true)
        defer { harness.server.stop(); harness.database.close() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recover-progress-\(UUID().uuidString)")
        let job = try JobProcess("recover-notifications", harness: harness, folder: folder, extra: ["JOB_PROGRESS_SECONDS": "0.05"])
        try #require(job.isBuilt, "build the jobs first (swift build --build-tests)")
        let since = PostgresTimestamp.iso8601(options.asOf.addingTimeInterval(-170 * 86_400))
        let (status, summary) = try job.run(["--as-of", PostgresTimestamp.iso8601(options.asOf), "--since", since], logs: folder, tag: "recover")
        #expect(status == 0, "\(summary)")
        let stderr = try String(contentsOf: folder.appendingPathComponent("recover.err"), encoding: .utf8)
        let records = stderr.split(separator: "\n").compactMap { line -> [String: Any]? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["message"] as? String == "progress" else { return nil }
            return object
        }
        try #require(records.count >= 2, "progress records on stderr:\n\(stderr.prefix(2_000))")
        for record in records {
            #expect(record["job"] as? String == "recover-notifications")
            #expect(record["unit"] as? String == "hours of window")
            #expect((record["total"] as? Int ?? 0) >= 170 * 24)
            #expect(record["rate_per_second"] is Double || record["rate_per_second"] is Int)
            #expect(record["elapsed_seconds"] != nil && record["eta_seconds"] != nil)
        }
        let done = records.compactMap { $0["done"] as? Int }
        #expect(done == done.sorted(), "the hours covered never go back: \(done)")
        let last = try #require(records.last)
        #expect(last["final"] as? Bool == true)
        #expect(last["done"] as? Int == last["total"] as? Int, "the whole window was covered")
        #expect(records.dropLast().allSatisfy { $0["final"] as? Bool == false })
    }
}

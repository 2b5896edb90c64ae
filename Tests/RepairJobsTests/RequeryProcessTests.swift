import Foundation
import Postgres
import StoreSimulator
import Testing
import WorldGen

/// requery-at-risk as real processes configured by environment, against the simulator over loopback: a `kill -9`
/// at a random point, and three processes sharing rate limits at 50 requests/s.
@Suite(.serialized) struct RequeryProcessTests {
    static func logs(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("requery-process-\(name)-\(getpid())")
    }

    @Test func killNineAtARandomPointThenARerunEndsInTheStateOfAnUninterruptedRun() throws {
        var options = WorldOptions(seed: 79, subscriptions: 700, months: 6, testShare: 0.03)
        options.faultShares = [.missedNotification: 0.05, .stalePrice: 0.05, .refundNotReflected: 0.05, .acknowledgementNotRecorded: 0.05]
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        // Small leases so the rerun takes over the killed process's claims after 2 s.
        let arguments = ["--as-of", asOf, "--fresh-hours", "0", "--threads", "2", "--batch-size", "5", "--lease-seconds", "2"]

        let reference = try RequeryHarness(name: "kill_reference", options: options, systemClock: true)
        defer { reference.server.stop(); reference.database.close() }
        let referenceJob = try JobProcess("requery-at-risk", harness: reference, folder: Self.logs("reference"))
        try #require(referenceJob.isBuilt, "build the jobs first (make test does)")
        let uninterrupted = try referenceJob.run(arguments, logs: Self.logs("reference"), tag: "run")
        #expect(uninterrupted.status == 0, "\(uninterrupted.summary)")
        let expected = try ChainState.dump(reference.database)

        let harness = try RequeryHarness(name: "kill_interrupted", options: options, systemClock: true)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let job = try JobProcess("requery-at-risk", harness: harness, folder: Self.logs("killed"))
        let total = try RepairCheck.int(reference.database, "SELECT count(*)::int AS n FROM requery_work_item")
        let killAfter = Int.random(in: 1...(total / 2))
        let process = try job.start(arguments, logs: Self.logs("killed"), tag: "killed")
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline,
              try RepairCheck.int(db, "SELECT count(*)::int AS n FROM requery_work_item WHERE state = 'done'") < killAfter {
            Thread.sleep(forTimeInterval: 0.005)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "killed after \(killAfter) of \(total) items")
        let unfinished = try RepairCheck.int(db, "SELECT count(*)::int AS n FROM requery_work_item WHERE state <> 'done'")
        #expect(unfinished > 0, "the kill landed mid-run")
        print("kill -9 after \(killAfter) of \(total) items; \(unfinished) unfinished")

        Thread.sleep(forTimeInterval: 2.5)
        let rerun = try job.run(arguments, logs: Self.logs("killed"), tag: "rerun")
        #expect(rerun.status == 0, "\(rerun.summary)")
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM requery_work_item WHERE state <> 'done'") == 0)
        let differences = ChainState.differences(expected, try ChainState.dump(db))
        #expect(differences.isEmpty, "the interrupted run and its rerun differ from an uninterrupted run: \(differences)")
    }

    @Test func threeProcessesUnderFiftyPerSecondLimitsGetNo429sAndQueryEachSubscriptionOnce() throws {
        let options = WorldOptions(seed: 83, subscriptions: 700, months: 6, testShare: 0.03)
        let limits = RateLimitConfiguration(enabled: true, overrides: [.appleSubscriptionStatuses: RateLimit(perSecond: 50),
                                                                       .googleSubscriptionGet: RateLimit(perSecond: 50)])
        let harness = try RequeryHarness(name: "three_processes", options: options, limits: limits, systemClock: true)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        // The clients aim 5 % under the store's limit, with a burst of 4, through one bucket per endpoint in PostgreSQL.
        let job = try JobProcess("requery-at-risk", harness: harness, folder: Self.logs("three"),
                                 rateLimits: "apple.getAllSubscriptionStatuses=47.5/4,google.subscriptionsv2.get=47.5/4")
        try #require(job.isBuilt, "build the jobs first (make test does)")
        let arguments = ["--as-of", PostgresTimestamp.iso8601(options.asOf), "--fresh-hours", "0", "--threads", "2", "--batch-size", "5"]
        let started = Date()
        let processes = try (0..<3).map { try job.start(arguments, logs: Self.logs("three"), tag: "p\($0)") }
        for process in processes { process.waitUntilExit() }
        let elapsed = Date().timeIntervalSince(started)
        #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "exit codes \(processes.map(\.terminationStatus))")

        let counters = harness.simulator.counters
        #expect(counters.rateLimited == 0, "the simulator answered 429 \(counters.rateLimited) times")
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query WHERE outcome = 'rate_limited'") == 0)
        let perEndpoint = try db.query("""
            SELECT endpoint, count(*)::int AS n, count(DISTINCT subscription_id)::int AS subscriptions FROM store_query
            WHERE endpoint IN ('apple.getAllSubscriptionStatuses', 'google.subscriptionsv2.get') GROUP BY 1 ORDER BY 1
            """).rows.map { (try $0.decode(String.self, "endpoint"), try $0.decode(Int.self, "n"), try $0.decode(Int.self, "subscriptions")) }
        for (endpoint, calls, subscriptions) in perEndpoint {
            #expect(calls == subscriptions, "\(endpoint): \(calls) calls for \(subscriptions) subscriptions")
        }
        let busiest = perEndpoint.map(\.1).max() ?? 0
        #expect(busiest > 250, "enough calls to exercise the limit: \(perEndpoint)")
        #expect(elapsed >= Double(busiest - 50) / 50, "\(busiest) calls at 50/s cannot finish in \(elapsed) s")
        let workers = try RepairCheck.int(db, "SELECT count(DISTINCT split_part(claimed_by, '/', 1))::int AS n FROM requery_work_item")
        #expect(workers == 3, "all three processes took work")
        print("three processes: \(perEndpoint) in \(String(format: "%.1f", elapsed)) s, 429s: \(counters.rateLimited)")
    }
}

import Foundation
import Postgres
import RateLimiting
import StoreSimulator
import Testing
import WorldGen

/// requery-at-risk as real processes configured by environment, against the simulator over loopback: a `kill -9`
/// at a random point, and three processes sharing rate limits at 50 requests/s.
@Suite(.serialized) struct RequeryProcessTests {
    static func logs(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("requery-process-\(name)-\(getpid())")
    }

    /// A world whose simulator limits the two re-query endpoints to 50 requests/s, and a requery-at-risk process whose
    /// clients aim 5 % under that, with a burst of 4, through one bucket per endpoint in PostgreSQL; and its arguments.
    static func atFiftyPerSecond(_ name: String, options: WorldOptions) throws -> (RequeryHarness, JobProcess, [String]) {
        let limits = RateLimitConfiguration(enabled: true, overrides: [.appleSubscriptionStatuses: RateLimit(perSecond: 50),
                                                                       .googleSubscriptionGet: RateLimit(perSecond: 50)])
        let harness = try RequeryHarness(name: name, options: options, limits: limits, systemClock: true)
        let job = try JobProcess("requery-at-risk", harness: harness, folder: logs(name),
                                 rateLimits: "apple.getAllSubscriptionStatuses=47.5/4,google.subscriptionsv2.get=47.5/4")
        try #require(job.isBuilt, "build the jobs first (make test does)")
        let arguments = ["--as-of", PostgresTimestamp.iso8601(options.asOf), "--fresh-hours", "0", "--threads", "2", "--batch-size", "5"]
        return (harness, job, arguments)
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
        let (harness, job, arguments) = try Self.atFiftyPerSecond("three", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
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

    @Test func sigtermFinishesTheRequestsInFlightAndLeavesTheRestForTheNextRun() throws {
        let options = WorldOptions(seed: 89, subscriptions: 500, months: 6, testShare: 0)
        let (harness, job, arguments) = try Self.atFiftyPerSecond("sigterm", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let process = try job.start(arguments, logs: Self.logs("sigterm"), tag: "run")
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline,
              try RepairCheck.int(db, "SELECT count(*)::int AS n FROM requery_work_item WHERE state = 'done'") < 40 {
            Thread.sleep(forTimeInterval: 0.01)
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let summary = (try? String(contentsOf: Self.logs("sigterm").appendingPathComponent("run.out"), encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0 && summary.contains("\"stopped\""), "exit \(process.terminationStatus): \(summary)")
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM requery_work_item WHERE state = 'claimed'") == 0,
                "claims not started were handed back")
        let pending = try RepairCheck.int(db, "SELECT count(*)::int AS n FROM requery_work_item WHERE state = 'pending'")
        #expect(pending > 0, "the stop landed mid-run")
        // What was finished is committed: each done item's subscription was queried and verified once.
        let unverifiedDone = try RepairCheck.int(db, """
            SELECT count(*)::int AS n FROM requery_work_item w JOIN subscription s ON s.id = w.subscription_id
            WHERE w.state = 'done' AND s.last_verified_at IS DISTINCT FROM $1::timestamptz
            """, [options.asOf])
        #expect(unverifiedDone == 0)

        let rerun = try job.run(arguments, logs: Self.logs("sigterm"), tag: "rerun")
        #expect(rerun.status == 0, "\(rerun.summary)")
        #expect(try RepairCheck.int(db, "SELECT count(*)::int AS n FROM requery_work_item WHERE state <> 'done'") == 0)
        #expect(rerun.summary.contains("\"queried\":\(pending)"), "the rerun queried exactly what was left: \(rerun.summary)")
    }

    @Test func anExhaustedDailyBudgetStopsCallsToThatStoreAndTheOtherStoreFinishes() throws {
        let options = WorldOptions(seed: 97, subscriptions: 300, months: 6, testShare: 0)
        let harness = try RequeryHarness(name: "budget", options: options, systemClock: true)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let job = try JobProcess("requery-at-risk", harness: harness, folder: Self.logs("budget"),
                                 rateLimits: "apple.getAllSubscriptionStatuses.daily=25")
        try #require(job.isBuilt, "build the jobs first (make test does)")
        let arguments = ["--as-of", PostgresTimestamp.iso8601(options.asOf), "--fresh-hours", "0", "--threads", "2"]
        let run = try job.run(arguments, logs: Self.logs("budget"), tag: "run")
        #expect(run.status == 0, "\(run.summary)")
        #expect(run.summary.contains("stopped_store"), "\(run.summary)")
        let appleCalls = try RepairCheck.int(db, "SELECT count(*)::int AS n FROM store_query WHERE endpoint = 'apple.getAllSubscriptionStatuses'")
        #expect(appleCalls == 25, "exactly the budget was spent: \(appleCalls)")
        let appleLeft = try RepairCheck.int(db, """
            SELECT count(*)::int AS n FROM requery_work_item w JOIN subscription s ON s.id = w.subscription_id
            WHERE s.provider = 'APPLE' AND w.state = 'failed' AND w.last_error LIKE '%daily budget%'
            """)
        let appleItems = try RepairCheck.int(db, """
            SELECT count(*)::int AS n FROM requery_work_item w JOIN subscription s ON s.id = w.subscription_id WHERE s.provider = 'APPLE'
            """)
        #expect(appleLeft == appleItems - 25 && appleLeft > 0, "\(appleLeft) of \(appleItems) Apple items left for the next run")
        #expect(run.summary.contains("\"budget_exhausted\":\(appleLeft)"), "\(run.summary)")
        let googleUnfinished = try RepairCheck.int(db, """
            SELECT count(*)::int AS n FROM requery_work_item w JOIN subscription s ON s.id = w.subscription_id
            WHERE s.provider = 'GOOGLE' AND w.state <> 'done'
            """)
        #expect(googleUnfinished == 0, "Google has its own budget and finished")
        let warnings = (try? String(contentsOf: Self.logs("budget").appendingPathComponent("run.err"), encoding: .utf8))?
            .components(separatedBy: "daily budget used up").count ?? 0
        #expect(warnings - 1 <= 2, "one warning per worker at most, not one per item")
    }
}

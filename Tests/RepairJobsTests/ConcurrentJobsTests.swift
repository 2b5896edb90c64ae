import Foundation
import Postgres
import RateLimiting
import StoreSimulator
import Testing
import WorldGen

/// Four requery-at-risk processes, replay-events, sweep-voided and ack-rescue started at once on one world, against
/// a simulator enforcing rate limits: every process succeeds, a deadlock or serialization failure is retried (the
/// summaries' `conflict_retries`), no subscription is re-queried twice and no history row is written twice, the
/// simulator answers no 429, and the database ends as the same jobs run one after another leave it.
@Suite(.serialized) struct ConcurrentJobsTests {
    static func folder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("concurrent-\(getpid())/\(name)")
    }

    /// The jobs with their arguments: the three chain jobs, then requery-at-risk `requeryProcesses` times sharing one run key.
    static func jobs(_ asOf: Date, requeryProcesses: Int) -> [(String, [String])] {
        let at = PostgresTimestamp.iso8601(asOf)
        let requery = ["--as-of", at, "--fresh-hours", "0", "--threads", "2", "--batch-size", "5", "--run-key", "concurrent"]
        return [("replay-events", ["--as-of", at]), ("sweep-voided", ["--as-of", at]), ("ack-rescue", ["--as-of", at])]
            + Array(repeating: ("requery-at-risk", requery), count: requeryProcesses)
    }

    /// The simulator limits both re-query endpoints to 50 requests/s; the jobs aim 5 % under through shared buckets.
    static func harness(_ name: String, _ options: WorldOptions) throws -> RequeryHarness {
        let limits = RateLimitConfiguration(enabled: true, overrides: [.appleSubscriptionStatuses: RateLimit(perSecond: 50),
                                                                       .googleSubscriptionGet: RateLimit(perSecond: 50)])
        return try RequeryHarness(name: name, options: options, limits: limits, systemClock: true)
    }

    static let clientLimits = "apple.getAllSubscriptionStatuses=47.5/4,google.subscriptionsv2.get=47.5/4"

    @Test func sevenJobsAtOnceEndLikeTheSerialRunWithoutDoubleWritesOr429s() throws {
        let size = ProcessInfo.processInfo.environment["CONCURRENT_SUBSCRIPTIONS"].flatMap(Int.init) ?? 400
        var options = WorldOptions(seed: 61, subscriptions: size, months: 6, testShare: 0.03)
        options.faultShares = Dictionary(uniqueKeysWithValues: ProjectionFault.allCases.map { ($0, 0.05) })
        options.asOf = recentAsOf()

        // The serial run: the same jobs one after another (one requery-at-risk process does the whole run).
        let serial = try Self.harness("concurrent_serial", options)
        defer { serial.server.stop(); serial.database.close() }
        for (index, (name, arguments)) in Self.jobs(options.asOf, requeryProcesses: 1).enumerated() {
            let job = try JobProcess(name, harness: serial, folder: Self.folder("serial"), rateLimits: Self.clientLimits)
            try #require(job.isBuilt, "build the jobs first (make test does)")
            let run = try job.run(arguments, logs: Self.folder("serial"), tag: "\(index)-\(name)")
            #expect(run.status == 0, "serial \(name): \(run.summary)")
        }
        let expected = try StateDigest(serial.database, excluding: ["drift_event"])

        let harness = try Self.harness("concurrent_parallel", options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        try FileManager.default.createDirectory(at: Self.folder("parallel"), withIntermediateDirectories: true)
        let started = Date()
        let processes = try Self.jobs(options.asOf, requeryProcesses: 4).enumerated().map { index, job in
            // Each process gets its own key files: rewriting shared ones while another process reads them races with
            // the mode check (the file is 0644 between its write and its chmod).
            (job.0, try JobProcess(job.0, harness: harness, folder: Self.folder("keys-\(index)"), rateLimits: Self.clientLimits)
                .start(job.1, logs: Self.folder("parallel"), tag: "\(index)-\(job.0)"))
        }
        for (_, process) in processes { process.waitUntilExit() }
        let elapsed = Date().timeIntervalSince(started)
        var retries = 0
        for (index, (name, process)) in processes.enumerated() {
            let summary = (try? String(contentsOf: Self.folder("parallel").appendingPathComponent("\(index)-\(name).out"), encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "\(name) exited \(process.terminationStatus): \(summary)")
            if let match = summary.firstMatch(of: /"conflict_retries":(\d+)/) { retries += Int(match.1) ?? 0 }
        }

        // No double projection: each at-risk subscription answered once across the four processes (a retried attempt,
        // e.g. after a refused connection on a loaded machine, is one query), no history row twice.
        let twice = try db.query("""
            SELECT subscription_id::text AS id FROM store_query
            WHERE endpoint IN ('apple.getAllSubscriptionStatuses', 'google.subscriptionsv2.get') AND job_run_id IN
              (SELECT id FROM job_run WHERE job_name = 'requery-at-risk')
            GROUP BY 1 HAVING count(*) FILTER (WHERE outcome = 'ok') > 1 OR count(DISTINCT job_run_id) > 1
            """).rows.map { try $0.decode(String.self, "id") }
        #expect(twice.isEmpty, "re-queried more than once: \(twice.prefix(5))")
        let workers = try RepairCheck.int(db, "SELECT count(DISTINCT split_part(claimed_by, '/', 1))::int AS n FROM requery_work_item")
        #expect(workers >= 2, "the requery processes shared the run (\(workers) took work)")
        let state = try StateDigest(db, excluding: ["drift_event"])
        for table in ["billing_transaction", "subscription_price_change", "entitlement_interval", "google_purchase_token"] {
            #expect(state.duplicates(in: table).isEmpty, "duplicate \(table) rows: \(state.duplicates(in: table).prefix(2))")
        }
        // Store limits held.
        let counters = harness.simulator.counters
        #expect(counters.rateLimited == 0, "the simulator answered 429 \(counters.rateLimited) times")

        // The same end state as the serial run (drift_event is left out of both: which job noticed a difference
        // first depends on the interleaving, not on what the database ends up holding).
        let differences = state.differences(from: expected)
        #expect(differences.isEmpty, "concurrent and serial runs differ: \(differences)")
        print("concurrency processes=\(processes.count) seconds=\(String(format: "%.1f", elapsed)) conflict_retries=\(retries) "
              + "rate_limited=\(counters.rateLimited) store_requests=\(counters.totalRequests) equal=\(differences.isEmpty) "
              + "digest=\(state.digest.prefix(16)) serial_digest=\(expected.digest.prefix(16))")
    }
}

import Foundation
import Postgres
import RepairJobs
import Testing
import WorldGen

@Suite(.serialized) struct RequeryConcurrencyTests {
    @Test func threeProcessesSplitOneRunAndQueryEachSubscriptionOnce() throws {
        let options = WorldOptions(seed: 23, subscriptions: 600, months: 6, testShare: 0)
        let harness = try RequeryHarness(name: "repair_concurrency", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        let codes = CodeBox()
        let stores = harness.stores
        let environment = harness.environment
        let group = DispatchGroup()
        for _ in 0..<3 {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                let (code, summary) = RequeryHarness.runJob(["--as-of", asOf, "--fresh-hours", "0", "--threads", "2", "--batch-size", "5",
                                                              "--run-key", "concurrent"], stores: stores, environment: environment)
                codes.append("\(code) \(summary)")
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        #expect(codes.all.count == 3 && codes.all.allSatisfy { $0.hasPrefix("succeeded") }, "\(codes.all)")
        let db = harness.database
        let items = try db.query("SELECT count(*)::int AS n, count(*) FILTER (WHERE state = 'done')::int AS done FROM requery_work_item WHERE run_key = 'concurrent'")
        let total = try items.first?.decode(Int.self, "n") ?? 0
        #expect(total > 300)
        #expect(try items.first?.decode(Int.self, "done") == total)
        let twice = try db.query("""
            SELECT subscription_id::text AS id, count(*)::int AS n FROM store_query
            WHERE endpoint IN ('apple.getAllSubscriptionStatuses', 'google.subscriptionsv2.get') GROUP BY 1 HAVING count(*) <> 1
            """).rows.map { try $0.decode(String.self, "id") }
        #expect(twice.isEmpty, "queried more than once: \(twice.prefix(5))")
        let queried = try db.query("""
            SELECT count(DISTINCT subscription_id)::int AS n FROM store_query
            WHERE endpoint IN ('apple.getAllSubscriptionStatuses', 'google.subscriptionsv2.get')
            """).first?.decode(Int.self, "n")
        #expect(queried == total)
        let processes = try db.query("SELECT count(DISTINCT split_part(claimed_by, '/', 1))::int AS n FROM requery_work_item WHERE run_key = 'concurrent'")
        #expect(try processes.first?.decode(Int.self, "n") == 3)
    }

    @Test func singleRequeryByOriginalTransactionIdAndByPurchaseToken() throws {
        var options = WorldOptions(seed: 29, subscriptions: 200, months: 6, testShare: 0)
        options.faultShares = [.stalePrice: 0.2, .missedNotification: 0.2]
        let harness = try RequeryHarness(name: "repair_single", options: options)
        defer { harness.server.stop(); harness.database.close() }
        let db = harness.database
        let asOf = PostgresTimestamp.iso8601(options.asOf)
        let apple = try db.query("SELECT original_transaction_id AS k, subscription_id::text AS id FROM apple_subscription_identity ORDER BY 1 LIMIT 1").first
        let appleKey = try #require(try apple?.decode(String.self, "k"))
        let appleId = try #require(try apple?.decode(String.self, "id"))
        let queryable = Set(harness.world.truth.google.subscriptions.filter(\.queryable).map(\.purchaseToken))
        let tokens = try db.query("SELECT purchase_token AS k, subscription_id::text AS id FROM google_purchase_token WHERE is_current ORDER BY 1").rows
            .map { (try $0.decode(String.self, "k"), try $0.decode(String.self, "id")) }
        let google = try #require(tokens.first { queryable.contains($0.0) })
        for (key, id) in [(appleKey, appleId), google] {
            let (code, summary) = harness.runJob(["--as-of", asOf, "--subscription", key])
            #expect(code == .succeeded, "\(summary)")
            #expect(summary.contains("\"queried\":1"), "\(summary)")
            let rows = try db.query("SELECT count(*)::int AS n FROM store_query WHERE subscription_id = $1::uuid", [id]).first?.decode(Int.self, "n")
            #expect((rows ?? 0) >= 1)
            let verified = try db.query("SELECT last_verified_at = $2::timestamptz AS v FROM subscription WHERE id = $1::uuid", [id, options.asOf])
                .first?.decode(Bool.self, "v")
            #expect(verified == true)
        }
        let (code, _) = harness.runJob(["--as-of", asOf, "--subscription", "no-such-thing"])
        #expect(code == .usageOrConfiguration)
    }
}

/// Exit codes and summaries of concurrent runs.
final class CodeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ value: String) { lock.lock(); storage.append(value); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}

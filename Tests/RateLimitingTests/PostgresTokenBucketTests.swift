import Foundation
import Postgres
import RateLimiting
import TestSupport
import Testing

/// One migrated database for this target, made once; each bucket opens its own connection.
enum RateLimitingTestDatabase {
    static let configuration: Result<PostgresConfiguration, any Error> = Result {
        let (configuration, connection) = try TestDatabase.migrated("test_rate_limiting")
        connection.close()
        return configuration
    }

    static func bucket(_ key: String, _ limit: RateLimit) throws -> PostgresTokenBucket {
        try PostgresTokenBucket(key: key, limit: limit, configuration: try configuration.get())
    }

    static func connect() throws -> PostgresConnection {
        try PostgresConnection(configuration: try configuration.get())
    }
}

/// The shared bucket on the real PostgreSQL: row creation, exact accounting, blocks, budgets, and
/// several concurrent users staying within capacity + rate × elapsed.
@Suite struct PostgresTokenBucketTests {
    func key(_ name: String) -> String { "test:\(name):\(UUID().uuidString.prefix(8))" }

    @Test func createsItsRowAndSpendsTheBurst() throws {
        let key = key("burst")
        let bucket = try RateLimitingTestDatabase.bucket(key, RateLimit(capacity: 5, refillPerSecond: 0.001))
        for _ in 0..<5 { try bucket.acquire() }
        guard case .wait(let seconds) = try bucket.attempt() else { Issue.record("expected a wait"); return }
        #expect(seconds > 990 && seconds <= 1000) // one token at 0.001/s
        let row = try #require(try RateLimitingTestDatabase.connect().query(
            "SELECT capacity, refill_per_second, tokens, daily_used FROM rate_limit_bucket WHERE bucket_key = $1", [key]).first)
        #expect(try row.decode(Double.self, "capacity") == 5)
        #expect(try row.decode(Double.self, "tokens") < 0.01)
        #expect(try row.decode(Int.self, "daily_used") == 5)
    }

    @Test func anExistingRowKeepsItsLimitsUntilReconfigured() throws {
        let key = key("existing")
        let first = try RateLimitingTestDatabase.bucket(key, RateLimit(capacity: 2, refillPerSecond: 0.001))
        try first.acquire()
        let second = try RateLimitingTestDatabase.bucket(key, RateLimit(capacity: 50, refillPerSecond: 50))
        try second.acquire()
        guard case .wait = try second.attempt() else { Issue.record("the stored capacity of 2 should apply"); return }
        try second.reconfigure()
        let capacity = try RateLimitingTestDatabase.connect().query("SELECT capacity FROM rate_limit_bucket WHERE bucket_key = $1", [key]).first
        #expect(try capacity?.decode(Double.self, "capacity") == 50)
    }

    @Test func blocksAreHonouredAndNeverShortened() throws {
        let bucket = try RateLimitingTestDatabase.bucket(key("block"), RateLimit(capacity: 10, refillPerSecond: 10))
        try bucket.block(forSeconds: 0.4)
        try bucket.block(until: Date(timeIntervalSinceNow: -10))
        guard case .wait(let seconds) = try bucket.attempt() else { Issue.record("expected the block to apply"); return }
        #expect(seconds > 0.2 && seconds <= 0.4)
        let granted = try bucket.acquire()
        #expect(granted.timeIntervalSinceNow > -5) // the database clock, near ours
    }

    @Test func dailyBudgetThrows() throws {
        let key = key("budget")
        let bucket = try RateLimitingTestDatabase.bucket(key, RateLimit(capacity: 10, refillPerSecond: 10, dailyBudget: 2))
        try bucket.acquire()
        try bucket.acquire()
        do {
            try bucket.acquire()
            Issue.record("the third call should exceed the budget")
        } catch {
            guard case .dailyBudgetExhausted(let bucketKey, let budget, let resetsAt) = error else { Issue.record("\(error)"); return }
            #expect(bucketKey == key)
            #expect(budget == 2)
            #expect(resetsAt.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) == 0)
            #expect(resetsAt > Date() && resetsAt.timeIntervalSinceNow <= 86_400 + 60)
        }
        // Yesterday's count does not carry over.
        try RateLimitingTestDatabase.connect().execute("UPDATE rate_limit_bucket SET budget_day = budget_day - 1 WHERE bucket_key = $1", [key])
        try bucket.acquire()
    }

    @Test func threeConcurrentUsersStayWithinTheBucket() throws {
        let limit = RateLimit(capacity: 5, refillPerSecond: 20)
        let key = key("shared")
        let buckets = try (0..<3).map { _ in try RateLimitingTestDatabase.bucket(key, limit) }
        let grants = GrantLog()
        let failures = GrantLog()
        let deadline = Date().addingTimeInterval(2.5)
        let group = DispatchGroup()
        for bucket in buckets {
            group.enter()
            Thread {
                while Date() < deadline {
                    do { grants.append(try bucket.acquire()) } catch { failures.append(Date()); break }
                }
                group.leave()
            }.start()
        }
        group.wait()
        let times = grants.times
        #expect(failures.times.isEmpty)
        #expect(GrantLog.violations(times, limit: limit).isEmpty, "\(GrantLog.violations(times, limit: limit).prefix(3))")
        let span = (times.last ?? Date()).timeIntervalSince(times.first ?? Date())
        // Liveness, loosely: the users together got a fair share of what the bucket allows.
        #expect(Double(times.count) >= (limit.capacity + limit.refillPerSecond * span) * 0.5, "\(times.count) grants in \(span) s")
        print("PostgresTokenBucket: \(times.count) grants in \(String(format: "%.2f", span)) s by 3 users (bound \(limit.capacity + limit.refillPerSecond * span))")
    }
}

import Foundation
import Postgres
import TestSupport
import RateLimiting
import StoreSimulator
import Testing

/// The clients stay under the stores' limits and wait exactly as long as a 429 asks.
@Suite(.serialized) struct RateLimitedCallTests {
    @Test func retryAfterIsHonouredToTheMillisecond() throws {
        let limits = RateLimitConfiguration(enabled: true, overrides: [.appleSubscriptionStatuses: RateLimit(perSecond: 2, capacity: 1)])
        let harness = try ClientHarness(limits: limits, clock: .system)
        _ = try harness.apple.subscriptionStatuses(transactionId: "1000000000000001")
        _ = try harness.apple.subscriptionStatuses(transactionId: "1000000000000001")
        let requests = harness.log.requests
        let limited = try #require(requests.firstIndex { $0.status == 429 })
        let retryAt = try #require(requests[limited].retryAfter.flatMap(Double.init)) / 1000
        let retriedAt = requests[limited + 1].sentAt.timeIntervalSince1970
        #expect(requests[limited + 1].status == 200)
        #expect(retriedAt >= retryAt, "never before the store's Retry-After")
        #expect(retriedAt - retryAt < 0.15, "and promptly at it: waited \(retriedAt - retryAt) s too long")
        #expect(harness.log.attempts.map(\.outcome) == ["ok", "rate_limited", "ok"])
    }

    @Test func twoThousandCallsAtTwentyPerSecondGetNoRejectionsAndUseTheLimit() throws {
        let limits = RateLimitConfiguration(enabled: true, overrides: [.appleSubscriptionStatuses: RateLimit(perSecond: 20, capacity: 20)])
        // The client's bucket refills 2% slower than the store's and keeps most of its burst in reserve: a call granted
        // at t may arrive a few hundred ms later on a loaded machine, bunched with calls granted after it.
        let bucket = try TokenBucket(name: "apple.getAllSubscriptionStatuses", limit: RateLimit(capacity: 4, refillPerSecond: 19.6))
        let harness = try ClientHarness(limits: limits, clientLimiter: { _ in bucket }, clock: .system)
        let started = Date()
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for _ in stride(from: worker, to: 2_000, by: 8) {
                do { _ = try harness.apple.subscriptionStatuses(transactionId: "1000000000000001") } catch { failures.add("\(error)") }
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        #expect(harness.log.requests.filter { $0.status == 429 }.isEmpty, "zero 429s")
        let rate = 2_000 / elapsed
        #expect(rate >= 0.95 * 20, "reached \(rate) requests/s of a 20/s limit")
        #expect(rate <= 20 * (1 + 20 / 2_000.0) + 0.5, "and never above the limit plus its burst")
    }
}

/// Collects errors from worker threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    func add(_ error: String) { lock.lock(); errors.append(error); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return errors }
}

/// Three workers, each with its own connection to the shared PostgreSQL bucket, as three processes would be.
@Suite struct SharedBucketCallTests {
    static let database: Result<PostgresConfiguration, any Error> = Result {
        let (configuration, connection) = try TestDatabase.migrated("test_store_clients")
        connection.close()
        return configuration
    }

    @Test func threeWorkersSharingThePostgresBucketStayUnderTheStoreLimit() throws {
        let configuration = try Self.database.get()
        let limits = RateLimitConfiguration(enabled: true, overrides: [.appleSubscriptionStatuses: RateLimit(perSecond: 20, capacity: 20)])
        let harness = try ClientHarness(limits: limits, clock: .system)
        let key = "apple:\(UUID().uuidString):getAllSubscriptionStatuses"
        let clients = try (0..<3).map { _ in
            harness.appleClient(limiter: try PostgresTokenBucket(key: key, limit: RateLimit(capacity: 4, refillPerSecond: 19.6),
                                                                 configuration: configuration))
        }
        let failures = Failures()
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            for _ in 0..<100 {
                do { _ = try clients[worker].subscriptionStatuses(transactionId: "1000000000000001") } catch { failures.add("\(error)") }
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        #expect(harness.log.requests.count == 300)
        #expect(harness.log.requests.filter { $0.status == 429 }.isEmpty, "together they never exceed the store's limit")
        #expect(elapsed >= (300 - 20) / 20.0 * 0.97, "300 calls at 20/s with a burst of 20 cannot finish sooner")
    }
}

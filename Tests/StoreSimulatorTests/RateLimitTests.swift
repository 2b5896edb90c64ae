import RateLimiting
import SimulatorFixtures
import Crypto
import Foundation
import HTTP
import Testing
@testable import StoreSimulator

@Suite("Rate limits")
struct RateLimitTests {
    static let statuses = "/inApps/v1/subscriptions/1000000000000001"

    @Test("A burst of N in one instant against capacity C rejects exactly N − C", arguments: [
        (SimulatorEndpoint.appleSubscriptionStatuses, "/inApps/v1/subscriptions/1000000000000001", 80, 50),
        (.appleOrderLookup, "/inApps/v1/lookup/MK5TTTVWJH", 25, 10),
        (.googleSubscriptionGet, "\(GooglePlayTests.base)/subscriptionsv2/tokens/token-active", 75, 50),
        (.googleVoidedPurchases, "\(GooglePlayTests.base)/voidedpurchases?type=1", 40, 30),
    ])
    func burst(endpoint: SimulatorEndpoint, url: String, requests: Int, capacity: Int) throws {
        let harness = try SimulatorHarness(limits: true)
        let statuses = (0..<requests).map { _ in harness.send("GET", url).status }
        #expect(statuses.filter { $0 == 429 }.count == requests - capacity)
        #expect(statuses.prefix(capacity).allSatisfy { $0 == 200 })
        #expect(harness.simulator.counters.rateLimited == requests - capacity)
        #expect(harness.simulator.counters.count(endpoint, outcome: "429") == requests - capacity)
    }

    @Test("Apple's 429 carries 4290000 and Retry-After at the next token's time in milliseconds")
    func retryAfter() throws {
        let harness = try SimulatorHarness(limits: true, overrides: [.appleSubscriptionStatuses: RateLimit(perSecond: 4, capacity: 2)])
        #expect(harness.send("GET", Self.statuses).status == 200)
        harness.clock.advance(by: 0.1)  // refill 0.4 → 1.4 tokens
        #expect(harness.send("GET", Self.statuses).status == 200)  // 0.4 left
        let rejected = harness.send("GET", Self.statuses)
        #expect(rejected.status == 429)
        #expect(rejected.appleErrorCode == 4_290_000)
        // 0.6 tokens missing at 4/s: 150 ms after the last refill at now + 0.1 s.
        let expected = TruthFixture.nowMs + 100 + 150
        #expect(rejected.header("Retry-After") == String(expected))
        harness.clock.advance(by: 0.149)
        #expect(harness.send("GET", Self.statuses).status == 429)
        harness.clock.advance(by: 0.001)
        #expect(harness.send("GET", Self.statuses).status == 200)
    }

    @Test("Sandbox gets 10 % of production; limits off lets everything through")
    func sandboxAndOff() throws {
        let sandbox = try SimulatorHarness(limits: true, environment: "Sandbox")
        #expect((0..<8).map { _ in sandbox.send("GET", Self.statuses).status }.filter { $0 == 429 }.count == 3)
        let off = try SimulatorHarness(limits: false)
        #expect((0..<200).allSatisfy { _ in off.send("GET", Self.statuses).status == 200 })
    }

    @Test("Buckets are per endpoint")
    func perEndpoint() throws {
        let harness = try SimulatorHarness(limits: true, overrides: [.appleTransactionInfo: RateLimit(perSecond: 1)])
        #expect(harness.send("GET", "/inApps/v1/transactions/1000000000000001").status == 200)
        #expect(harness.send("GET", "/inApps/v1/transactions/1000000000000001").status == 429)
        #expect(harness.send("GET", Self.statuses).status == 200)
    }

    @Test("Google over quota is 429 RESOURCE_EXHAUSTED")
    func googleQuota() throws {
        let harness = try SimulatorHarness(limits: true, overrides: [.googleSubscriptionGet: RateLimit(perSecond: 1)])
        let url = "\(GooglePlayTests.base)/subscriptionsv2/tokens/token-active"
        #expect(harness.send("GET", url).status == 200)
        let rejected = harness.send("GET", url)
        #expect(rejected.status == 429)
        #expect(rejected.json["error"]?["status"] == .string("RESOURCE_EXHAUSTED"))
        #expect(rejected.googleReason == "rateLimitExceeded")
    }

    @Test("--limits-config parsing", arguments: [
        ("apple.getAllSubscriptionStatuses=5", SimulatorEndpoint.appleSubscriptionStatuses, RateLimit(perSecond: 5, capacity: 5)),
        ("google.voidedpurchases.list=0.5/30", .googleVoidedPurchases, RateLimit(perSecond: 0.5, capacity: 30)),
    ])
    func parse(text: String, endpoint: SimulatorEndpoint, limit: RateLimit) throws {
        #expect(try RateLimitConfiguration.parseOverrides(text)[endpoint] == limit)
    }

    @Test("--limits-config rejects nonsense", arguments: ["nope=5", "apple.getTransactionInfo=0", "apple.getTransactionInfo=x", "apple.getTransactionInfo=1/0.5"])
    func parseErrors(text: String) {
        #expect(throws: SimulatorError.self) { try RateLimitConfiguration.parseOverrides(text) }
    }
}

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("Eight threads bursting at once: exactly N − C rejected, every request counted")
    func concurrentBurst() throws {
        let harness = try SimulatorHarness(limits: true)
        let url = "\(GooglePlayTests.base)/subscriptionsv2/tokens/token-active"
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 { _ = harness.send("GET", url) }
        }
        let counters = harness.simulator.counters
        #expect(counters.count(.googleSubscriptionGet) == 400)
        #expect(counters.count(.googleSubscriptionGet, outcome: "429") == 350)
        #expect(counters.count(.googleSubscriptionGet, outcome: "200") == 50)
        #expect(counters.totalRequests == 400)
    }
}

import Foundation
import RateLimiting
import Testing

/// A fixed sequence of "random" numbers.
final class ScriptedRandom: RetryRandomSource, @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double]
    init(_ values: [Double]) { self.values = values }
    func nextUnit() -> Double { lock.withLock { values.isEmpty ? 0.5 : values.removeFirst() } }
}

/// Backoff with full jitter and a cap, exact Retry-After waits, and the retry loop.
@Suite struct RetryPolicyTests {
    @Test(arguments: [(1, 0.5), (2, 1.0), (3, 2.0), (4, 4.0), (5, 8.0), (6, 16.0), (7, 30.0), (8, 30.0), (100, 30.0)])
    func ceilingsDoubleUpToTheCap(_ retry: Int, _ ceiling: Double) {
        #expect(RetryPolicy(base: 0.5, cap: 30).ceiling(forRetry: retry) == ceiling)
    }

    @Test(arguments: [(0.0, 0.0), (0.25, 1.0), (0.5, 2.0), (0.999, 3.996)])
    func fullJitterScalesTheCeiling(_ unit: Double, _ expected: Double) {
        let policy = RetryPolicy(base: 0.5, cap: 30, random: ScriptedRandom([unit]))
        #expect(abs(policy.backoff(forRetry: 4) - expected) < 1e-9) // ceiling 4 s
    }

    @Test func retryAfterIsExactAndBounded() {
        let policy = RetryPolicy(maxRetryAfter: 60, random: ScriptedRandom([0.5]))
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let exact = policy.delay(forRetry: 1, retryAt: Date(timeIntervalSince1970: 1_700_000_002.345), now: now) ?? 0
        #expect(abs(exact - 2.345) < 1e-6)
        #expect(policy.delay(forRetry: 1, retryAt: now.addingTimeInterval(-5), now: now) == 0)
        #expect(policy.delay(forRetry: 1, retryAt: now.addingTimeInterval(61), now: now) == nil)
        #expect(policy.delay(forRetry: 1, retryAt: nil, now: now) == 0.25)
    }

    struct Flaky: Error, Equatable { let attempt: Int }

    @Test func runRetriesWithBackoffThenSucceeds() throws {
        let clock = VirtualRateLimitClock(start: Date(timeIntervalSince1970: 1_000))
        let policy = RetryPolicy(base: 1, cap: 10, maxAttempts: 5, random: ScriptedRandom([0.5, 0.5]))
        let value = try policy.run(clock: clock, { (attempt: Int) throws(Flaky) -> String in
            if attempt < 3 { throw Flaky(attempt: attempt) }
            return "ok on \(attempt)"
        }, decide: { _ in .retry })
        #expect(value == "ok on 3")
        #expect(clock.sleeps.map { $0.timeIntervalSince1970 } == [1_000.5, 1_001.5]) // 0.5 × 1 s, then 0.5 × 2 s
    }

    @Test func runHonoursRetryAtAndGivesUp() {
        let clock = VirtualRateLimitClock(start: Date(timeIntervalSince1970: 1_000))
        let policy = RetryPolicy(maxAttempts: 3)
        let retryAt = Date(timeIntervalSince1970: 1_000.789)
        #expect(throws: Flaky(attempt: 3)) {
            try policy.run(clock: clock, { (attempt: Int) throws(Flaky) -> Int in throw Flaky(attempt: attempt) },
                           decide: { _ in .retryAt(retryAt) })
        }
        #expect(clock.sleeps == [retryAt, retryAt])
    }

    @Test func runStopsAtOnceOnAFinalError() {
        let clock = VirtualRateLimitClock(start: Date(timeIntervalSince1970: 1_000))
        #expect(throws: Flaky(attempt: 1)) {
            try RetryPolicy().run(clock: clock, { (attempt: Int) throws(Flaky) -> Int in throw Flaky(attempt: attempt) },
                                  decide: { _ in .fail })
        }
        #expect(clock.sleeps.isEmpty)
    }
}

/// Retry-After in Apple's milliseconds, delta-seconds and HTTP-date forms.
@Suite struct RetryAfterTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: [
        ("1700000005123", RetryAfter.Convention.appleMilliseconds, 1_700_000_005_123.0),
        ("  1700000000001 ", .appleMilliseconds, 1_700_000_000_001),
        ("120", .appleMilliseconds, 1_700_000_120_000),
        ("0", .standard, 1_700_000_000_000),
        ("120", .standard, 1_700_000_120_000),
        ("Sun, 06 Nov 1994 08:49:37 GMT", .standard, 784_111_777_000),
        ("Sunday, 06-Nov-94 08:49:37 GMT", .standard, 784_111_777_000),
        ("Sun Nov  6 08:49:37 1994", .standard, 784_111_777_000),
        ("Sun, 06 Nov 1994 08:49:37 GMT", .appleMilliseconds, 784_111_777_000),
    ])
    func parsesEveryForm(_ value: String, _ convention: RetryAfter.Convention, _ expectedMilliseconds: Double) throws {
        let date = try #require(RetryAfter.parse(value, convention: convention, now: Self.now))
        #expect(abs(date.timeIntervalSince1970 * 1000 - expectedMilliseconds) < 0.01)
    }

    @Test(arguments: [nil, "", "soon", "-5", "1.5", "99999999999999999999", "Sun, 32 Nov 1994 08:49:37 GMT"] as [String?])
    func unreadableValuesFallBackToBackoff(_ value: String?) {
        #expect(RetryAfter.parse(value, convention: .appleMilliseconds, now: Self.now) == nil)
    }
}

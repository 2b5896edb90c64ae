import Foundation
import RateLimiting
import Testing

/// The in-memory bucket on a virtual clock: exact token counts, exact waits, blocks and budgets.
@Suite struct TokenBucketTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000) // 22:13:20 UTC

    func seconds(_ date: Date) -> Double { date.timeIntervalSince(Self.start) }

    @Test func burstThenEvenlySpacedWaits() throws {
        let clock = VirtualRateLimitClock(start: Self.start)
        let bucket = try TokenBucket(name: "t", limit: RateLimit(capacity: 5, refillPerSecond: 2), clock: clock)
        for _ in 0..<5 { try bucket.acquire() }
        #expect(clock.sleeps.isEmpty)
        let grants = try (0..<4).map { _ in seconds(try bucket.acquire()) }
        let expected = [0.5, 1.0, 1.5, 2.0]
        #expect(zip(grants, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(grants)")
        #expect(zip(clock.sleeps.map(seconds), expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(clock.sleeps.map(seconds))")
        #expect(clock.sleeps.count == 4)
    }

    struct RefillCase: Sendable {
        let taken: Int
        let advance: Double
        let expected: Double
    }

    @Test(arguments: [
        RefillCase(taken: 10, advance: 0, expected: 0),
        RefillCase(taken: 10, advance: 0.25, expected: 1.25),
        RefillCase(taken: 10, advance: 1, expected: 5),
        RefillCase(taken: 10, advance: 5, expected: 10),
        RefillCase(taken: 3, advance: 0.1, expected: 7.5),
    ])
    func refillIsExact(_ testCase: RefillCase) throws {
        let clock = VirtualRateLimitClock(start: Self.start)
        let bucket = try TokenBucket(name: "t", limit: RateLimit(capacity: 10, refillPerSecond: 5), clock: clock)
        for _ in 0..<testCase.taken { #expect(try bucket.tryAcquire()) }
        clock.advance(by: testCase.advance)
        #expect(abs(bucket.availableTokens - testCase.expected) < 1e-6)
    }

    @Test func retryAfterIsHonouredToTheMillisecond() throws {
        let clock = VirtualRateLimitClock(start: Self.start)
        let bucket = try TokenBucket(name: "t", limit: RateLimit(capacity: 5, refillPerSecond: 5), clock: clock)
        let retryAt = Date(timeIntervalSince1970: 1_700_000_001.234)
        bucket.block(until: retryAt)
        bucket.block(until: Self.start.addingTimeInterval(0.5)) // an earlier block never shortens it
        #expect(try !bucket.tryAcquire())
        let granted = try bucket.acquire()
        #expect(clock.sleeps == [retryAt])
        #expect(granted == retryAt)
        #expect(abs(granted.timeIntervalSince1970 * 1000 - 1_700_000_001_234) < 0.001)
    }

    @Test func dailyBudgetThrowsInsteadOfWaitingAndResetsAtUTCMidnight() throws {
        let clock = VirtualRateLimitClock(start: Self.start)
        let bucket = try TokenBucket(name: "google:voided", limit: RateLimit(capacity: 100, refillPerSecond: 100, dailyBudget: 3), clock: clock)
        for _ in 0..<3 { try bucket.acquire() }
        #expect(bucket.usedToday == 3)
        let midnight = Date(timeIntervalSince1970: 1_700_006_400) // 2023-11-15T00:00:00Z
        #expect(throws: RateLimitError.dailyBudgetExhausted(bucket: "google:voided", budget: 3, resetsAt: midnight)) {
            try bucket.acquire()
        }
        #expect(clock.sleeps.isEmpty)
        clock.advance(by: midnight.timeIntervalSince(Self.start) - 0.001)
        #expect(throws: RateLimitError.self) { try bucket.acquire() }
        clock.advance(by: 0.001)
        #expect(try bucket.acquire() == midnight)
        #expect(bucket.usedToday == 1)
    }

    @Test(arguments: [
        RateLimit(capacity: 0, refillPerSecond: 1),
        RateLimit(capacity: 1, refillPerSecond: 0),
        RateLimit(capacity: .infinity, refillPerSecond: 1),
        RateLimit(capacity: 1, refillPerSecond: -2),
        RateLimit(capacity: 1, refillPerSecond: 1, dailyBudget: 0),
    ])
    func invalidLimitsAreRejected(_ limit: RateLimit) {
        #expect(throws: RateLimitError.self) { try TokenBucket(name: "bad", limit: limit) }
    }

    @Test func threadsTogetherNeverExceedTheBucket() throws {
        let clock = VirtualRateLimitClock(start: Self.start)
        let limit = RateLimit(capacity: 4, refillPerSecond: 10)
        let bucket = try TokenBucket(name: "t", limit: limit, clock: clock)
        let grants = GrantLog()
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread {
                for _ in 0..<25 { if let instant = try? bucket.acquire() { grants.append(instant) } }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(grants.times.count == 100)
        #expect(GrantLog.violations(grants.times, limit: limit).isEmpty)
    }
}

/// Grant instants collected from several threads, and the bucket invariant over them.
final class GrantLog: @unchecked Sendable {
    private let lock = NSLock()
    private var instants: [Date] = []

    func append(_ instant: Date) { lock.withLock { instants.append(instant) } }
    var times: [Date] { lock.withLock { instants.sorted() } }

    /// Windows [t_i, t_j] holding more grants than capacity + rate × (t_j − t_i).
    static func violations(_ sorted: [Date], limit: RateLimit, tolerance: Double = 1e-3) -> [String] {
        var found: [String] = []
        for i in sorted.indices {
            for j in sorted.indices where j > i {
                let elapsed = sorted[j].timeIntervalSince(sorted[i])
                let allowed = limit.capacity + limit.refillPerSecond * elapsed + tolerance
                if Double(j - i + 1) > allowed { found.append("\(j - i + 1) grants in \(elapsed) s > \(allowed)") }
            }
        }
        return found
    }
}

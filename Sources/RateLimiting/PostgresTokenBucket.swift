import Foundation
import Postgres

/// A token bucket stored in PostgreSQL (`rate_limit_bucket`) so many processes and hosts share one
/// store quota. Each attempt is one atomic statement timed by the database server's clock; when no
/// token is available the wait is computed from the returned state, slept, and the attempt repeated.
public final class PostgresTokenBucket: RateLimiter, @unchecked Sendable {
    /// The row's `bucket_key` (e.g. `apple:com.example.app:getTransactionInfo`).
    public let key: String
    /// The limits used when this bucket creates the row (an existing row keeps its own; see `reconfigure`).
    public let limit: RateLimit
    private let connection: PostgresConnection
    private let clock: any RateLimitClock
    private let lock = NSLock()
    private var rowEnsured = false

    /// Uses `connection` exclusively (it is not thread-safe; calls through this bucket are serialised).
    public init(key: String, limit: RateLimit, connection: PostgresConnection,
                clock: any RateLimitClock = SystemRateLimitClock()) throws(RateLimitError) {
        guard !key.isEmpty else { throw .invalidLimit("bucket key must not be empty") }
        self.key = key
        self.limit = try limit.validated()
        self.connection = connection
        self.clock = clock
    }

    /// Opens its own connection with `configuration`.
    public convenience init(key: String, limit: RateLimit, configuration: PostgresConfiguration,
                            clock: any RateLimitClock = SystemRateLimitClock()) throws(RateLimitError) {
        let connection: PostgresConnection
        do { connection = try PostgresConnection(configuration: configuration) } catch { throw Self.wrap(error) }
        try self.init(key: key, limit: limit, connection: connection, clock: clock)
    }

    /// Blocks until the shared bucket grants a token; returns the grant instant on the database clock.
    @discardableResult
    public func acquire() throws(RateLimitError) -> Date {
        while true {
            let attempt = try attempt()
            switch attempt {
            case .granted(let instant): return instant
            case .wait(let seconds): clock.sleep(until: clock.now().addingTimeInterval(seconds))
            case .exhausted(let resetsAt):
                throw .dailyBudgetExhausted(bucket: key, budget: limit.dailyBudget ?? 0, resetsAt: resetsAt)
            }
        }
    }

    /// Blocks every user of the bucket until `instant` (a Retry-After); a later block is kept.
    public func block(until instant: Date) throws(RateLimitError) {
        try run(PostgresTokenBucketSQL.blockUntil, [key, instant.timeIntervalSince1970])
    }

    /// Blocks for `seconds` measured on the database clock (a delta-seconds Retry-After).
    public func block(forSeconds seconds: Double) throws(RateLimitError) {
        try run(PostgresTokenBucketSQL.blockFor, [key, max(0, seconds)])
    }

    /// Writes this bucket's `limit` over the stored row's capacity, rate and daily budget.
    public func reconfigure() throws(RateLimitError) {
        try run(PostgresTokenBucketSQL.reconfigure, [key, limit.capacity, limit.refillPerSecond, limit.dailyBudget])
    }

    /// The outcome of one non-blocking attempt.
    public enum Attempt: Sendable, Equatable {
        /// A token was taken at this instant (database clock).
        case granted(Date)
        /// No token: the next may be available after this many seconds.
        case wait(seconds: Double)
        /// The daily budget is used up until this instant.
        case exhausted(resetsAt: Date)
    }

    /// One acquire statement that never sleeps; creates the row first when needed.
    public func attempt() throws(RateLimitError) -> Attempt {
        lock.lock()
        defer { lock.unlock() }
        do {
            try ensureRow()
            let result = try connection.query(PostgresTokenBucketSQL.acquire, [key, TokenMath.grantSlackSeconds])
            guard let row = result.first else {
                rowEnsured = false // the row was deleted: recreate it on the next attempt
                return .wait(seconds: 0)
            }
            let now = try row.decode(Double.self, "now_epoch")
            if try row.decode(Bool.self, "granted") { return .granted(Date(timeIntervalSince1970: now)) }
            if try !row.decode(Bool.self, "within_budget") {
                return .exhausted(resetsAt: Date(timeIntervalSince1970: try row.decode(Double.self, "reset_epoch")))
            }
            if try !row.decode(Bool.self, "open") {
                let blocked = try row.decode(Double.self, "blocked_epoch")
                return .wait(seconds: max(0, blocked - now))
            }
            let tokens = try row.decode(Double.self, "tokens")
            let rate = try row.decode(Double.self, "refill_per_second")
            return .wait(seconds: max(0, (1 - tokens) / rate))
        } catch let error as RateLimitError {
            throw error
        } catch {
            throw Self.wrap(error)
        }
    }

    /// Creates the bucket's row on first use (the caller holds the lock).
    private func ensureRow() throws {
        guard !rowEnsured else { return }
        try connection.execute(PostgresTokenBucketSQL.ensure, [key, limit.capacity, limit.refillPerSecond, limit.dailyBudget])
        rowEnsured = true
    }

    private func run(_ sql: String, _ parameters: [any PostgresEncodable]) throws(RateLimitError) {
        lock.lock()
        defer { lock.unlock() }
        do {
            try ensureRow()
            try connection.execute(sql, parameters)
        } catch {
            throw Self.wrap(error)
        }
    }

    static func wrap(_ error: any Error) -> RateLimitError {
        .database((error as? PostgresError)?.description ?? "\(error)")
    }
}

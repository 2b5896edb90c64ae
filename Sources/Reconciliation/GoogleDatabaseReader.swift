import CompactMemory
import Foundation
import Postgres

/// The database side of Google months for the compact engine: every GOOGLE row with an order ID and a non-zero
/// amount effective in the months read and recorded by `knownAt`, as one binary COPY.
struct GoogleDatabaseCopy {
    /// Database rows recorded after this instant are left out.
    let knownAt: Date

    /// The statement, a binary COPY (no order: `CompactDatabase` restores key order where it matters). `effective_at` goes as the server holds it, microseconds, and becomes epoch seconds as
    /// `extract(epoch …)::int8` would round them (`BinaryCopyReader.epochSeconds`): in binary the server formats
    /// nothing, no number, no timestamp, no escaped text, which takes about a quarter off its time at a million rows.
    /// A refund without its own country or product takes its charge's, looked up only then (a subquery on the unique
    /// key rather than a join every row pays for: a fifth of the server's time at a million rows).
    func copyStatement(_ periods: [ReconciliationPeriod]) -> String {
        let first = periods.map(\.start).min() ?? 0, last = periods.map(\.end).max() ?? 0
        return """
            COPY (SELECT b.transaction_key, b.order_id, b.amount_micros, b.currency_code,
                   coalesce(b.country_code, (SELECT c.country_code FROM billing_transaction c
                                             WHERE c.transaction_key = b.refunded_transaction_key), ''),
                   coalesce(b.product_id, (SELECT c.product_id FROM billing_transaction c
                                           WHERE c.transaction_key = b.refunded_transaction_key), ''),
                   b.is_test, b.effective_at
            FROM billing_transaction b
            WHERE b.provider = 'GOOGLE' AND b.order_id IS NOT NULL AND b.amount_micros IS NOT NULL AND b.amount_micros <> 0
              AND b.event_type = ANY(\(MoneyEvents.sqlArray))
              AND b.effective_at >= to_timestamp(\(first)) AND b.effective_at < to_timestamp(\(last))
              AND b.recorded_at <= '\(PostgresTimestamp.format(knownAt))'::timestamptz) TO STDOUT (FORMAT binary)
            """
    }
}

/// The second thread of a read: streams the database rows into units on its own connection while the report side is read.
final class DatabaseReader: @unchecked Sendable {
    let configuration: PostgresConfiguration
    let sql: String
    let periods: [ReconciliationPeriod]
    let orders: SharedOrders
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<CompactDatabase, Error>

    init(configuration: PostgresConfiguration, sql: String, periods: [ReconciliationPeriod], orders: SharedOrders) {
        self.orders = orders
        self.configuration = configuration
        self.sql = sql
        self.periods = periods
        outcome = .success(CompactDatabase(periods: periods, orders: orders))
    }

    /// The thread's body.
    func run() {
        outcome = Result {
            let connection = try PostgresConnection(configuration: configuration)
            defer { connection.close() }
            // One server process for the scan: parallel workers would take the core the report side is read on.
            try connection.execute("SET max_parallel_workers_per_gather = 0")
            var units = CompactDatabase(periods: periods, orders: orders)
            try connection.copyOutMessages(sql) { try units.add(copyMessage: $0) }
            units.finish()
            return units
        }
        done.signal()
    }

    /// Waits for the thread and returns what it read.
    func wait() -> Result<CompactDatabase, Error> {
        done.wait()
        return outcome
    }
}

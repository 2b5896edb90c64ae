import Crypto
import Foundation
import Postgres
import StoreExports

/// Reads one Google month straight from its earnings zip, without staging it: the zip is decompressed on one thread,
/// its rows parsed and folded into runs on another (`EarningsRunThread`), the runs added on this one, while a fourth
/// thread, on its own connection, streams the database side of the period and its neighbours (`COPY … TO STDOUT`)
/// and hashes the zip. Both sides are kept compact (`CompactReport`, `CompactDatabase`: order IDs interned, no
/// `String` per unit) and give exactly the units `GoogleSource` builds from the staged rows.
struct GoogleFileSource {
    let configuration: PostgresConfiguration
    /// Database rows recorded after this instant are left out.
    let knownAt: Date

    /// What a read found.
    struct Read {
        /// The file's units.
        var report: CompactReport
        /// The database's units of every period read.
        var database: CompactDatabase
        /// The zip's SHA-256.
        var sha256: String
        /// Earnings rows read.
        var rows: Int
    }

    /// Reads the zip at `path` (named `file` in errors) as the report side, and `periods` from the database.
    func read(path: String, file: String, periods: [ReconciliationPeriod]) throws -> Read {
        // About one order per 40 bytes of a zipped earnings file (three rows an order, ~12:1): the table is sized once
        // instead of doubling its way up (each doubling reads every order again).
        let zipped = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        let orders = SharedOrders(capacity: Swift.max(1 << 16, (zipped ?? 0) / 40))
        let worker = DatabaseReader(configuration: configuration, sql: copyStatement(periods), periods: periods, zipPath: path,
                                    orders: orders)
        let thread = Thread { worker.run() }
        thread.stackSize = 1 << 22
        thread.start()
        var report = CompactReport(orders: orders)
        let streamed = Result { try EarningsRunThread.read(path: path, file: file) { report.add($0) } }
        let database = worker.wait()
        let outcome = try streamed.get()
        report.texts = outcome.texts
        let rows = outcome.rows
        let (units, sha256) = try database.get()
        guard let sha256 else { throw StoreReportError(file: file, line: 1, column: 1, reason: "cannot read the file") }
        return Read(report: report, database: units, sha256: sha256, rows: rows)
    }

    /// `GoogleSource.database`'s statement as a binary COPY (no order: `CompactDatabase` restores key order where it
    /// matters). `effective_at` goes as the server holds it, microseconds, and becomes epoch seconds as
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

/// The second thread of a file read: streams the database rows into units on its own connection, then hashes the zip.
final class DatabaseReader: @unchecked Sendable {
    let configuration: PostgresConfiguration
    let sql: String
    let periods: [ReconciliationPeriod]
    /// The zip to hash once the rows are read (none for staged rows).
    let zipPath: String?
    let orders: SharedOrders
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<(CompactDatabase, String?), Error>

    init(configuration: PostgresConfiguration, sql: String, periods: [ReconciliationPeriod], zipPath: String?, orders: SharedOrders) {
        self.orders = orders
        self.configuration = configuration
        self.sql = sql
        self.periods = periods
        self.zipPath = zipPath
        outcome = .success((CompactDatabase(periods: periods, orders: orders), nil))
    }

    /// The thread's body.
    func run() {
        outcome = Result {
            let connection = try PostgresConnection(configuration: configuration)
            defer { connection.close() }
            // One server process for the scan: the month's rows arrive before the file's anyway, and parallel workers
            // would take the cores the file's inflating and parsing threads need.
            try connection.execute("SET max_parallel_workers_per_gather = 0")
            var units = CompactDatabase(periods: periods, orders: orders)
            try connection.copyOutMessages(sql) { try units.add(copyMessage: $0) }
            units.finish()
            return (units, zipPath.flatMap { SHA256Digest.hex(fileAt: $0) })
        }
        done.signal()
    }

    /// Waits for the thread and returns what it read.
    func wait() -> Result<(CompactDatabase, String?), Error> {
        done.wait()
        return outcome
    }
}

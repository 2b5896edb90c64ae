import Crypto
import Foundation
import Postgres
import StoreExports

/// Reads one Google month straight from its earnings zip, without staging it: the zip is decompressed and its rows
/// read as a stream on this thread while a second thread, on its own connection, streams the database side of the
/// period and its neighbours (`COPY … TO STDOUT`) and hashes the zip. Both sides come out exactly as
/// `GoogleSource` builds them from the staged rows.
struct GoogleFileSource {
    let configuration: PostgresConfiguration
    /// Database rows recorded after this instant are left out.
    let knownAt: Date

    /// What a read found.
    struct Read {
        /// The file's units.
        var report: [UnitKey: UnitSide]
        /// The database's units by period label.
        var database: [String: [UnitKey: UnitSide]]
        /// The zip's SHA-256.
        var sha256: String
        /// Earnings rows read.
        var rows: Int
    }

    /// Reads the zip at `path` (named `file` in errors) as the report side, and `periods` from the database.
    func read(path: String, file: String, periods: [ReconciliationPeriod]) throws -> Read {
        let worker = DatabaseReader(configuration: configuration, sql: copyStatement(periods), periods: periods, zipPath: path)
        let thread = Thread { worker.run() }
        thread.stackSize = 1 << 22
        thread.start()
        var report: [UnitKey: UnitSide] = [:]
        let streamed = Result { try GoogleEarningsStream.read(path: path, file: file) { GoogleEarningsFold.add($0, to: &report) } }
        let database = worker.wait()
        let rows = try streamed.get().rows
        let (units, sha256) = try database.get()
        guard let sha256 else { throw StoreReportError(file: file, line: 1, column: 1, reason: "cannot read the file") }
        return Read(report: report, database: units, sha256: sha256, rows: rows)
    }

    /// `GoogleSource.database`'s statement as a COPY (no order: `DatabaseFold` restores key order where it matters).
    func copyStatement(_ periods: [ReconciliationPeriod]) -> String {
        let first = periods.map(\.start).min() ?? 0, last = periods.map(\.end).max() ?? 0
        return """
            COPY (SELECT b.transaction_key, b.order_id, b.amount_micros, b.currency_code,
                   coalesce(b.country_code, c.country_code, ''), coalesce(b.product_id, c.product_id, ''),
                   b.is_test, extract(epoch FROM b.effective_at)::int8
            FROM billing_transaction b LEFT JOIN billing_transaction c ON c.transaction_key = b.refunded_transaction_key
            WHERE b.provider = 'GOOGLE' AND b.order_id IS NOT NULL AND b.amount_micros IS NOT NULL AND b.amount_micros <> 0
              AND b.event_type::text = ANY(\(MoneyEvents.sqlArray))
              AND b.effective_at >= to_timestamp(\(first)) AND b.effective_at < to_timestamp(\(last))
              AND b.recorded_at <= '\(PostgresTimestamp.format(knownAt))'::timestamptz) TO STDOUT
            """
    }
}

/// The second thread of a file read: streams the database rows into units on its own connection, then hashes the zip.
final class DatabaseReader: @unchecked Sendable {
    let configuration: PostgresConfiguration
    let sql: String
    let periods: [ReconciliationPeriod]
    let zipPath: String
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<([String: [UnitKey: UnitSide]], String?), Error> = .success(([:], nil))

    init(configuration: PostgresConfiguration, sql: String, periods: [ReconciliationPeriod], zipPath: String) {
        self.configuration = configuration
        self.sql = sql
        self.periods = periods
        self.zipPath = zipPath
    }

    /// The thread's body.
    func run() {
        outcome = Result {
            let connection = try PostgresConnection(configuration: configuration)
            defer { connection.close() }
            var fold = DatabaseFold(periods: periods)
            try connection.copyOut(sql) { try fold.add(DatabaseFold.row(from: $0)) }
            return (fold.finish(), SHA256Digest.hex(fileAt: zipPath))
        }
        done.signal()
    }

    /// Waits for the thread and returns what it read.
    func wait() -> Result<([String: [UnitKey: UnitSide]], String?), Error> {
        done.wait()
        return outcome
    }
}

/// Folds database rows arriving in any order into the units `GoogleSource.database` builds from rows in
/// transaction-key order: sums do not depend on the order, and a unit of several rows is folded again in key order
/// at the end (its first currency, product and country, and the order of its keys).
struct DatabaseFold {
    let periods: [ReconciliationPeriod]
    private var result: [String: [UnitKey: UnitSide]] = [:]
    /// The rows of units with more than one row, by period label and key.
    private var several: [String: [UnitKey: [GoogleDatabaseRow]]] = [:]

    init(periods: [ReconciliationPeriod]) {
        self.periods = periods
    }

    /// Adds one row.
    mutating func add(_ row: GoogleDatabaseRow) {
        guard let period = periods.first(where: { $0.contains(row.at) }) else { return }
        let key = UnitKey(order: row.order, side: row.amount > 0 ? "charge" : "refund")
        if let unit = result[period.label]?[key] {
            if several[period.label]?[key] == nil, let firstKey = unit.keys.first {
                // The unit's one row, rebuilt from the unit (its country is already alpha-2: `alpha2` keeps it).
                several[period.label, default: [:]][key] = [GoogleDatabaseRow(
                    key: firstKey, order: row.order, amount: unit.gross, currency: unit.currency, country: unit.country,
                    product: unit.productId, isTest: unit.isTest, at: unit.at)]
            }
            several[period.label, default: [:]][key, default: []].append(row)
        }
        GoogleSource.addDatabaseRow(row, periods: [period], to: &result)
    }

    /// The units, those of several rows folded again in key order.
    mutating func finish() -> [String: [UnitKey: UnitSide]] {
        for (label, units) in several {
            for (key, rows) in units {
                var rebuilt: [String: [UnitKey: UnitSide]] = [:]
                for row in rows.sorted(by: { $0.key < $1.key }) {
                    GoogleSource.addDatabaseRow(row, periods: periods.filter { $0.label == label }, to: &rebuilt)
                }
                result[label]?[key] = rebuilt[label]?[key]
            }
        }
        several = [:]
        return result
    }

    /// A COPY text row: transaction key, order, amount, currency, country, product, is_test, epoch seconds.
    static func row(from bytes: UnsafeRawBufferPointer) throws -> GoogleDatabaseRow {
        var fields: [Substring] = []
        fields.reserveCapacity(8)
        var start = 0
        let text = { (range: Range<Int>) -> Substring in
            let raw = UnsafeRawBufferPointer(rebasing: bytes[range])
            let plain = String(decoding: raw, as: UTF8.self)
            return raw.contains(0x5C) ? Substring(unescape(plain)) : Substring(plain)
        }
        for index in 0..<bytes.count where bytes[index] == 0x09 {
            fields.append(text(start..<index))
            start = index + 1
        }
        fields.append(text(start..<bytes.count))
        guard fields.count == 8, let amount = Int64(fields[2]), let at = Int64(fields[7]) else {
            throw PostgresError(.copy, message: "unexpected COPY row '\(String(decoding: bytes, as: UTF8.self))'")
        }
        return GoogleDatabaseRow(key: String(fields[0]), order: String(fields[1]), amount: amount, currency: String(fields[3]),
                                 country: String(fields[4]), product: String(fields[5]), isTest: fields[6] == "t", at: at)
    }

    /// COPY text escapes (`\\`, `\t`, `\n`, `\r`, …) undone.
    static func unescape(_ text: String) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                switch character {
                case "t": result.append("\t")
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "b": result.append("\u{08}")
                case "f": result.append("\u{0C}")
                case "v": result.append("\u{0B}")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

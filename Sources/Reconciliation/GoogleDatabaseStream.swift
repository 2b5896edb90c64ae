import Foundation
import Postgres

/// The database side of a Google month and its neighbours: every GOOGLE row with an order ID and a non-zero money
/// amount effective in the periods and recorded by `knownAt`, sorted by order ID bytes (`COLLATE "C"`), then
/// transaction key, as one binary COPY read on a connection and a thread of its own (`CopyBatchStream`, which sorts
/// the rows as the server sends them unsorted) while the caller reads the report side.
enum GoogleDatabaseStream {
    /// One batch: the rows' texts end to end and their fields.
    struct Batch: CopyBatch {
        var bytes: [UInt8] = []
        var rows: [Row] = []
    }

    /// One row: its texts in the batch's bytes.
    struct Row {
        var order: Range<Int>
        var key: Range<Int>
        var currency: Range<Int>
        var country: Range<Int>
        var product: Range<Int>
        var amount: Int64
        var isTest: Bool
        /// `effective_at`, UTC epoch seconds.
        var at: Int64
    }

    /// Starts streaming the rows of `periods` recorded by `knownAt` on a new connection of `configuration`.
    static func open(configuration: PostgresConfiguration, periods: [ReconciliationPeriod], knownAt: Date) -> CopyBatchStream<Batch> {
        CopyBatchStream(configuration: configuration, sql: copyStatement(periods, knownAt: knownAt), sortedBy: sortKeys)
    }

    /// The order the rows are read in: order ID bytes, then transaction key bytes (the statement's fields 2 and 1).
    static let sortKeys: [BinaryCopySorter.Key] = [.bytes(1), .bytes(0)]

    /// The statement: every GOOGLE row with an order ID and a non-zero money amount effective in `periods` and
    /// recorded by `knownAt`, as a binary COPY of transaction key, order, amount, currency, country, product, is_test
    /// and `effective_at` (as the server holds it, microseconds), unsorted (`sortKeys` orders them). A refund row
    /// without its own country or product takes its charge's, looked up only then (a subquery on the unique key).
    static func copyStatement(_ periods: [ReconciliationPeriod], knownAt: Date) -> String {
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

extension GoogleDatabaseStream.Batch {
    /// Adds one tuple of the binary COPY (transaction key, order, amount, currency, country, product, is_test,
    /// `effective_at`).
    mutating func add(_ message: UnsafeRawBufferPointer, fields columns: [Range<Int>?], number: Int) throws {
        func unexpected(_ reason: String) -> PostgresError {
            PostgresError(.copy, message: "unexpected COPY row of billing_transaction (\(reason)): \(columns.count) fields, \(message.count) bytes")
        }
        guard columns.count == 8 else { throw unexpected("not 8 fields") }
        func field(_ index: Int) throws -> Range<Int> {
            guard let field = columns[index] else { throw unexpected("NULL in field \(index + 1)") }
            return field
        }
        let fields = (try field(0), try field(1), try field(2), try field(3), try field(4), try field(5), try field(6), try field(7))
        guard let amount = BinaryCopyReader.int64(message, fields.2) else { throw unexpected("amount is not an int8") }
        guard let micros = BinaryCopyReader.int64(message, fields.7),
              let at = BinaryCopyReader.epochSeconds(postgresMicroseconds: micros) else { throw unexpected("effective_at is not a timestamptz") }
        guard fields.6.count == 1 else { throw unexpected("is_test is not a bool") }
        func copy(_ range: Range<Int>) -> Range<Int> {
            let start = bytes.count
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: message[range]))
            return start..<bytes.count
        }
        rows.append(Row(order: copy(fields.1), key: copy(fields.0), currency: copy(fields.3), country: copy(fields.4),
                        product: copy(fields.5), amount: amount, isTest: message[fields.6.lowerBound] != 0, at: at))
    }
}

import Foundation
import Postgres

/// Reads a Google month and its two neighbours as one stream sorted by order ID, and hands each order's units to
/// `body` as soon as its last row has arrived. One binary `COPY` sends, per order, the report side of the three
/// periods — each period's staged earnings facts in (file, seq) order, or its estimated-sales rows in (file, line)
/// order when it has no earnings file — and the database rows of the three periods in transaction-key order. The
/// server sorts by the order ID's bytes (`COLLATE "C"`), which is the items CSV's order, so nothing but the current
/// order's rows and the small text tables is held: memory does not grow with the month.
struct GoogleMonthStream {
    let database: PostgresConnection
    /// Database rows recorded after this instant are left out.
    let knownAt: Date

    /// The staged files `periods` are read from: a period's current earnings files, or its estimated-sales files when
    /// it has no earnings file; with `only`, just those ids.
    static func files(_ database: PostgresConnection, _ periods: [ReconciliationPeriod], only: Set<Int64>?) throws -> [ReportFileRef] {
        let files = try ReportFileRef.current(database, kinds: ["googleEarnings", "googleEstimatedSales"],
                                              periods: periods.map(\.label), only: only)
        let earningsPeriods = Set(files.filter { $0.kind == "googleEarnings" }.map(\.period))
        return files.filter { $0.kind == "googleEarnings" || !earningsPeriods.contains($0.period) }
    }

    /// `ids` as a list for `IN (…)`.
    static func list(_ ids: [Int64]) -> String {
        ids.isEmpty ? "NULL" : ids.map { String($0) }.joined(separator: ",")
    }

    /// The statement: report rows (kind 0: a fact, 1: an estimated-sales row, with their period's position in
    /// `periods`) and database rows (kind 2: every GOOGLE row with an order ID and a non-zero money amount effective
    /// in the three periods and recorded by `knownAt`; its period is found from `effective_at` by the reader), sorted
    /// by order ID bytes, then kind, period, file, position in the file, and transaction key. Columns: order, kind,
    /// period, side, gross (or charged amount, or amount), fee (or taxes collected), tax, charge count, currency,
    /// country, product, refund type (or transaction key), is_test, instant. A refund row without its own country or
    /// product takes its charge's, looked up only then (a subquery on the unique key).
    static func copyStatement(_ periods: [ReconciliationPeriod], files: [ReportFileRef], knownAt: Date) -> String {
        var branches: [String] = []
        for (index, period) in periods.enumerated() where periods.firstIndex(where: { $0.label == period.label }) == index {
            let own = files.filter { $0.period == period.label }
            let earnings = own.filter { $0.kind == "googleEarnings" }.map(\.id)
            if !earnings.isEmpty {
                branches.append("""
                    SELECT f.order_id, 0::int8, \(index)::int8, f.side::int8, f.gross_micros, f.fee_micros, f.tax_micros,
                           f.charge_count::int8, f.currency, f.country, f.product_id, f.refund_type, 0::int8, f.first_at,
                           f.report_file_id, f.seq::int8, ''::text
                    FROM google_earnings_fact f WHERE f.report_file_id IN (\(list(earnings)))
                    """)
            } else if !own.isEmpty {
                branches.append("""
                    SELECT r.order_number, 1::int8, \(index)::int8, (r.financial_status = 'Refund')::int::int8,
                           r.charged_amount_micros, r.taxes_collected_micros, 0::int8, 1::int8, r.currency_of_sale,
                           r.country_of_buyer, r.sku_id, NULL::text, 0::int8, r.order_charged_at, r.report_file_id, r.line::int8, ''::text
                    FROM google_estimated_sales_row r WHERE r.report_file_id IN (\(list(own.map(\.id))))
                    """)
            }
        }
        let first = periods.map(\.start).min() ?? 0, last = periods.map(\.end).max() ?? 0
        branches.append("""
            SELECT b.order_id, 2::int8, -1::int8, 0::int8, b.amount_micros, 0::int8, 0::int8, 1::int8, b.currency_code,
                   coalesce(b.country_code, (SELECT c.country_code FROM billing_transaction c
                                             WHERE c.transaction_key = b.refunded_transaction_key), ''),
                   coalesce(b.product_id, (SELECT c.product_id FROM billing_transaction c
                                           WHERE c.transaction_key = b.refunded_transaction_key), ''),
                   b.transaction_key, b.is_test::int::int8, b.effective_at, 0::int8, 0::int8, b.transaction_key
            FROM billing_transaction b
            WHERE b.provider = 'GOOGLE' AND b.order_id IS NOT NULL AND b.amount_micros IS NOT NULL AND b.amount_micros <> 0
              AND b.event_type = ANY(\(MoneyEvents.sqlArray))
              AND b.effective_at >= to_timestamp(\(first)) AND b.effective_at < to_timestamp(\(last))
              AND b.recorded_at <= '\(PostgresTimestamp.format(knownAt))'::timestamptz
            """)
        return """
            COPY (SELECT u.o, u.kind, u.p, u.side, u.gross, u.fee, u.tax, u.charges, u.currency, u.country, u.product,
                         u.text, u.test, u.at
                  FROM (\(branches.joined(separator: "\nUNION ALL\n")))
                       AS u(o, kind, p, side, gross, fee, tax, charges, currency, country, product, text, test, at, file, pos, key)
                  ORDER BY u.o COLLATE "C", u.kind, u.p, u.file, u.pos, u.key COLLATE "C") TO STDOUT (FORMAT binary)
            """
    }

    /// Streams `periods` (the month and its neighbours, see `GoogleOrderUnits`) from `files`, handing every order's
    /// units to `body` in the order of the order IDs' bytes; returns the report rows and database rows read.
    func read(_ periods: [ReconciliationPeriod], files: [ReportFileRef],
              _ body: (inout GoogleOrderUnits) throws -> Void) throws {
        var order = GoogleOrderUnits(periods: periods)
        var reader = BinaryCopyReader()
        var read = 0
        try database.copyOutMessages(Self.copyStatement(periods, files: files, knownAt: knownAt)) { message in
            guard try reader.read(message) else { return }
            read += 1
            let cells = reader.fields
            func int(_ index: Int) -> Int64? { cells[index].flatMap { BinaryCopyReader.int64(message, $0) } }
            func text(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: message[range]) }
            guard cells.count == 14, let id = cells[0], let kind = int(1), let period = int(2), let side = int(3), side == 0 || side == 1,
                  let gross = int(4), let fee = int(5), let tax = int(6), let charges = int(7), let currency = cells[8],
                  let country = cells[9], let product = cells[10], let test = int(12), let micros = int(13),
                  let at = BinaryCopyReader.epochSeconds(postgresMicroseconds: micros) else {
                throw PostgresError(.copy, message: "row \(read) of the Google month's stream (report facts, estimated-sales rows and "
                                    + "billing_transaction rows by order ID) is not one the reconciliation can read")
            }
            let orderID = text(id)
            if !order.holds(orderID) {
                guard order.isBefore(orderID) else {
                    throw PostgresError(.copy, message: "row \(read) of the Google month's stream: order IDs not in byte order")
                }
                if order.hasRows { try body(&order) }
                order.start(orderID)
            }
            switch kind {
            case 0, 1:
                guard period >= 0, period < periods.count else {
                    throw PostgresError(.copy, message: "row \(read) of the Google month's stream: period \(period)")
                }
                if kind == 0 {
                    order.addFact(period: Int(period), side: Int(side), gross: gross, fee: fee, tax: tax,
                                  charges: Int32(truncatingIfNeeded: charges), currency: text(currency), country: text(country),
                                  product: text(product), refundType: cells[11].map(text), at: at)
                } else {
                    order.addEstimatedSale(period: Int(period), refund: side == 1, charged: gross, taxes: fee,
                                           currency: text(currency), country: text(country), product: text(product), at: at)
                }
            case 2:
                guard let key = cells[11] else {
                    throw PostgresError(.copy, message: "row \(read) of the Google month's stream: a database row without its key")
                }
                order.addDatabaseRow(key: text(key), amount: gross, currency: text(currency), country: text(country),
                                     product: text(product), isTest: test != 0, at: at)
            default:
                throw PostgresError(.copy, message: "row \(read) of the Google month's stream: kind \(kind)")
            }
        }
        if order.hasRows { try body(&order) }
    }
}

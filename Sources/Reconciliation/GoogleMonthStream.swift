import Foundation
import Postgres

/// Reads a Google month and its two neighbours as two streams sorted by order ID, merges them, and hands each
/// order's units to `body` as soon as its last row has arrived. One binary `COPY` sends the report side of the three
/// periods — each period's staged earnings facts in (file, seq) order within an order, or its estimated-sales rows in
/// (file, line) order when it has no earnings file — and another, on a second connection, the database rows of the
/// three periods in transaction-key order within an order (`GoogleDatabaseStream`). The server sorts both by the
/// order ID's bytes (`COLLATE "C"`), which is the items CSV's order, so nothing but the current order's rows, a few
/// batches of database rows and the small text tables is held: memory does not grow with the month.
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

    /// The statement of the report side: rows of kind 0 (a staged earnings fact) or 1 (an estimated-sales row), each
    /// with its period's position in `periods`, sorted by order ID bytes, then period, file and position in the file;
    /// nil when no file is read. Columns: order, kind, period, side, gross (or charged amount), fee (or taxes
    /// collected), tax, charge count, currency, country, product, refund type, instant.
    static func reportStatement(_ periods: [ReconciliationPeriod], files: [ReportFileRef]) -> String? {
        var branches: [String] = []
        for (index, period) in periods.enumerated() where periods.firstIndex(where: { $0.label == period.label }) == index {
            let own = files.filter { $0.period == period.label }
            let earnings = own.filter { $0.kind == "googleEarnings" }.map(\.id)
            if !earnings.isEmpty {
                branches.append("""
                    SELECT f.order_id, 0::int8, \(index)::int8, f.side::int8, f.gross_micros, f.fee_micros, f.tax_micros,
                           f.charge_count::int8, f.currency, f.country, f.product_id, f.refund_type, f.first_at,
                           f.report_file_id, f.seq::int8
                    FROM google_earnings_fact f WHERE f.report_file_id IN (\(list(earnings)))
                    """)
            } else if !own.isEmpty {
                branches.append("""
                    SELECT r.order_number, 1::int8, \(index)::int8, (r.financial_status = 'Refund')::int::int8,
                           r.charged_amount_micros, r.taxes_collected_micros, 0::int8, 1::int8, r.currency_of_sale,
                           r.country_of_buyer, r.sku_id, NULL::text, r.order_charged_at, r.report_file_id, r.line::int8
                    FROM google_estimated_sales_row r WHERE r.report_file_id IN (\(list(own.map(\.id))))
                    """)
            }
        }
        guard !branches.isEmpty else { return nil }
        return """
            COPY (SELECT u.o, u.kind, u.p, u.side, u.gross, u.fee, u.tax, u.charges, u.currency, u.country, u.product,
                         u.refund_type, u.at
                  FROM (\(branches.joined(separator: "\nUNION ALL\n")))
                       AS u(o, kind, p, side, gross, fee, tax, charges, currency, country, product, refund_type, at, file, pos)
                  ORDER BY u.o COLLATE "C", u.p, u.file, u.pos) TO STDOUT (FORMAT binary)
            """
    }

    /// Streams `periods` (the month and its neighbours, see `GoogleOrderUnits`) from `files` and the database,
    /// handing every order's units to `body` in the order of the order IDs' bytes: the report side is read here, the
    /// database side meanwhile on a second connection (`GoogleDatabaseStream`), both sorted by order ID, and merged.
    func read(_ periods: [ReconciliationPeriod], files: [ReportFileRef],
              _ body: (inout GoogleOrderUnits) throws -> Void) throws {
        let databaseRows = GoogleDatabaseStream(configuration: database.configuration, periods: periods, knownAt: knownAt)
        defer { databaseRows.close() }
        var order = GoogleOrderUnits(periods: periods)
        /// Moves to order `id`: first the database rows up to it (the current order's, and whole orders before `id`
        /// that the report side lacks; with `id` nil, every one left), then the current order is complete.
        func moveTo(_ id: UnsafeRawBufferPointer?) throws {
            while try databaseRows.peek({ row, bytes in
                let rowOrder = UnsafeRawBufferPointer(rebasing: bytes[row.order])
                if !order.hasRows || !order.holds(rowOrder) {
                    if let id, !rowOrder.lexicographicallyPrecedes(id) { return false }
                    try start(rowOrder, side: "billing_transaction")
                }
                order.addDatabaseRow(row, bytes: bytes)
                return true
            }) == true {
                databaseRows.advance()
            }
        }
        /// Completes the current order and starts `id`, which must come after it.
        func start(_ id: UnsafeRawBufferPointer, side: String) throws {
            if order.hasRows {
                guard order.isBefore(id) else {
                    throw PostgresError(.copy, message: "the Google month's \(side) rows are not in order ID byte order")
                }
                try body(&order)
            }
            order.start(id)
        }
        if let sql = Self.reportStatement(periods, files: files) {
            var reader = BinaryCopyReader()
            var read = 0
            try database.copyOutMessages(sql) { message in
                guard try reader.read(message) else { return }
                read += 1
                let cells = reader.fields
                func int(_ index: Int) -> Int64? { cells[index].flatMap { BinaryCopyReader.int64(message, $0) } }
                func text(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: message[range]) }
                guard cells.count == 13, let id = cells[0], let kind = int(1), kind == 0 || kind == 1, let period = int(2),
                      period >= 0, period < periods.count, let side = int(3), side == 0 || side == 1,
                      let gross = int(4), let fee = int(5), let tax = int(6), let charges = int(7), let currency = cells[8],
                      let country = cells[9], let product = cells[10], let micros = int(12),
                      let at = BinaryCopyReader.epochSeconds(postgresMicroseconds: micros) else {
                    throw PostgresError(.copy, message: "row \(read) of the Google report side (staged facts and estimated-sales rows "
                                        + "of report files \(Self.list(files.map(\.id))), by order ID) is not one the reconciliation can read")
                }
                let orderID = text(id)
                if !order.hasRows || !order.holds(orderID) {
                    try moveTo(orderID)
                    try start(orderID, side: "report")
                }
                if kind == 0 {
                    order.addFact(period: Int(period), side: Int(side), gross: gross, fee: fee, tax: tax,
                                  charges: Int32(truncatingIfNeeded: charges), currency: text(currency), country: text(country),
                                  product: text(product), refundType: cells[11].map(text), at: at)
                } else {
                    order.addEstimatedSale(period: Int(period), refund: side == 1, charged: gross, taxes: fee,
                                           currency: text(currency), country: text(country), product: text(product), at: at)
                }
            }
        }
        try moveTo(nil)
        if order.hasRows { try body(&order) }
    }
}

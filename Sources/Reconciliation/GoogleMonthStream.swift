import CompactMemory
import Foundation
import Postgres

/// Reads a Google month and its two neighbours as two streams sorted by order ID, merges them, and hands each
/// order's units to `body` as soon as its last row has arrived. One binary `COPY` sends the report side of the three
/// periods — each period's staged earnings facts in (file, seq) order within an order, or its estimated-sales rows in
/// (file, line) order when it has no earnings file — and another the database rows of the three periods in
/// transaction-key order within an order (`GoogleDatabaseStream`); each runs on a connection and a thread of its own
/// (`CopyBatchStream`), which sorts its side as the server sends it unsorted (`BinaryCopySorter`: runs of bounded size
/// spilled to a temporary file and merged), by the order ID's bytes (`COLLATE "C"`), the items CSV's order. Nothing but
/// the current order's rows, one run and a few batches of each side and the small text tables is held: memory does not
/// grow with the month.
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
    /// with its period's position in `periods`, unsorted (`reportSortKeys` sorts them by order ID bytes, then period,
    /// file and position in the file); nil when no file is read. Columns: order, the row's small fields packed into
    /// one int8 (`PackedFields`), gross (or charged amount), fee (or taxes collected), tax, currency, country, product,
    /// instant, then the period's position, file and position in the file to sort by. The small fields packed rather
    /// than one column each: the COPY encodes every column of every row, and the packed form took 15 % off the report
    /// side's server time at 3M rows (docs/RECONCILIATION.md, "Reconcile", the report side).
    static func reportStatement(_ periods: [ReconciliationPeriod], files: [ReportFileRef]) -> String? {
        var branches: [String] = []
        for (index, period) in periods.enumerated() where periods.firstIndex(where: { $0.label == period.label }) == index {
            let own = files.filter { $0.period == period.label }
            let earnings = own.filter { $0.kind == "googleEarnings" }.map(\.id)
            if !earnings.isEmpty {
                branches.append("""
                    SELECT f.order_id, \(PackedFields.sql(kind: "0", period: index, side: "f.side", refundType: "f.refund_type",
                                                          charges: "f.charge_count")),
                           f.gross_micros, f.fee_micros, f.tax_micros, f.currency, f.country, f.product_id, f.first_at,
                           \(index), f.report_file_id, f.seq::int8
                    FROM google_earnings_fact f WHERE f.report_file_id IN (\(list(earnings)))
                    """)
            } else if !own.isEmpty {
                branches.append("""
                    SELECT r.order_number, \(PackedFields.sql(kind: "1", period: index, side: "(r.financial_status = 'Refund')::int",
                                                              refundType: "NULL::text", charges: "1")),
                           r.charged_amount_micros, r.taxes_collected_micros, 0::int8, r.currency_of_sale, r.country_of_buyer,
                           r.sku_id, r.order_charged_at, \(index), r.report_file_id, r.line::int8
                    FROM google_estimated_sales_row r WHERE r.report_file_id IN (\(list(own.map(\.id))))
                    """)
            }
        }
        guard !branches.isEmpty else { return nil }
        return """
            COPY (SELECT u.o, u.packed, u.gross, u.fee, u.tax, u.currency, u.country, u.product, u.at, u.p, u.file, u.pos
                  FROM (\(branches.joined(separator: "\nUNION ALL\n")))
                       AS u(o, packed, gross, fee, tax, currency, country, product, at, p, file, pos)) TO STDOUT (FORMAT binary)
            """
    }

    /// The order the report side is read in: order ID bytes, then period, file and position in the file (the
    /// statement's fields 1, 10, 11 and 12).
    static let reportSortKeys: [BinaryCopySorter.Key] = [.bytes(0), .integer(9), .integer(10), .integer(11)]

    /// One row of the report side: a staged earnings fact (kind 0) or an estimated-sales row (kind 1), its texts in
    /// the batch's bytes.
    struct ReportRow {
        var order: Range<Int>
        var isFact: Bool
        /// The row's period: its position in the periods read.
        var period: Int
        /// 0: the charge side, 1: the refund side.
        var side: Int
        /// A fact's gross, fee and tax; an estimated sale's charged amount and taxes collected (`tax` 0).
        var gross: Int64
        var fee: Int64
        var tax: Int64
        var charges: Int32
        var currency: Range<Int>
        var country: Range<Int>
        var product: Range<Int>
        /// A refund fact's `Refund Type` (`Full` or `Partial`), nil otherwise.
        var refundType: StaticString?
        /// UTC epoch seconds.
        var at: Int64
    }

    /// A batch of report-side rows, read on the stream's thread (`CopyBatchStream`).
    struct ReportBatch: CopyBatch {
        var bytes: [UInt8] = []
        var rows: [ReportRow] = []

        /// Adds one tuple of `reportStatement`'s COPY; a tuple of another shape is an `UnreadableReportRow`.
        mutating func add(_ message: UnsafeRawBufferPointer, fields cells: [Range<Int>?], number: Int) throws {
            func int(_ index: Int) -> Int64? { cells[index].flatMap { BinaryCopyReader.int64(message, $0) } }
            guard cells.count == 12, let id = cells[0], let packed = int(1).flatMap(PackedFields.init),
                  let gross = int(2), let fee = int(3), let tax = int(4), let currency = cells[5], let country = cells[6],
                  let product = cells[7], let micros = int(8),
                  let at = BinaryCopyReader.epochSeconds(postgresMicroseconds: micros) else {
                throw UnreadableReportRow(number: number)
            }
            func copy(_ range: Range<Int>) -> Range<Int> {
                let start = bytes.count
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: message[range]))
                return start..<bytes.count
            }
            rows.append(ReportRow(order: copy(id), isFact: packed.isFact, period: packed.period, side: packed.side, gross: gross,
                                  fee: fee, tax: tax, charges: packed.charges, currency: copy(currency),
                                  country: copy(country), product: copy(product), refundType: packed.refundType, at: at))
        }
    }

    /// The `number`th tuple of the report side is not of `reportStatement`'s shape.
    struct UnreadableReportRow: Error {
        let number: Int
    }

    /// Streams `periods` (the month and its neighbours, see `GoogleOrderUnits`) from `files` and the database,
    /// handing every order's units to `body` in the order of the order IDs' bytes: both sides are read on
    /// connections and threads of their own (`CopyBatchStream`: the report side's staged rows, the database side's
    /// `GoogleDatabaseStream`), each sorted by order ID on its thread, and merged here.
    func read(_ periods: [ReconciliationPeriod], files: [ReportFileRef],
              _ body: (inout GoogleOrderUnits) throws -> Void) throws {
        precondition(periods.count == 3, "a Google month is read with its two neighbours")
        let databaseRows = GoogleDatabaseStream.open(configuration: database.configuration, periods: periods, knownAt: knownAt)
        defer { databaseRows.close() }
        let reportRows = Self.reportStatement(periods, files: files).map {
            CopyBatchStream<ReportBatch>(configuration: database.configuration, sql: $0, sortedBy: Self.reportSortKeys)
        }
        defer { reportRows?.close() }
        var order = GoogleOrderUnits(periods: periods)
        /// Moves to order `id`: first the database rows up to it (the current order's, and whole orders before `id`
        /// that the report side lacks; with `id` nil, every one left), then the current order is complete.
        func moveTo(_ id: UnsafeRawBufferPointer?) throws {
            while try databaseRows.peek({ row, bytes in
                let rowOrder = UnsafeRawBufferPointer(rebasing: bytes[row.order])
                if !order.hasRows || !order.holds(rowOrder) {
                    if let id, ByteInterner.compare(rowOrder, id) >= 0 { return false }
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
        if let reportRows {
            do {
                while try reportRows.peek({ row, bytes in
                    func text(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[range]) }
                    let orderID = text(row.order)
                    if !order.hasRows || !order.holds(orderID) {
                        try moveTo(orderID)
                        try start(orderID, side: "report")
                    }
                    if row.isFact {
                        order.addFact(period: row.period, side: row.side, gross: row.gross, fee: row.fee, tax: row.tax,
                                      charges: row.charges, currency: text(row.currency), country: text(row.country),
                                      product: text(row.product), refundType: row.refundType.map(PackedFields.bytes), at: row.at)
                    } else {
                        order.addEstimatedSale(period: row.period, refund: row.side == 1, charged: row.gross, taxes: row.fee,
                                               currency: text(row.currency), country: text(row.country),
                                               product: text(row.product), at: row.at)
                    }
                    return true
                }) == true {
                    reportRows.advance()
                }
            } catch let unreadable as UnreadableReportRow {
                throw PostgresError(.copy, message: "row \(unreadable.number) of the Google report side (staged facts and estimated-sales rows "
                                    + "of report files \(Self.list(files.map(\.id))), by order ID) is not one the reconciliation can read")
            }
        }
        try moveTo(nil)
        if order.hasRows { try body(&order) }
    }
}

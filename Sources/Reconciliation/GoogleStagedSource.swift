import CompactMemory
import Foundation
import Postgres
import StoreExports

/// Reads one Google month's staged earnings for the compact engine: the rows of its earnings files in file order
/// through one binary `COPY` (the server formats no number, timestamp or text; no `String` per row), folded into
/// runs as they arrive (`EarningsRunFolder`), while a second connection streams the
/// database side of the month and its neighbours (`DatabaseReader`). Both sides stay compact (`CompactReport`,
/// `CompactDatabase`).
struct GoogleStagedSource {
    let database: PostgresConnection
    /// Database rows recorded after this instant are left out.
    let knownAt: Date

    /// What a read found.
    struct Read {
        /// The month's earnings units.
        var report: CompactReport
        /// The database's units of every period read.
        var database: CompactDatabase
        /// Earnings rows read.
        var rows: Int
    }

    /// Reads the staged earnings files `files` as the report side and `periods` from the database.
    func read(files: [ReportFileRef], periods: [ReconciliationPeriod]) throws -> Read {
        let ids = files.map(\.id)
        let staged = try database.query("SELECT coalesce(sum(row_count), 0)::int8 AS n FROM report_file WHERE id = ANY($1::int8[])",
                                        [PostgresTextArray(ids.map { String($0) })])
            .first?.decode(Int64.self, "n") ?? 0
        // About three rows an order: the table is sized once instead of doubling its way up.
        let orders = SharedOrders(capacity: Swift.max(1 << 16, Int(staged) / 2))
        let sql = GoogleDatabaseCopy(knownAt: knownAt).copyStatement(periods)
        let worker = DatabaseReader(configuration: database.configuration, sql: sql, periods: periods, orders: orders)
        let thread = Thread { worker.run() }
        thread.stackSize = 1 << 22
        thread.start()
        var report = CompactReport(orders: orders)
        let streamed = Result { try readRows(ids, into: &report) }
        let databaseSide = worker.wait()
        let rows = try streamed.get()
        let units = try databaseSide.get()
        return Read(report: report, database: units, rows: rows)
    }

    /// Streams the rows of the files `ids` (file by file, in line order) into `report`; returns the rows read.
    private func readRows(_ ids: [Int64], into report: inout CompactReport) throws -> Int {
        var folder = EarningsRunFolder()
        var reader = BinaryCopyReader()
        var rows = 0
        let list = ids.map { String($0) }.joined(separator: ",")
        try database.copyOutMessages("""
            COPY (SELECT r.order_id, r.transaction_type, r.refund_type, r.product_id, r.buyer_country, r.buyer_currency,
                         r.amount_buyer_micros, r.transaction_at
                  FROM google_earnings_row r WHERE r.report_file_id IN (\(list.isEmpty ? "NULL" : list))
                  ORDER BY r.report_file_id, r.line) TO STDOUT (FORMAT binary)
            """) { message in
            guard try reader.read(message) else { return }
            if let full = try folder.add(Self.fields(message, reader.fields)) { report.add(full) }
            rows += 1
        }
        if let last = folder.finish() { report.add(last) }
        report.texts = folder.texts
        return rows
    }

    /// One row's fields, lent from `message`.
    static func fields(_ message: UnsafeRawBufferPointer, _ cells: [Range<Int>?]) throws -> GoogleEarningsFields {
        func text(_ index: Int) -> UnsafeRawBufferPointer {
            cells[index].map { UnsafeRawBufferPointer(rebasing: message[$0]) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        }
        guard cells.count == 8, let typeCell = cells[1], let type = GoogleEarningsScanner.transactionType(message, typeCell),
              let amountCell = cells[6], let amount = BinaryCopyReader.int64(message, amountCell),
              let atCell = cells[7], let micros = BinaryCopyReader.int64(message, atCell),
              let at = BinaryCopyReader.epochSeconds(postgresMicroseconds: micros) else {
            throw PostgresError(.copy, message: "google_earnings_row: a staged row the reconciliation cannot read")
        }
        let refund = text(2)
        let refundType: GoogleRefundType? = refund.elementsEqual("Full".utf8) ? .full
            : refund.elementsEqual("Partial".utf8) ? .partial : nil
        return GoogleEarningsFields(line: 0, orderID: text(0), transactionType: type, refundType: refundType, productID: text(3),
                                    buyerCountry: text(4), buyerCurrency: text(5), amountBuyerMicros: amount,
                                    transactionEpochSeconds: at)
    }
}

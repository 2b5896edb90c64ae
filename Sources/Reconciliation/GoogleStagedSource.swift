import CompactMemory
import Foundation
import Postgres
import StoreExports

/// Reads a Google month and its two neighbours for the compact engine. Each period's report side comes from its
/// staged files — its earnings files, or its estimated-sales files when it has no earnings file — in file order
/// through one binary `COPY` per period (the server formats no number, timestamp or text; no `String` per row). The
/// month's own report side is read while a second connection streams the database side of the three periods
/// (`DatabaseReader`). Every side numbers its orders in one `SharedOrders` and stays compact (`CompactReport`,
/// `CompactDatabase`).
struct GoogleStagedSource {
    let database: PostgresConnection
    /// Database rows recorded after this instant are left out.
    let knownAt: Date

    /// What a read found.
    struct Read {
        /// The report side of each period read, by period label.
        var reports: [String: CompactReport]
        /// The database's units of every period read.
        var database: CompactDatabase
        /// Staged rows read (earnings and estimated sales).
        var rows: Int
        /// The staged files read.
        var files: [ReportFileRef]
    }

    /// Reads `period` and its neighbours `previous` and `next`: the report side of each from its current staged
    /// files (with `only`, just those ids: a closed period's basis), the database side of all three.
    func read(_ period: ReconciliationPeriod, previous: ReconciliationPeriod, next: ReconciliationPeriod,
              only: Set<Int64>?) throws -> Read {
        let periods = [previous, period, next]
        let used = try files(periods, only: only)
        let staged = try database.query("SELECT coalesce(sum(row_count), 0)::int8 AS n FROM report_file WHERE id = ANY($1::int8[])",
                                        [PostgresTextArray(used.map { String($0.id) })])
            .first?.decode(Int64.self, "n") ?? 0
        // About three rows an order: the table is sized once instead of doubling its way up.
        let orders = SharedOrders(capacity: Swift.max(1 << 16, Int(staged) / 2))
        let sql = GoogleDatabaseCopy(knownAt: knownAt).copyStatement(periods)
        let worker = DatabaseReader(configuration: database.configuration, sql: sql, periods: periods, orders: orders)
        let thread = Thread { worker.run() }
        thread.stackSize = 1 << 22
        thread.start()
        var reports: [String: CompactReport] = [:]
        let streamed = Result { () -> Int in
            var rows = 0
            // The month first (while the database side streams), then its neighbours.
            for label in [period.label, previous.label, next.label] where reports[label] == nil {
                var report = CompactReport(orders: orders)
                rows += try readReport(used.filter { $0.period == label }, into: &report)
                reports[label] = report
            }
            return rows
        }
        let databaseSide = worker.wait()
        let rows = try streamed.get()
        return Read(reports: reports, database: try databaseSide.get(), rows: rows, files: used.sorted())
    }

    /// The report side of `period` alone, from its current staged files (its orders numbered in a table of its own).
    func report(_ period: ReconciliationPeriod) throws -> CompactReport {
        var report = CompactReport(orders: SharedOrders())
        _ = try readReport(try files([period], only: nil), into: &report)
        return report
    }

    /// The staged files `periods` are read from: a period's current earnings files, or its estimated-sales files when
    /// it has no earnings file; with `only`, just those ids.
    private func files(_ periods: [ReconciliationPeriod], only: Set<Int64>?) throws -> [ReportFileRef] {
        let files = try ReportFileRef.current(database, kinds: ["googleEarnings", "googleEstimatedSales"],
                                              periods: periods.map(\.label), only: only)
        let earningsPeriods = Set(files.filter { $0.kind == "googleEarnings" }.map(\.period))
        return files.filter { $0.kind == "googleEarnings" || !earningsPeriods.contains($0.period) }
    }

    /// Streams one period's staged files (earnings, or estimated sales) into `report`; returns the rows read.
    private func readReport(_ files: [ReportFileRef], into report: inout CompactReport) throws -> Int {
        let earnings = files.filter { $0.kind == "googleEarnings" }.map(\.id)
        if !earnings.isEmpty { return try readEarnings(earnings, into: &report) }
        return try readEstimatedSales(files.map(\.id), into: &report)
    }

    /// `ids` as a list for `IN (…)`.
    private static func list(_ ids: [Int64]) -> String {
        ids.isEmpty ? "NULL" : ids.map { String($0) }.joined(separator: ",")
    }

    /// Streams the earnings facts of the files `ids` (file by file, in file order: `google_earnings_fact`, each a run
    /// of one order and side folded at import) into `report`, which absorbs each into its unit; returns the rows the
    /// facts fold.
    private func readEarnings(_ ids: [Int64], into report: inout CompactReport) throws -> Int {
        var texts = UnitTexts()
        var reader = BinaryCopyReader()
        var batch = EarningsRuns()
        var rows = 0
        var read = 0
        try database.copyOutMessages("""
            COPY (SELECT f.order_id, f.side::int8, f.gross_micros, f.fee_micros, f.tax_micros, f.charge_count::int8,
                         f.row_count::int8, f.currency, f.country, f.product_id, f.refund_type, f.first_at
                  FROM google_earnings_fact f WHERE f.report_file_id IN (\(Self.list(ids)))
                  ORDER BY f.report_file_id, f.seq) TO STDOUT (FORMAT binary)
            """) { message in
            guard try reader.read(message) else { return }
            read += 1
            let cells = reader.fields
            func int(_ index: Int) -> Int64? { cells[index].flatMap { BinaryCopyReader.int64(message, $0) } }
            func text(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: message[range]) }
            guard cells.count == 12, let order = cells[0], let side = int(1), side == 0 || side == 1, let gross = int(2),
                  let fee = int(3), let tax = int(4), let charges = int(5), let count = int(6), let currency = cells[7],
                  let country = cells[8], let product = cells[9], let micros = int(11),
                  let at = BinaryCopyReader.epochSeconds(postgresMicroseconds: micros) else {
                throw PostgresError(.copy, message: "google_earnings_fact: fact \(read) of report files \(Self.list(ids)) "
                                    + "(in file and seq order) is not one the reconciliation can read")
            }
            batch.add(StagedEarningsFact(order: text(order), side: UInt8(side), gross: gross, fee: fee, tax: tax,
                                         charges: Int32(truncatingIfNeeded: charges), rows: Int(count), currency: text(currency),
                                         country: text(country), product: text(product), refundType: cells[10].map(text), at: at),
                      texts: &texts)
            rows += Int(count)
            if batch.units.count >= EarningsRuns.batchSize {
                report.add(batch)
                batch = EarningsRuns()
            }
        }
        if !batch.units.isEmpty { report.add(batch) }
        report.texts = texts
        return rows
    }

    /// Streams the estimated-sales rows of the files `ids` (file by file, in line order) into `report`, each row a
    /// unit of its order's charge or refund (`Refund` status): the charged amount and the taxes, signed by the
    /// side (a refund row may be written with either sign); returns the rows read.
    private func readEstimatedSales(_ ids: [Int64], into report: inout CompactReport) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        var texts = UnitTexts()
        var reader = BinaryCopyReader()
        var batch = EarningsRuns()
        var rows = 0
        try database.copyOutMessages("""
            COPY (SELECT r.order_number, r.financial_status, r.sku_id, r.country_of_buyer, r.currency_of_sale,
                         r.charged_amount_micros, r.taxes_collected_micros, r.order_charged_at
                  FROM google_estimated_sales_row r WHERE r.report_file_id IN (\(Self.list(ids)))
                  ORDER BY r.report_file_id, r.line) TO STDOUT (FORMAT binary)
            """) { message in
            guard try reader.read(message) else { return }
            let cells = reader.fields
            guard cells.count == 8, let order = cells[0], let status = cells[1], let sku = cells[2], let country = cells[3],
                  let currency = cells[4], let chargedCell = cells[5], let charged = BinaryCopyReader.int64(message, chargedCell),
                  let taxesCell = cells[6], let taxes = BinaryCopyReader.int64(message, taxesCell),
                  let atCell = cells[7], let micros = BinaryCopyReader.int64(message, atCell),
                  let at = BinaryCopyReader.epochSeconds(postgresMicroseconds: micros) else {
                throw PostgresError(.copy, message: "google_estimated_sales_row: a staged row the reconciliation cannot read")
            }
            func text(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: message[range]) }
            let refund = text(status).elementsEqual("Refund".utf8)
            let sign: Int64 = refund ? -1 : 1
            var unit = CompactUnit()
            unit.gross = sign * abs(charged)
            unit.tax = -sign * abs(taxes)
            unit.count = 1
            unit.currency = texts.currencies.intern(text(currency))
            unit.product = texts.products.intern(text(sku))
            unit.country = texts.countries.intern(text(country))
            unit.at = at
            unit.isTest = false
            batch.add(order: text(order), side: refund ? 1 : 0, unit: unit, rows: 1)
            rows += 1
            if batch.units.count >= EarningsRuns.batchSize {
                report.add(batch)
                batch = EarningsRuns()
            }
        }
        if !batch.units.isEmpty { report.add(batch) }
        report.texts = texts
        return rows
    }
}

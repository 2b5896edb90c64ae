import Foundation
import JobKit
import Postgres

/// Records the rows a report computes in a run, month by month, into the run's temporary tables of new stored months
/// (`StoredMonths.save` moves them into the store after the run), through `send` (the job's session, or the run's
/// `MonthWriter`). Only complete months of the run's snapshots are
/// recorded, every one of them from the first computed month to the last reported, an empty one too. The rows must
/// come in order of the declared month column: a report that breaks its declaration fails the run, named.
///
/// A month's rows are held until the month ends and digested (`MonthRowsDigest`): when the store holds the month
/// with the same SQL, inputs and digest (`Plan.storedRows`), nothing is sent and the stored entry stays as it is (its
/// `computed_as_of` and `stored_at` those of the run that stored it); otherwise the rows and the entry are sent.
final class MonthRecorder {
    /// What a recorder of a report whose file is its CSV alone also stores: each recorded month's CSV lines, under
    /// `format` (`ReportFormatter.csvFormat`), formatted on the writer's thread as the file's lines are.
    struct CSVLines {
        let format: String
        let rawIdentifiers: Bool
        /// The digest of the rows each month's stored lines under `format` were formatted from (`report_stored_csv`,
        /// migration 0062): lines are written again only for a month whose rows' digest differs.
        let stored: [String: String]
    }

    private let report: String
    private let column: String
    private let plan: StoredMonths.Plan
    private let settings: ReportSettings
    private let inputs: [String: String]
    private let csv: CSVLines?
    /// `settings.asOfMonth`, computed once (it formats the as-of instant, and every row asks).
    private let asOfMonth: ReportMonth
    /// Runs a statement that records rows, in the session that holds the temporary tables; the parameters are made
    /// where it runs (a `MonthWriter` encodes the rows on its own thread).
    private let send: (_ sql: String, _ parameters: @escaping @Sendable () -> [any PostgresEncodable]) throws -> Void
    private var columns: [String]?
    private var index = 0
    private var month: ReportMonth?
    /// The current month's rows, held in their digest's encoding (columns first).
    private var digest: MonthRowsDigest?
    private var recorded: Set<ReportMonth> = []
    /// Whether the current month is recorded (`isRecorded`, asked once per month).
    private var recording = false
    /// Months computed with the rows the store already holds for them, so not sent again.
    private(set) var keptEqual = 0

    /// Rows sent to the database at a time, so a large month is never held whole.
    private static let batchSize = 5_000

    init(report: String, column: String, plan: StoredMonths.Plan, settings: ReportSettings, inputs: [String: String],
         csv: CSVLines? = nil,
         send: @escaping (_ sql: String, _ parameters: @escaping @Sendable () -> [any PostgresEncodable]) throws -> Void) {
        self.report = report
        self.column = column
        self.plan = plan
        self.settings = settings
        self.inputs = inputs
        self.csv = csv
        asOfMonth = settings.asOfMonth
        self.send = send
    }

    /// Takes computed rows (in the report's order) with their columns.
    func observe(_ columns: [String], _ rows: [[String?]]) throws {
        if self.columns == nil {
            guard let position = columns.firstIndex(of: column) else {
                throw JobError.failed("report \(report): declares its rows by month column '\(column)', which it does not return")
            }
            self.columns = columns
            index = position
        }
        for row in rows {
            let text = row[index] ?? ""
            guard let rowMonth = ReportMonth(text: text) else {
                throw JobError.failed("report \(report): month column '\(column)' holds '\(text)', not YYYY-MM")
            }
            if rowMonth != month {
                if let month, rowMonth < month {
                    throw JobError.failed("report \(report): its rows are not in order of its month column '\(column)' (\(rowMonth) after \(month)), so its months cannot be stored")
                }
                guard rowMonth >= plan.firstComputed, rowMonth <= settings.lastMonth else {
                    throw JobError.failed("report \(report): a row of month \(rowMonth) outside the months it computes (\(plan.firstComputed)..\(settings.lastMonth)), so its months cannot be stored")
                }
                try finishMonth()
                month = rowMonth
                recording = isRecorded(rowMonth)
            }
            if recording {
                if digest == nil { digest = MonthRowsDigest(columns: columns) }
                digest?.add(row)
            }
        }
    }

    /// Ends the report: records its last month and every computed complete month that had no row.
    func finish() throws {
        try finishMonth()
        guard columns != nil else { return }
        var empty = plan.firstComputed
        while empty <= settings.lastMonth {
            if isRecorded(empty), !recorded.contains(empty) {
                month = empty
                try finishMonth()
            }
            empty = empty.advanced(by: 1)
        }
    }

    /// A complete month of the run's snapshots.
    private func isRecorded(_ month: ReportMonth) -> Bool {
        month < asOfMonth && inputs[month.description] != nil
    }

    private func finishMonth() throws {
        defer { digest = nil }
        guard let month, isRecorded(month), let columns else { return }
        let rows = digest ?? MonthRowsDigest(columns: columns)
        let rowsSHA256 = rows.hex()
        recorded.insert(month)
        self.month = nil
        if let csv, csv.stored[month.description] != rowsSHA256 {
            try sendLines(rows, columns: columns, month: month, rowsSHA256: rowsSHA256, csv: csv)
        }
        if plan.storedRows[month.description] == rowsSHA256 {
            keptEqual += 1
            return
        }
        var written = 0
        try rows.forEachBatch(of: Self.batchSize) { batch in
            try sendRows(batch, month: month, from: written)
            written += batch.count
        }
        let values: [any PostgresEncodable] = [report, settings.basis.rawValue, settings.currency, month.description, plan.sqlSHA256,
                                               inputs[month.description] ?? "",
                                               String(JSONCells.encode([columns.map { Optional($0) }]).dropFirst().dropLast()),
                                               Int64(written), PostgresTimestamp.format(settings.asOf), rowsSHA256]
        try StoredMonths.failing("storing \(report) \(month)") {
            try send("""
                INSERT INTO pg_temp.report_stored_new_month
                    (report, basis, currency, month, sql_sha256, inputs, columns, row_count, computed_as_of, stored_at, rows_sha256)
                SELECT $1, $2, $3, $4, $5, $6, ARRAY(SELECT jsonb_array_elements_text($7::jsonb)), $8, $9, clock_timestamp(), $10
                """, { [values] in values })
        }
    }

    /// Sends the CSV lines of `month`'s `rows` (formatted where the statement runs) under `csv`'s format, with the
    /// digest of the rows they come from.
    private func sendLines(_ rows: MonthRowsDigest, columns: [String], month: ReportMonth, rowsSHA256: String, csv: CSVLines) throws {
        let key: [any PostgresEncodable] = [report, settings.basis.rawValue, settings.currency, month.description, csv.format,
                                            rowsSHA256, Int64(rows.count)]
        let report = self.report
        try StoredMonths.failing("storing \(report) \(month)") {
            try send("""
                INSERT INTO pg_temp.report_stored_new_csv (report, basis, currency, month, format, rows_sha256, row_count, body)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """, { [key, rows] in
                    var lines: [UInt8]? = []
                    var number = 1
                    // A row the formatter refuses has failed the job's own file before its month ends; should one come
                    // here, the NULL body fails the statement, and the run with it, rather than store partial lines.
                    do {
                        try rows.forEachBatch(of: Self.batchSize) { batch in
                            lines? += try ReportFormatter.csvLines(report: report, columns: columns, rawIdentifiers: csv.rawIdentifiers,
                                                                   rows: batch, firstRowNumber: number)
                            number += batch.count
                        }
                    } catch {
                        lines = nil
                    }
                    return key + [lines]
                })
        }
    }

    /// Sends `rows` of `month`, the first of them its row number `from` (from 0).
    private func sendRows(_ rows: [[String?]], month: ReportMonth, from: Int) throws {
        let key: [any PostgresEncodable] = [report, settings.basis.rawValue, settings.currency, month.description, Int64(from)]
        try StoredMonths.failing("storing \(report) \(month)") {
            try send("""
                INSERT INTO pg_temp.report_stored_new_row (report, basis, currency, month, ordinal, cells)
                SELECT $1, $2, $3, $4, $5 + t.ordinal::integer, t.cells FROM jsonb_array_elements($6::jsonb) WITH ORDINALITY AS t(cells, ordinal)
                """, { [key, rows] in key + [JSONCells.encode(rows)] })
        }
    }
}

/// Rows of text cells as a JSON array of arrays (null for NULL), what `report_stored_row.cells` holds.
enum JSONCells {
    /// `[[…],[…]]`.
    static func encode(_ rows: [[String?]]) -> String {
        var out = "["
        out.reserveCapacity(rows.count * 96)
        for (r, row) in rows.enumerated() {
            if r > 0 { out += "," }
            out += "["
            for (c, cell) in row.enumerated() {
                if c > 0 { out += "," }
                if let cell { JSONLine.appendQuoted(cell, to: &out) } else { out += "null" }
            }
            out += "]"
        }
        return out + "]"
    }
}

import BillingCore
import JobKit
import Postgres
import XLSX

/// Turns a report row into its CSV fields and spreadsheet cells, by column name (the report contract): amounts in the
/// row's currency with its ISO 4217 minor units (half to even, from the SQL's already rounded micros), identifiers
/// masked unless raw, instants as ISO 8601 UTC. A value that breaks its column's contract fails the run, naming it.
public struct ReportFormatter {
    /// The report's name, for messages.
    public let report: String
    /// The written columns.
    public let columns: [OutputColumn]
    /// Where the row's currency is, if the report has one.
    let currencyIndex: Int?
    /// Keep identifiers unmasked.
    let rawIdentifiers: Bool

    /// The version of what `format` writes into a CSV field. A stored month's CSV lines (migration 0062) are replayed
    /// only under the same version: any change to what a field holds for the same cell must increase it
    /// (`StoredCSVLinesTests.theFormattingVersionNamesWhatAFieldHolds` fails until it does).
    static let csvVersion = 1

    /// The key a stored month's CSV lines are written and replayed under: `csvVersion` and the identifier mode.
    static func csvFormat(rawIdentifiers: Bool) -> String {
        "v\(csvVersion) " + (rawIdentifiers ? "raw" : "masked")
    }

    /// The CSV lines (no header) of `rows` of a report with SQL `columns`, as the report's file holds them.
    static func csvLines(report: String, columns: [String], rawIdentifiers: Bool, rows: [[String?]], firstRowNumber: Int) throws -> [UInt8] {
        let formatter = ReportFormatter(report: report, columns: columns, rawIdentifiers: rawIdentifiers)
        var encoder = CSVEncoder()
        for (offset, row) in rows.enumerated() {
            encoder.append(try formatter.format(row, rowNumber: firstRowNumber + offset).map(\.csv))
        }
        return encoder.bytes
    }

    /// A formatter for a report with SQL `columns`.
    public init(report: String, columns sqlColumns: [String], rawIdentifiers: Bool) {
        self.report = report
        self.columns = OutputColumn.layout(sqlColumns)
        self.currencyIndex = sqlColumns.firstIndex(of: "currency")
        self.rawIdentifiers = rawIdentifiers
    }

    /// Decimal places of an amount in `row`: the currency's ISO 4217 minor units, or 6 (exact micros) when the
    /// report has no currency column or the row's is NULL.
    func places(_ row: [String?]) -> Int {
        guard let currencyIndex, let currency = row[currencyIndex] else { return 6 }
        return CurrencyDigits.places(of: currency)
    }

    /// The CSV field (nil: empty) and the sheet cell of every written column of `row` (`rowNumber` from 1, for messages).
    public func format(_ row: [String?], rowNumber: Int) throws -> [(csv: String?, cell: Cell)] {
        var output: [(csv: String?, cell: Cell)] = []
        output.reserveCapacity(columns.count)
        // The row's decimal places, looked up once for its amount columns.
        var rowPlaces: Int?
        for column in columns {
            guard let text = row[column.source] else { output.append((nil, .empty)); continue }
            func bad(_ what: String) -> JobError {
                JobError.failed("report \(report) row \(rowNumber) column \(column.name): '\(text)' is not \(what)")
            }
            switch column.content {
            case .amount:
                guard let micros = Int64(text) else { throw bad("integer micros") }
                let digits = rowPlaces ?? places(row)
                rowPlaces = digits
                let amount = try DecimalAmount(micros: micros, places: digits)
                output.append((amount.exactDecimal, .money(micros: micros, places: amount.places)))
            case .micros:
                guard let micros = Int64(text) else { throw bad("integer micros") }
                guard micros.magnitude <= 1 << 53 else { throw bad("an integer a spreadsheet holds exactly (|micros| ≤ 2^53)") }
                output.append((text, .integer(micros)))
            case .value(let role):
                switch role {
                case .count:
                    guard let value = Int64(text), value.magnitude <= 1 << 53 else { throw bad("a whole number") }
                    output.append((text, .integer(value)))
                case .rate:
                    guard let value = Double(text), value.isFinite else { throw bad("a decimal fraction") }
                    output.append((text, .percent(value, places: 2)))
                case .days:
                    guard let value = Double(text), value.isFinite else { throw bad("a decimal number of days") }
                    output.append((text, .number(value)))
                case .exchangeRate:
                    guard let value = Double(text), value.isFinite, value > 0 else { throw bad("a positive exchange rate") }
                    output.append((text, .number(value)))
                case .flag:
                    let shown: String
                    switch text {
                    case "t", "true": shown = "true"
                    case "f", "false": shown = "false"
                    default: throw bad("a flag (t or f)")
                    }
                    output.append((shown, .text(shown)))
                case .instant:
                    guard let date = PostgresTimestamp.parse(text) else { throw bad("an instant") }
                    let iso = PostgresTimestamp.iso8601(date)
                    output.append((iso, .text(iso)))
                case .identifier:
                    let shown = rawIdentifiers ? text : Redaction.mask(text)
                    output.append((shown, .text(shown)))
                case .currency, .text, .micros:
                    output.append((text, .text(text)))
                }
            }
        }
        return output
    }
}

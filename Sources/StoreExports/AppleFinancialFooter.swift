import BillingCore

/// The part of an Apple Financial Report after the data rows: `Total_Rows`, `Total_Amount`, `Total_Units`
/// (each once), blank or all-tab lines, and in the consolidated file a per-country summary table.
enum AppleFinancialFooter {
    /// The totals and the lines they were read from.
    struct Located {
        let totals: AppleFinancialTotals
        let rowsLine: Int
        let amountLine: Int
        let unitsLine: Int
    }

    /// The most rows the consolidated file's per-country table may hold: Apple's has one row per country or region
    /// and proceeds currency (about 175 storefronts), so a longer table is not Apple's, and refusing it keeps the
    /// streamed reader's memory bounded (docs/STORE_REPORTS.md, "Limits").
    static let summaryRowLimit = 1_000

    static let summaryColumns: [ColumnSpec] = [
        .required("Country Of Sale"), .required("Partner Share Currency"), .required("Quantity"), .required("Extended Partner Share"),
    ]

    /// Reads the footer records one at a time (a financial report read as a stream hands them on as they come);
    /// throws on a missing, repeated or malformed total or any other line.
    final class Reader {
        let file: String
        private var values: [String: (value: String, line: Int)] = [:]
        private(set) var summary: [AppleCountrySummaryRow] = []
        private var layout: HeaderLayout?

        /// A reader of the footer of `file`.
        init(file: String) {
            self.file = file
        }

        /// Reads one record after the data rows (blank ones are skipped).
        func read(_ record: DelimitedRecord) throws {
            guard !record.isBlank else { return }
            let label = record.fields[0].trimmingSpaces
            if let layout {
                guard summary.count < AppleFinancialFooter.summaryRowLimit else {
                    throw StoreReportError(file: file, line: record.line, column: 1,
                                           reason: "more than \(AppleFinancialFooter.summaryRowLimit) rows in the per-country table (Apple's has one per country or region)")
                }
                let cells = try RowCells(record, layout, file: file)
                summary.append(AppleCountrySummaryRow(
                    line: record.line, countryOfSale: try cells.required("Country Of Sale"),
                    partnerShareCurrency: try cells.currency("Partner Share Currency"),
                    quantity: try cells.integer("Quantity"), extendedPartnerShareMicros: try cells.micros("Extended Partner Share")))
            } else if ["Total_Rows", "Total_Amount", "Total_Units"].contains(label) {
                guard values[label] == nil else {
                    throw StoreReportError(file: file, line: record.line, column: 1, reason: "\(label) appears twice")
                }
                let rest = record.fields.dropFirst().map { $0.trimmingSpaces }
                guard let value = rest.first, !value.isEmpty, rest.dropFirst().allSatisfy(\.isEmpty) else {
                    throw StoreReportError(file: file, line: record.line, column: 2, reason: "\(label) needs exactly one value")
                }
                values[label] = (value, record.line)
            } else if label == "Country Of Sale", values.count == 3 {
                layout = try HeaderLayout(header: record, specs: summaryColumns, file: file)
            } else {
                let reason = values.count == 3 ? "unexpected line after the totals" : "unexpected line among the data and totals (a data row after a blank line?)"
                throw StoreReportError(file: file, line: record.line, column: 1, reason: reason)
            }
        }

        /// The totals read, after the file's last record (on `lastLine`).
        func totals(lastLine: Int) throws -> Located {
            try AppleFinancialFooter.totals(values, file: file, lastLine: lastLine)
        }
    }

    /// The three totals from their `values` (label: text and line); a missing one is reported after `lastLine`.
    private static func totals(_ values: [String: (value: String, line: Int)], file: String, lastLine: Int) throws -> Located {
        func value(_ label: String) throws -> (String, Int) {
            guard let found = values[label] else {
                throw StoreReportError(file: file, line: lastLine + 1, column: 1, reason: "missing footer \(label) (truncated file?)")
            }
            return found
        }
        let (rows, rowsLine) = try value("Total_Rows")
        let (amount, amountLine) = try value("Total_Amount")
        let (units, unitsLine) = try value("Total_Units")
        guard let rowCount = Int64(rows), rowCount >= 0 else {
            throw StoreReportError(file: file, line: rowsLine, column: 2, reason: "Total_Rows '\(Redaction.excerpt(rows))' is not a count")
        }
        guard let unitCount = Int64(units) else {
            throw StoreReportError(file: file, line: unitsLine, column: 2, reason: "Total_Units '\(Redaction.excerpt(units))' is not a whole number")
        }
        guard case .success(let amountMicros) = Micros.parse(Substring(amount)) else {
            throw StoreReportError(file: file, line: amountLine, column: 2, reason: "Total_Amount '\(Redaction.excerpt(amount))' is not a number")
        }
        let totals = AppleFinancialTotals(rows: rowCount, amountMicros: amountMicros, units: unitCount)
        return Located(totals: totals, rowsLine: rowsLine, amountLine: amountLine, unitsLine: unitsLine)
    }
}

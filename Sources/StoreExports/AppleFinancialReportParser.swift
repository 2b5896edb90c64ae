import BillingCore

/// Reads an Apple Financial Report (tab-separated text, already decompressed): columns by header name,
/// rows until the `Total_` footer, the footer verified against the rows, then the `ZZ` country table.
public enum AppleFinancialReportParser {
    static let columns: [ColumnSpec] = [
        .required("Start Date"), .required("End Date"), .required("UPC"), .required("ISRC/ISBN"),
        .required("Vendor Identifier"), .required("Quantity"), .required("Partner Share"),
        .required("Extended Partner Share"), .required("Partner Share Currency"),
        .required("Sales or Return", "Sale or Return"), .required("Apple Identifier"),
        .required("Artist/Show/Developer/Author"), .required("Title"),
        .required("Label/Studio/Network/Developer/Publisher"), .required("Grid"),
        .required("Product Type Identifier"), .required("ISAN/Other Identifier"), .required("Country Of Sale"),
        .required("Pre-order Flag"), .required("Promo Code"), .required("Customer Price"), .required("Customer Currency"),
    ]

    /// Parses `bytes` (UTF-8 text) read from `file`; returns every row or throws naming line and column.
    public static func parse(_ bytes: [UInt8], file: String) throws -> AppleFinancialReport {
        let body = try ReportText.utf8Body(bytes, file: file)
        let reader = DelimitedReader(separator: UInt8(ascii: "\t"), quoting: false, limits: .apple)
        let records = try reader.records(body, file: file) { _ = try HeaderLayout(header: $0, specs: columns, file: file) }
        guard let header = records.first else { throw StoreReportError(file: file, line: 1, column: 1, reason: "no header row") }
        let layout = try HeaderLayout(header: header, specs: columns, file: file)
        var rows: [AppleFinancialRow] = []
        var index = 1
        while index < records.count, !isFooterOrBlank(records[index]) {
            rows.append(try row(RowCells(records[index], layout, file: file)))
            index += 1
        }
        let tail = try AppleFinancialFooter.parse(records[index...], file: file, lastLine: records.last?.line ?? 1)
        try verify(tail.totals, against: rows, file: file)
        let name = AppleReportFileName(file)
        if let name { try checkDates(rows, layout: layout, against: name, file: file) }
        return AppleFinancialReport(file: file, name: name, rows: rows,
                                    totals: tail.totals.totals, countrySummary: tail.summary)
    }

    static func isFooterOrBlank(_ record: DelimitedRecord) -> Bool {
        record.isBlank || (record.fields.first?.hasPrefix("Total_") ?? false)
    }

    static func row(_ cells: RowCells) throws -> AppleFinancialRow {
        let start = try cells.requiredDate("Start Date", .monthDayYear)
        let end = try cells.requiredDate("End Date", .monthDayYear)
        guard start <= end else { throw cells.failure("End Date", "'End Date' \(end) is before 'Start Date' \(start)") }
        let kind = try cells.required("Sales or Return")
        guard let saleOrReturn = AppleSaleOrReturn(rawValue: kind) else {
            throw cells.failure("Sales or Return", "'Sales or Return' is '\(Redaction.excerpt(kind))', expected S or R")
        }
        return AppleFinancialRow(
            line: cells.record.line, startDate: start, endDate: end, upc: cells.text("UPC"), isrcIsbn: cells.text("ISRC/ISBN"),
            vendorIdentifier: try cells.required("Vendor Identifier"), quantity: try cells.integer("Quantity"),
            partnerShareMicros: try cells.micros("Partner Share"),
            extendedPartnerShareMicros: try cells.micros("Extended Partner Share"),
            partnerShareCurrency: try cells.currency("Partner Share Currency"), saleOrReturn: saleOrReturn,
            appleIdentifier: try cells.required("Apple Identifier"), developer: cells.text("Artist/Show/Developer/Author"),
            title: cells.text("Title"), label: cells.text("Label/Studio/Network/Developer/Publisher"), grid: cells.text("Grid"),
            productTypeIdentifier: try cells.required("Product Type Identifier"),
            isanOtherIdentifier: cells.text("ISAN/Other Identifier"), countryOfSale: try cells.required("Country Of Sale"),
            preOrderFlag: cells.text("Pre-order Flag"), promoCode: cells.text("Promo Code"),
            customerPriceMicros: try cells.micros("Customer Price"), customerCurrency: try cells.currency("Customer Currency"))
    }

    /// Every row's `Start Date` … `End Date` must lie inside the fiscal period the file name's `MMYY` names: a file
    /// renamed to another month is refused at its first row, not imported into the wrong period.
    static func checkDates(_ rows: [AppleFinancialRow], layout: HeaderLayout, against name: AppleReportFileName, file: String) throws {
        let period = AppleFiscalCalendar.dates(of: name.period)
        for row in rows where !(period.contains(row.startDate) && period.contains(row.endDate)) {
            let column = (layout.positions[period.contains(row.startDate) ? "End Date" : "Start Date"] ?? 0) + 1
            throw StoreReportError(file: file, line: row.line, column: column,
                                   reason: "row dated \(row.startDate)…\(row.endDate) is outside \(name.period) (\(period.lowerBound)…\(period.upperBound)), the period the file name's MMYY '\(name.period.fileMMYY)' names")
        }
    }

    /// Checks `Total_Rows`, `Total_Amount` (sum of Extended Partner Share) and `Total_Units` (sale units only).
    static func verify(_ footer: AppleFinancialFooter.Located, against rows: [AppleFinancialRow], file: String) throws {
        let amount = rows.reduce(Int64(0)) { $0 &+ $1.extendedPartnerShareMicros }
        let units = rows.reduce(Int64(0)) { $0 &+ max(0, $1.quantity) }
        if footer.totals.rows != Int64(rows.count) {
            throw StoreReportError(file: file, line: footer.rowsLine, column: 2,
                                   reason: "footer Total_Rows \(footer.totals.rows) but the file has \(rows.count) data rows")
        }
        if footer.totals.amountMicros != amount {
            throw StoreReportError(file: file, line: footer.amountLine, column: 2,
                                   reason: "footer Total_Amount \(Micros.format(footer.totals.amountMicros)) but the rows' Extended Partner Share sums to \(Micros.format(amount))")
        }
        if footer.totals.units != units {
            throw StoreReportError(file: file, line: footer.unitsLine, column: 2,
                                   reason: "footer Total_Units \(footer.totals.units) but the rows' sale units sum to \(units)")
        }
    }
}

extension RowCells {
    /// A three-letter upper-case ISO 4217 code.
    func currency(_ name: String) throws -> String {
        let value = try required(name)
        guard value.utf8.count == 3, value.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) else {
            throw failure(name, "'\(name)': '\(Redaction.excerpt(value))' is not a currency code")
        }
        return value
    }
}

import BillingCore

/// Reads an Apple Financial Report (tab-separated text, already decompressed): columns by header name,
/// rows until the `Total_` footer, the footer verified against the rows, then the `ZZ` country table; each row's dates
/// must lie in the fiscal period of the file name's `MMYY`. Read as a stream by `AppleFinancialScanner`.
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

    /// Parses `bytes` (UTF-8 text) read from `file`; returns every row or throws naming line and column (the same
    /// reading as a stream, `AppleFinancialScanner`, fed the whole file at once).
    public static func parse(_ bytes: [UInt8], file: String) throws -> AppleFinancialReport {
        var scanner = AppleFinancialScanner(file: file)
        var rows: [AppleFinancialRow] = []
        try bytes.withUnsafeBytes { try scanner.feed($0) { rows.append($0) } }
        let tail = try scanner.finish { rows.append($0) }
        return AppleFinancialReport(file: file, name: AppleReportFileName(file), rows: rows, totals: tail.totals,
                                    countrySummary: tail.countrySummary)
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

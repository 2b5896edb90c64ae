import BillingCore
/// Reads a Google Play estimated sales CSV (the one member of `salesreport_YYYYMM.zip`): columns by name,
/// the 2024 header and its later additions; checks Charged Amount = Item Price + Taxes Collected. The import reads it as
/// a stream (`scanner`), one record at a time, whatever the month's size.
public enum GoogleEstimatedSalesParser {
    static let extraColumns = ["First USD 1M Eligible", "Coupon Value", "Discount Rate", "Featured Product ID",
                               "Price Experiment ID", "Sales Channel"]
    static let columns: [ColumnSpec] = [
        .required("Order Number"), .required("Order Charged Date"), .required("Order Charged Timestamp"),
        .required("Financial Status"), .required("Device Model"), .required("Product Title"),
        .required("Product ID", "Package ID"), .required("Product Type"), .required("SKU ID"), .required("Currency of Sale"),
        .required("Item Price"), .required("Taxes Collected"), .required("Charged Amount"), .required("City of Buyer"),
        .required("State of Buyer"), .required("Postal Code of Buyer"), .required("Country of Buyer"),
        .optional("Base Plan ID", "Base Plan or Purchase Option ID"), .optional("Offer ID"), .optional("Group ID"),
        .optional("Promotion ID"),
    ] + extraColumns.map { ColumnSpec.optional($0) }

    /// The longest cell and line accepted, in bytes (docs/STORE_REPORTS.md, "Limits"): the earnings report's, as its
    /// cells (titles, cities, postal codes) are as short; a longer one rejects the file at its position.
    static let limits = DelimitedLimits(cellBytes: 4_096, lineBytes: 65_536)

    /// A reader of the report `file` as a stream (`CSVScanner`): the import's, whatever the file's size.
    public static func scanner(file: String) -> CSVScanner<GoogleEstimatedSalesRow> {
        CSVScanner(file: file, specs: columns, limits: limits, row: row)
    }

    /// Parses `bytes` read from `file` in one piece; returns every row or throws naming line and column (the
    /// reference the stream is checked against).
    public static func parse(_ bytes: [UInt8], file: String) throws -> [GoogleEstimatedSalesRow] {
        let body = try ReportText.utf8Body(bytes, file: file)
        let reader = DelimitedReader(separator: UInt8(ascii: ","), quoting: true, limits: limits)
        let records = try reader.records(body, file: file) { _ = try HeaderLayout(header: $0, specs: columns, file: file) }
        guard let header = records.first else { throw StoreReportError(file: file, line: 1, column: 1, reason: "no header row") }
        let layout = try HeaderLayout(header: header, specs: columns, file: file)
        return try records.dropFirst().map { try row(RowCells($0, layout, file: file)) }
    }

    static func row(_ c: RowCells) throws -> GoogleEstimatedSalesRow {
        let item = try c.micros("Item Price"), taxes = try c.micros("Taxes Collected"), charged = try c.micros("Charged Amount")
        guard item &+ taxes == charged else {
            throw c.failure("Charged Amount", "'Charged Amount' \(Micros.format(charged)) is not Item Price + Taxes Collected (\(Micros.format(item &+ taxes)))")
        }
        let status = try c.required("Financial Status")
        guard GoogleEstimatedSalesRow.acceptedFinancialStatuses.contains(status) else {
            throw c.failure("Financial Status", "unknown 'Financial Status' '\(Redaction.excerpt(status))', expected one of "
                            + GoogleEstimatedSalesRow.acceptedFinancialStatuses.joined(separator: ", "))
        }
        var extra: [String: String] = [:]
        for name in extraColumns where c.layout.has(name) { extra[name] = c.text(name) }
        return GoogleEstimatedSalesRow(
            line: c.record.line, orderNumber: try c.required("Order Number"),
            orderChargedDate: try c.requiredDate("Order Charged Date", .iso),
            orderChargedEpochSeconds: try c.integer("Order Charged Timestamp"), financialStatus: status,
            deviceModel: c.text("Device Model"), productTitle: c.text("Product Title"), productID: try c.required("Product ID"),
            productType: c.text("Product Type"), skuID: c.text("SKU ID"), currencyOfSale: try c.currency("Currency of Sale"),
            itemPriceMicros: item, taxesCollectedMicros: taxes, chargedAmountMicros: charged, cityOfBuyer: c.text("City of Buyer"),
            stateOfBuyer: c.text("State of Buyer"), postalCodeOfBuyer: c.text("Postal Code of Buyer"),
            countryOfBuyer: c.text("Country of Buyer"), basePlanID: c.text("Base Plan ID"), offerID: c.text("Offer ID"),
            groupID: c.text("Group ID"), promotionID: c.text("Promotion ID"), extra: extra)
    }
}

import BillingCore

/// Reads a Google Play earnings CSV (the one member of the monthly zip): columns by name with every known
/// variant, quoted fields, amounts to micros, rates exact, transaction stamps in their own zone.
public enum GoogleEarningsParser {
    static let columns: [ColumnSpec] = [
        .required("Description"), .required("Transaction Date"), .required("Transaction Time"), .required("Tax Type"),
        .required("Transaction Type"), .required("Refund Type"), .required("Product Title"),
        .required("Product id", "Package ID"), .required("Product Type"), .required("Sku Id"), .required("Hardware"),
        .required("Buyer Country"), .required("Buyer State"), .required("Buyer Postal Code", "Buyer Postcode"),
        .required("Buyer Currency"), .required("Amount (Buyer Currency)"), .required("Currency Conversion Rate"),
        .required("Merchant Currency"), .required("Amount (Merchant Currency)"),
        .optional("Base Plan ID", "Base Plan or Purchase Option ID"), .optional("Offer ID"), .optional("Group ID"),
        .optional("First USD 1M Eligible"), .optional("Service Fee %"), .optional("Fee Description"),
        .optional("Promotion ID"), .optional("Sales Channel"),
    ]

    /// The longest cell and line accepted, in bytes (docs/STORE_REPORTS.md, "Limits"): Apple's, as Google's real cells
    /// (titles, postal codes) are as short; a longer one rejects the file at its line instead of growing a buffer.
    static let limits = DelimitedLimits(cellBytes: 4_096, lineBytes: 65_536)

    /// The reader of the file's records (CSV with quotes, `limits`), the first record on `firstLine`.
    static func reader(firstLine: Int = 1) -> DelimitedReader {
        DelimitedReader(separator: UInt8(ascii: ","), quoting: true, firstLine: firstLine, limits: limits)
    }

    /// Parses `bytes` read from `file`; returns every row or throws naming line and column.
    public static func parse(_ bytes: [UInt8], file: String) throws -> [GoogleEarningsRow] {
        let body = try ReportText.utf8Body(bytes, file: file)
        let reader = reader()
        let records = try reader.records(body, file: file) { _ = try HeaderLayout(header: $0, specs: columns, file: file) }
        guard let header = records.first else { throw StoreReportError(file: file, line: 1, column: 1, reason: "no header row") }
        let layout = try HeaderLayout(header: header, specs: columns, file: file)
        var rows: [GoogleEarningsRow] = []
        rows.reserveCapacity(records.count)
        for record in records.dropFirst() { rows.append(try row(RowCells(record, layout, file: file))) }
        return rows
    }

    static func row(_ c: RowCells) throws -> GoogleEarningsRow {
        let date = try c.requiredDate("Transaction Date", .monthNameDayYear)
        let timeText = try c.required("Transaction Time")
        guard let time = GoogleTransactionTime(timeText) else {
            throw c.failure("Transaction Time", "'Transaction Time': '\(Redaction.excerpt(timeText))' is not h:mm:ss AM/PM [zone]")
        }
        guard let epoch = time.utcSeconds(on: date) else {
            throw c.failure("Transaction Time", "'Transaction Time': unknown zone '\(Redaction.excerpt(time.zone))'")
        }
        let refund = c.text("Refund Type")
        guard refund.isEmpty || GoogleRefundType(rawValue: refund) != nil else {
            throw c.failure("Refund Type", "'Refund Type' is '\(Redaction.excerpt(refund))', expected Full, Partial or empty")
        }
        guard let rate = try c.decimal("Currency Conversion Rate") else { throw c.failure("Currency Conversion Rate", "empty rate") }
        let typeText = try c.required("Transaction Type")
        guard let type = GoogleTransactionType(raw: typeText) else {
            throw c.failure("Transaction Type", "unknown 'Transaction Type' '\(Redaction.excerpt(typeText))', expected one of "
                                + GoogleTransactionType.accepted.joined(separator: ", "))
        }
        let productType = try c.integer("Product Type")
        guard productType == 0 || productType == 1 else {
            throw c.failure("Product Type", "unknown 'Product Type' \(productType), expected 0 (paid app) or 1 (in-app product)")
        }
        return GoogleEarningsRow(
            line: c.record.line, orderID: try c.required("Description"), transactionDate: date,
            transactionEpochSeconds: epoch, transactionZone: time.zone, taxType: c.text("Tax Type"),
            transactionType: type,
            refundType: GoogleRefundType(rawValue: refund), productTitle: c.text("Product Title"),
            productID: try c.required("Product id"), productType: productType, skuID: c.text("Sku Id"),
            hardware: c.text("Hardware"), buyerCountry: c.text("Buyer Country"), buyerState: c.text("Buyer State"),
            buyerPostalCode: c.text("Buyer Postal Code"), buyerCurrency: try c.currency("Buyer Currency"),
            amountBuyerMicros: try c.micros("Amount (Buyer Currency)"), currencyConversionRate: rate,
            merchantCurrency: try c.currency("Merchant Currency"), amountMerchantMicros: try c.micros("Amount (Merchant Currency)"),
            basePlanID: c.text("Base Plan ID"), offerID: c.text("Offer ID"), groupID: c.text("Group ID"),
            firstUSD1MEligible: c.text("First USD 1M Eligible"), serviceFeePercent: c.text("Service Fee %"),
            feeDescription: c.text("Fee Description"), promotionID: c.text("Promotion ID"), salesChannel: c.text("Sales Channel"))
    }
}

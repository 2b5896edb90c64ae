/// Reads Apple's Summary Sales report (tab-separated, columns by name in any order). As real files have them:
/// `Units` written as a decimal (`12.00`, documented DECIMAL(18,2); a fraction that is not zero is refused), and
/// free rows (`Developer Proceeds` 0) whose `Currency of Proceeds` is blank.
public enum AppleSummarySalesParser {
    static let extraColumns = ["Category", "CMB", "Device", "Supported Platforms", "Proceeds Reason",
                               "Preserved Pricing", "Client", "Order Type"]
    static let columns: [ColumnSpec] = [
        .optional("Provider"), .optional("Provider Country"), .required("SKU"), .optional("Developer"), .required("Title"),
        .optional("Version"), .required("Product Type Identifier"), .required("Units"), .required("Developer Proceeds"),
        .required("Begin Date"), .required("End Date"), .required("Customer Currency"), .required("Country Code"),
        .required("Currency of Proceeds"), .required("Apple Identifier"), .required("Customer Price"),
        .optional("Promo Code"), .optional("Parent Identifier"), .optional("Subscription"), .optional("Period"),
    ] + extraColumns.map { ColumnSpec.optional($0) } + oldLayoutColumns.map { ColumnSpec.retired($0, layout: "2009–2011 sales") }
    /// Columns only the daily sales layout of 2009–2011 has (`Vendor Identifier` … `Royalty Price` … `Royalty
    /// Currency`, where today's has `SKU`, `Developer Proceeds`, `Currency of Proceeds`): such a file is refused as an
    /// unsupported layout, not read.
    static let oldLayoutColumns = ["Vendor Identifier", "Royalty Price", "Royalty Currency"]

    /// Parses `bytes` read from `file`; returns every row or throws naming line and column.
    public static func parse(_ bytes: [UInt8], file: String) throws -> [AppleSummarySalesRow] {
        try scanner(file: file).all(bytes)
    }

    /// A reader of the report `file` as a stream (`AppleTabScanner`); a blank line is read as a (too narrow) row.
    public static func scanner(file: String) -> AppleTabScanner<AppleSummarySalesRow> {
        AppleTabScanner(file: file, specs: columns, blankLines: .readAsRow, row: row)
    }

    static func row(_ c: RowCells) throws -> AppleSummarySalesRow {
        let begin = try c.requiredDate("Begin Date", .monthDayYear)
        let end = try c.requiredDate("End Date", .monthDayYear)
        guard begin <= end else { throw c.failure("End Date", "'End Date' \(end) is before 'Begin Date' \(begin)") }
        let proceeds = try c.micros("Developer Proceeds")
        var extra: [String: String] = [:]
        for name in extraColumns where c.layout.has(name) { extra[name] = c.text(name) }
        return AppleSummarySalesRow(
            line: c.record.line, provider: c.text("Provider"), providerCountry: c.text("Provider Country"),
            sku: try c.required("SKU"), developer: c.text("Developer"), title: c.text("Title"), version: c.text("Version"),
            productTypeIdentifier: try c.required("Product Type Identifier"), units: try c.wholeDecimal("Units"),
            developerProceedsMicros: proceeds, beginDate: begin, endDate: end,
            customerCurrency: try c.currency("Customer Currency"), countryCode: try c.required("Country Code"),
            currencyOfProceeds: try proceedsCurrency(c, proceeds: proceeds), appleIdentifier: try c.required("Apple Identifier"),
            customerPriceMicros: try c.micros("Customer Price"), promoCode: c.text("Promo Code"),
            parentIdentifier: c.text("Parent Identifier"), subscription: c.text("Subscription"), period: c.text("Period"),
            extra: extra)
    }

    /// The proceeds currency; a blank cell is accepted only on a row without proceeds (Apple's free rows).
    static func proceedsCurrency(_ c: RowCells, proceeds: Int64) throws -> String? {
        if c.text("Currency of Proceeds").isEmpty, proceeds == 0 { return nil }
        return try c.currency("Currency of Proceeds")
    }
}

/// A parsed Apple Financial Report (one region, or the consolidated `ZZ` file): every row, the verified
/// footer totals and, for `ZZ`, the per-country summary table.
public struct AppleFinancialReport: Sendable, Equatable {
    /// The file name the report was read from.
    public let file: String
    /// Vendor, fiscal period and region from the file name, when it has the standard shape.
    public let name: AppleReportFileName?
    /// Data rows in file order (not sorted: returns can precede sales).
    public let rows: [AppleFinancialRow]
    /// The footer (checked against the rows).
    public let totals: AppleFinancialTotals
    /// The consolidated file's per-country summary (empty for region files).
    public let countrySummary: [AppleCountrySummaryRow]

    /// Product Type Identifier codes in the file that this library does not know (kept, to report).
    public var unknownProductTypes: [String] {
        Array(Set(rows.map(\.productTypeIdentifier)).subtracting(AppleProductType.known)).sorted()
    }
}

/// The footer of an Apple Financial Report.
public struct AppleFinancialTotals: Sendable, Equatable {
    /// `Total_Rows`: the number of data rows.
    public let rows: Int64
    /// `Total_Amount`: the sum of Extended Partner Share, micros (may be written without decimals).
    public let amountMicros: Int64
    /// `Total_Units`: the sum of sale units (returns are not subtracted).
    public let units: Int64
}

/// One line of the consolidated report's per-country summary table.
public struct AppleCountrySummaryRow: Sendable, Equatable {
    /// Line in the file.
    public let line: Int
    /// `Country Of Sale`.
    public let countryOfSale: String
    /// `Partner Share Currency`.
    public let partnerShareCurrency: String
    /// `Quantity`.
    public let quantity: Int64
    /// `Extended Partner Share`, micros.
    public let extendedPartnerShareMicros: Int64
}

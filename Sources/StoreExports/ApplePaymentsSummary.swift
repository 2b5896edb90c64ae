/// Apple's payments summary (`financial_report.csv` from the Payments page): per region the amounts
/// owed, Apple's exchange rate to the bank currency and the proceeds; then the bank total.
public struct ApplePaymentsSummary: Sendable, Equatable {
    /// The file name.
    public let file: String
    /// The title cell (`iTunes Connect - Payments and Financial Reports<TAB>(September, 2014)`).
    public let title: String
    /// The text in the title's parentheses (`September, 2014`), when present.
    public let periodLabel: String?
    /// One row per region and currency, in file order.
    public let rows: [ApplePaymentsRow]
    /// The bank total line (`"234.58" EUR`), absent in months not yet paid.
    public let bankTotal: ApplePaymentsBankTotal?
    /// The `Paid to …` line, when present.
    public let paidTo: String?
}

/// One region line of the payments summary. Optional fields are nil when the file's variant lacks the column.
public struct ApplePaymentsRow: Sendable, Equatable {
    /// Line in the file.
    public let line: Int
    /// Region name as written, possibly in the account's language (`Euro-Zone`, `Zone euro`).
    public let region: String
    /// The region's currency, from `Region (Currency)`.
    public let currency: String
    /// `Units Sold` (net of returns).
    public let unitsSold: Int64
    /// `Earned`, micros of `currency`.
    public let earnedMicros: Int64
    /// `Pre-Tax Subtotal`.
    public let preTaxSubtotalMicros: Int64?
    /// `Input Tax`.
    public let inputTaxMicros: Int64?
    /// `Adjustments`.
    public let adjustmentsMicros: Int64?
    /// `Withholding Tax` (negative).
    public let withholdingTaxMicros: Int64?
    /// `Total Owed`, micros of `currency`.
    public let totalOwedMicros: Int64
    /// `Balance` (variant without an exchange rate).
    public let balanceMicros: Int64?
    /// `Exchange Rate` from `currency` to `bankAccountCurrency`, exactly as written.
    public let exchangeRate: ExactDecimal?
    /// `Proceeds`, micros of `bankAccountCurrency`.
    public let proceedsMicros: Int64?
    /// `Bank Account Currency`.
    public let bankAccountCurrency: String?
}

/// The payments summary's bank total.
public struct ApplePaymentsBankTotal: Sendable, Equatable {
    /// Line in the file.
    public let line: Int
    /// Column (field number) holding the total.
    public let column: Int
    /// The amount paid, micros.
    public let amountMicros: Int64
    /// The bank account's currency.
    public let currency: String
}

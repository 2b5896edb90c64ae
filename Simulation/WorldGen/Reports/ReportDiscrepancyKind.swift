/// The kinds of difference injected between the store report files and the database.
public enum ReportDiscrepancyKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// In the report; its billing_transaction row is deleted by `StoreReports.applyToDatabase`.
    case missingInDatabase = "missing_in_database"
    /// In the database; left out of every report file.
    case missingInReport = "missing_in_report"
    /// In both; the report's customer price is `reportMicros` instead of `databaseMicros`.
    case amountMismatch = "amount_mismatch"
    /// In both; the report carries the charge in another currency (`reportCurrency`) at the same amount.
    case currencyMismatch = "currency_mismatch"
    /// The report carries the charge twice.
    case duplicate
    /// The report carries a refund (at `reportAt`) the database never recorded: injected here, or the store side
    /// of a `refund_not_reflected` / `voided_purchase_not_applied` projection fault. Keyed by the refund row's key.
    case refundMissingInDatabase = "refund_missing_in_database"
    /// Google: the store refunded part of the charge (`reportMicros`, earnings rows with Refund Type `Partial`); the
    /// database, which learns Google refunds from voided purchases without an amount, records the whole charge
    /// refunded (`databaseMicros`). Keyed by the refund row's key; observed as `refund_missing_in_database`
    /// (reconcile's `refund_not_reflected`, detail `Refund Type Partial`).
    case partialRefund = "partial_refund"
    /// The charge is reported across a period edge (at `reportAt`, in `reportPeriod` instead of `databasePeriod`).
    case periodBoundary = "period_boundary"
    /// A test purchase (is_test in the database) that no store report carries.
    case testPurchaseExcluded = "test_purchase_excluded"
}

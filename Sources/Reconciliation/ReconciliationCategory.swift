/// The one category every compared unit of a reconciliation receives.
public enum ReconciliationCategory: String, Sendable, Hashable, CaseIterable, Codable {
    /// Report and database agree.
    case matched
    /// Both sides have the unit; the amounts differ.
    case amountMismatch = "amount_mismatch"
    /// Both sides have the unit; the currencies differ.
    case currencyMismatch = "currency_mismatch"
    /// The report has the unit; the database has no such row in this or an adjacent period.
    case missingInDatabase = "missing_in_database"
    /// The database has the unit; no report of this or an adjacent period carries it.
    case missingInStoreReport = "missing_in_store_report"
    /// The report refunds a charge; the database holds no refund for it.
    case refundNotReflected = "refund_not_reflected"
    /// The report carries the charge more often than the database.
    case duplicate
    /// The unit is on the other side in the adjacent period, within the timing window of the shared edge.
    case timing
    /// A test purchase in the database: the stores leave test purchases out of their reports.
    case testPurchaseExcluded = "test_purchase_excluded"
}

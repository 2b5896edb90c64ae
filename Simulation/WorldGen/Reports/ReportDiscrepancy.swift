/// One injected difference between the store report files and the database, for recall/precision tests.
public struct ReportDiscrepancy: Sendable, Hashable, Codable {
    public var kind: ReportDiscrepancyKind
    /// APPLE or GOOGLE.
    public var provider: String
    public var subscriptionId: String
    /// The billing_transaction key concerned; for `refund_missing_in_database` the key the refund row would
    /// have (the charge's key + `:REFUNDED`, the projection's convention).
    public var transactionKey: String
    /// The kind a reconciliation at the provider's grain can observe: `kind` itself, except an Apple `duplicate`,
    /// which at Apple's aggregate grain (no transaction IDs) is one more report unit in its cell, exactly what a
    /// charge missing in the database is (`missing_in_database`). Nil in manifests written before it existed.
    public var observedKind: ReportDiscrepancyKind? = nil
    /// Google order ID (the join key of Google reports); nil for Apple.
    public var orderId: String?
    /// Store product: Apple product ID or Google product ID.
    public var productId: String
    /// ISO 3166 alpha-2 country of sale.
    public var country: String
    /// The database's currency.
    public var currency: String
    /// The report's currency when it differs (`currency_mismatch`); nil otherwise.
    public var reportCurrency: String? = nil
    /// The amount the database holds (nil: absent from the database).
    public var databaseMicros: Int64?
    /// The amount the report carries (nil: absent from the report); a refund's is negative.
    public var reportMicros: Int64?
    /// When the database books it (RFC 3339 UTC).
    public var databaseAt: String
    /// When the report books it (RFC 3339 UTC); nil when absent from the report.
    public var reportAt: String?
    /// Apple fiscal `YYYY-MM` or Google `YYYYMM` of `databaseAt`.
    public var databasePeriod: String
    /// Apple fiscal `YYYY-MM` or Google `YYYYMM` of `reportAt`.
    public var reportPeriod: String?
}

import BillingCore

/// What one application of a projection did to the database.
public struct WriteResult: Sendable, Hashable {
    /// The subscription row the outcome was written to.
    public let subscriptionId: String
    public let disposition: ProjectionDisposition
    /// True when the subscription row did not exist before.
    public let created: Bool
    /// History rows inserted (rows whose transactionKey already existed are not counted).
    public let insertedTransactions: Int
    /// Differences recorded as `drift_event` rows (re-query triggers only).
    public let drift: [DriftFinding]
}

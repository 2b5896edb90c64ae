/// Everything the transactional writer must persist for one projection.
public struct ProjectionOutcome: Sendable, Hashable {
    public var disposition: ProjectionDisposition
    /// The subscription's new state (write back; feed as the next `current`).
    public var subscription: SubscriptionSnapshot
    public var entitlement: EntitlementProjection
    /// The mapping table's BillingEventType; nil for "event record only" rows and unknown types.
    public var eventType: BillingEventType?
    /// The store event, e.g. "APPLE:DID_RENEW/BILLING_RECOVERY", "GOOGLE:2 SUBSCRIPTION_RENEWED", "APPLE:REQUERY".
    public var eventLabel: String
    /// History rows to insert if their transactionKey is absent.
    public var transactions: [BillingTransactionRecord]
    /// Price-change upsert (see `SubscriptionPriceChange`).
    public var priceChange: SubscriptionPriceChange?
    /// GooglePurchaseToken upserts.
    public var tokenChanges: [GoogleTokenChange]
    /// Why the subscription churned, when it did.
    public var churnReason: ChurnReason?
    public var flags: ProjectionFlags

    /// Creates an outcome.
    public init(disposition: ProjectionDisposition, subscription: SubscriptionSnapshot, entitlement: EntitlementProjection,
                eventType: BillingEventType?, eventLabel: String, transactions: [BillingTransactionRecord],
                priceChange: SubscriptionPriceChange?, tokenChanges: [GoogleTokenChange], churnReason: ChurnReason?,
                flags: ProjectionFlags) {
        self.disposition = disposition
        self.subscription = subscription
        self.entitlement = entitlement
        self.eventType = eventType
        self.eventLabel = eventLabel
        self.transactions = transactions
        self.priceChange = priceChange
        self.tokenChanges = tokenChanges
        self.churnReason = churnReason
        self.flags = flags
    }

    /// The projected status.
    public var status: SubscriptionStatus { subscription.status }
    /// The transaction keys, in order.
    public var transactionKeys: [String] { transactions.map(\.transactionKey) }
}

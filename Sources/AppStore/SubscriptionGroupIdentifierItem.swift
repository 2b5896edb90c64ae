import BillingCore

/// One subscription group of a status response.
public struct SubscriptionGroupIdentifierItem: Sendable, Decodable {
    public var subscriptionGroupIdentifier: String?
    public var lastTransactions: [LastTransactionsItem]?
}

/// Apple identifiers of a subscription (table `AppleSubscriptionIdentity`).
public struct AppleSubscriptionIdentity: Sendable, Hashable {
    /// Stable across renewals and plan changes within a subscription group; unique per subscription.
    public var originalTransactionId: String
    /// The newest transaction seen.
    public var latestTransactionId: String?
    /// The billing account token embedded at purchase (`appAccountToken`).
    public var appAccountToken: String?

    /// Creates an identity.
    public init(originalTransactionId: String, latestTransactionId: String? = nil, appAccountToken: String? = nil) {
        self.originalTransactionId = originalTransactionId
        self.latestTransactionId = latestTransactionId
        self.appAccountToken = appAccountToken
    }
}

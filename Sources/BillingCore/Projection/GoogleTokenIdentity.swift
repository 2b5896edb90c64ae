/// The current Google purchase token of a subscription and the token it replaced.
public struct GoogleTokenIdentity: Sendable, Hashable {
    /// The purchase token that is current (`GooglePurchaseToken.isCurrent`).
    public var purchaseToken: String
    /// The token this one replaced (upgrade, downgrade, resubscribe, top-up), if any.
    public var linkedPurchaseToken: String?

    /// Creates an identity.
    public init(purchaseToken: String, linkedPurchaseToken: String? = nil) {
        self.purchaseToken = purchaseToken
        self.linkedPurchaseToken = linkedPurchaseToken
    }
}

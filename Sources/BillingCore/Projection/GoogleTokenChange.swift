/// An upsert of a `GooglePurchaseToken` row: the new token becomes current, a replaced one does not.
public struct GoogleTokenChange: Sendable, Hashable {
    public var purchaseToken: String
    /// The token this one replaced; nil means "leave the stored value as it is".
    public var linkedPurchaseToken: String?
    public var isCurrent: Bool

    /// Creates a token change.
    public init(purchaseToken: String, linkedPurchaseToken: String?, isCurrent: Bool) {
        self.purchaseToken = purchaseToken
        self.linkedPurchaseToken = linkedPurchaseToken
        self.isCurrent = isCurrent
    }
}

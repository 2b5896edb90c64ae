import Foundation

/// Verified Google store truth: the re-queried SubscriptionPurchaseV2 for a token, the RTDN, a voided purchase.
public struct GoogleStoreState: Sendable, Equatable {
    /// The purchase token the state was queried for.
    public var purchaseToken: String
    /// The `subscriptionsv2.get` response; nil only for a voided purchase whose token can no longer be queried.
    public var purchase: SubscriptionPurchaseV2?
    /// The RTDN that triggered the re-query; nil for a plain re-query.
    public var notification: DeveloperNotification?
    /// A voided purchase (voided-purchase sweep).
    public var voidedPurchase: VoidedPurchase?
    /// The verified payloads as JSON, copied into each history row.
    public var rawPayload: Data

    /// Creates a state.
    public init(purchaseToken: String, purchase: SubscriptionPurchaseV2?, notification: DeveloperNotification? = nil,
                voidedPurchase: VoidedPurchase? = nil, rawPayload: Data = Data()) {
        self.purchaseToken = purchaseToken
        self.purchase = purchase
        self.notification = notification
        self.voidedPurchase = voidedPurchase
        self.rawPayload = rawPayload
    }
}

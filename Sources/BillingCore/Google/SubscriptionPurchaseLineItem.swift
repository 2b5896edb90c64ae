/// One `lineItems[]` entry of a SubscriptionPurchaseV2.
public struct SubscriptionPurchaseLineItem: Sendable, Equatable, Decodable {
    public var productId: String?
    public var expiryTime: RFC3339Timestamp?
    public var autoRenewingPlan: AutoRenewingPlan?
    public var prepaidPlan: PrepaidPlan?
    public var offerDetails: OfferDetails?
    public var offerPhase: OfferPhase?
    /// The order ID of the latest successful order of this item (renewals end in `..N`).
    public var latestSuccessfulOrderId: String?
    public var deferredItemReplacement: DeferredItemReplacement?
    /// The promotion code applied at signup; nil when none was.
    public var signupPromotion: SignupPromotion?

    /// True when the item is in a free-trial phase (`offerPhase.freeTrial` present).
    public var isFreeTrial: Bool { offerPhase?.freeTrial != nil }

    /// True when the latest successful order is a renewal order (`GPA.…..N`).
    public var isRenewalOrder: Bool { latestSuccessfulOrderId?.contains("..") ?? false }
}

/// A line item's `autoRenewingPlan`.
public struct AutoRenewingPlan: Sendable, Equatable, Decodable {
    /// Absent means false (defaults are omitted).
    public var autoRenewEnabled: Bool?
    public var recurringPrice: GoogleMoney?
    public var priceChangeDetails: SubscriptionItemPriceChangeDetails?
    public var priceStepUpConsentDetails: PriceStepUpConsentDetails?
}

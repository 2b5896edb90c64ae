/// A renewal info's `commitmentInfo`: how the subscription renews once its commitment ends (Apple's field names).
public struct RenewalCommitmentInfo: Sendable, Equatable, Decodable {
    public var commitmentAutoRenewProductId: String?
    /// Raw renewal status after the commitment (0 off, 1 on).
    public var commitmentAutoRenewStatus: Int?
    /// Raw billing plan type of the renewal after the commitment.
    public var commitmentRenewalBillingPlanType: String?
    public var commitmentRenewalDate: AppleTimestamp?
    /// In milliunits of the renewal info's currency.
    public var commitmentRenewalPrice: Int64?

    /// Creates commitment info with every field nil.
    public init() {}
}

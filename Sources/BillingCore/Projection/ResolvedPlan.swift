/// The plan a store product maps to, resolved by the caller from StoreProductMapping.
///
/// Deliberately carries no display price: catalog prices never drive billing decisions (P-2).
public struct ResolvedPlan: Sendable, Hashable {
    public var planId: String
    public var provider: BillingProvider
    public var productId: String
    public var basePlanId: String
    public var offerId: String
    public var intervalUnit: IntervalUnit
    /// The plan's billing period (`plan.billing_period`); all period arithmetic uses it, never `intervalUnit`.
    public var billingPeriod: BillingPeriod

    /// Creates a resolved plan.
    public init(planId: String, provider: BillingProvider, productId: String, basePlanId: String = "",
                offerId: String = "", intervalUnit: IntervalUnit, billingPeriod: BillingPeriod? = nil) {
        self.planId = planId
        self.provider = provider
        self.productId = productId
        self.basePlanId = basePlanId
        self.offerId = offerId
        self.intervalUnit = intervalUnit
        self.billingPeriod = billingPeriod ?? .legacy(intervalUnit)
    }
}

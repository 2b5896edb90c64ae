import Foundation

/// A row of `StoreProductMapping`, including the catalog display-price cache.
public struct StoreProductMapping: Sendable, Hashable {
    public var provider: BillingProvider
    public var planId: String
    public var productId: String
    public var basePlanId: String
    public var offerId: String
    /// Catalog price cache for display only; never an input of the projection.
    public var displayPrice: Money?
    public var displayPriceUpdatedAt: Date?

    /// Creates a mapping.
    public init(provider: BillingProvider, planId: String, productId: String, basePlanId: String = "",
                offerId: String = "", displayPrice: Money? = nil, displayPriceUpdatedAt: Date? = nil) {
        self.provider = provider
        self.planId = planId
        self.productId = productId
        self.basePlanId = basePlanId
        self.offerId = offerId
        self.displayPrice = displayPrice
        self.displayPriceUpdatedAt = displayPriceUpdatedAt
    }

    /// The projection's view of this mapping: plan identity only, display price dropped.
    public func resolvedPlan(intervalUnit: IntervalUnit, billingPeriod: BillingPeriod? = nil) -> ResolvedPlan {
        ResolvedPlan(planId: planId, provider: provider, productId: productId, basePlanId: basePlanId,
                     offerId: offerId, intervalUnit: intervalUnit, billingPeriod: billingPeriod)
    }
}

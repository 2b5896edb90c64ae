import Foundation

/// What a charge row bought: the store product, the plan it maps to and the paid period.
public struct ChargePeriod: Sendable, Hashable {
    public var productId: String?
    public var planId: String?
    /// The plan's ISO 8601 billing period (e.g. `P1W`).
    public var billingPeriod: String?
    public var startAt: Date?
    public var endAt: Date?

    /// Creates a charge period.
    public init(productId: String?, planId: String?, billingPeriod: String?, startAt: Date?, endAt: Date?) {
        self.productId = productId
        self.planId = planId
        self.billingPeriod = billingPeriod
        self.startAt = startAt
        self.endAt = endAt
    }
}

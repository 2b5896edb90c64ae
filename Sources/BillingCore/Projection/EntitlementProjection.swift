import Foundation

/// The entitlement the subscription grants (upsert on `Entitlement(billingAccountId, planId)`).
public struct EntitlementProjection: Sendable, Hashable {
    /// nil while the purchase is unclaimed: the writer then writes no entitlement.
    public var billingAccountId: String?
    public var planId: String
    public var isActive: Bool
    public var validFrom: Date?
    public var validUntil: Date?

    /// Creates an entitlement.
    public init(billingAccountId: String?, planId: String, isActive: Bool, validFrom: Date?, validUntil: Date?) {
        self.billingAccountId = billingAccountId
        self.planId = planId
        self.isActive = isActive
        self.validFrom = validFrom
        self.validUntil = validUntil
    }
}

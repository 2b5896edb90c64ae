import Foundation

/// A subscription as the database holds it; also the projected new state in an outcome.
public struct SubscriptionSnapshot: Sendable, Hashable {
    /// Database id; nil for a subscription the database does not know yet.
    public var id: String?
    public var provider: BillingProvider
    /// Owner; nil while the purchase is unclaimed.
    public var billingAccountId: String?
    public var planId: String
    /// The store product currently billed.
    public var productId: String?
    public var status: SubscriptionStatus
    public var acknowledgementStatus: AcknowledgementStatus
    public var isTestPurchase: Bool
    public var autoRenew: Bool
    /// Current recurring price (`currentCurrencyCode` + `currentRecurringPriceMicros`).
    public var currentPrice: Money?
    public var currentPeriodStartAt: Date?
    public var currentPeriodEndAt: Date?
    public var trialEndsAt: Date?
    public var cancelAt: Date?
    public var canceledAt: Date?
    public var lastVerifiedAt: Date?
    /// signedDate / eventTimeMillis / voided time of the newest store state applied (ordering). A re-query's answer
    /// counts with the latest instant its content records, not the time it was asked (`OutcomeAssembler.storeInstant`),
    /// so the value does not depend on which job looked last.
    public var lastStoreStateAt: Date?
    public var apple: AppleSubscriptionIdentity?
    public var google: GoogleTokenIdentity?
    /// The open (PENDING or ACCEPTED) price change, if any.
    public var openPriceChange: SubscriptionPriceChange?
    /// Whether the owning account has consumed a free trial (any provider).
    public var accountHasHadTrial: Bool

    /// Creates a snapshot; only provider, plan and status are required.
    public init(id: String? = nil, provider: BillingProvider, billingAccountId: String? = nil, planId: String,
                productId: String? = nil, status: SubscriptionStatus,
                acknowledgementStatus: AcknowledgementStatus = .notRequired, isTestPurchase: Bool = false,
                autoRenew: Bool = true, currentPrice: Money? = nil, currentPeriodStartAt: Date? = nil,
                currentPeriodEndAt: Date? = nil, trialEndsAt: Date? = nil, cancelAt: Date? = nil,
                canceledAt: Date? = nil, lastVerifiedAt: Date? = nil, lastStoreStateAt: Date? = nil,
                apple: AppleSubscriptionIdentity? = nil, google: GoogleTokenIdentity? = nil,
                openPriceChange: SubscriptionPriceChange? = nil, accountHasHadTrial: Bool = false) {
        self.id = id
        self.provider = provider
        self.billingAccountId = billingAccountId
        self.planId = planId
        self.productId = productId
        self.status = status
        self.acknowledgementStatus = acknowledgementStatus
        self.isTestPurchase = isTestPurchase
        self.autoRenew = autoRenew
        self.currentPrice = currentPrice
        self.currentPeriodStartAt = currentPeriodStartAt
        self.currentPeriodEndAt = currentPeriodEndAt
        self.trialEndsAt = trialEndsAt
        self.cancelAt = cancelAt
        self.canceledAt = canceledAt
        self.lastVerifiedAt = lastVerifiedAt
        self.lastStoreStateAt = lastStoreStateAt
        self.apple = apple
        self.google = google
        self.openPriceChange = openPriceChange
        self.accountHasHadTrial = accountHasHadTrial
    }

    /// `Subscription.currentCurrencyCode`.
    public var currentCurrencyCode: String? { currentPrice?.currencyCode }
    /// `Subscription.currentRecurringPriceMicros`.
    public var currentRecurringPriceMicros: Int64? { currentPrice?.micros }

    /// The same snapshot with the bookkeeping instants cleared, for change detection.
    var comparable: SubscriptionSnapshot {
        var copy = self
        copy.lastVerifiedAt = nil
        copy.lastStoreStateAt = nil
        return copy
    }
}

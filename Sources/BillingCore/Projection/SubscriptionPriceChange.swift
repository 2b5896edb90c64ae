import Foundation

/// A scheduled or finished price change of one subscription (table `SubscriptionPriceChange`).
///
/// As an outcome field it is an upsert: the writer updates the subscription's open
/// (PENDING or ACCEPTED) row if one exists, otherwise inserts; so at most one PENDING row exists.
public struct SubscriptionPriceChange: Sendable, Hashable {
    public var provider: BillingProvider
    public var mode: PriceChangeMode
    public var state: PriceChangeState
    public var currencyCode: String
    public var oldAmountMicros: Int64?
    public var newAmountMicros: Int64
    /// When the store expects to charge the new price.
    public var expectedChargeAt: Date?
    /// When the new price was actually charged (APPLIED only).
    public var effectiveAt: Date?
    /// The transactionKey of the billing event that set this state.
    public var sourceEventKey: String?
    /// The store product whose price changes (the subscription's product).
    public var productId: String?
    /// Apple storefront or Google regionCode the change applies to.
    public var regionCode: String?
    /// The store's instant of this state (announcement for PENDING, consent, charge or cancellation).
    public var stateAt: Date?

    /// Creates a price change.
    public init(provider: BillingProvider, mode: PriceChangeMode, state: PriceChangeState, currencyCode: String,
                oldAmountMicros: Int64?, newAmountMicros: Int64, expectedChargeAt: Date? = nil,
                effectiveAt: Date? = nil, sourceEventKey: String? = nil) {
        self.provider = provider
        self.mode = mode
        self.state = state
        self.currencyCode = currencyCode
        self.oldAmountMicros = oldAmountMicros
        self.newAmountMicros = newAmountMicros
        self.expectedChargeAt = expectedChargeAt
        self.effectiveAt = effectiveAt
        self.sourceEventKey = sourceEventKey
    }
}

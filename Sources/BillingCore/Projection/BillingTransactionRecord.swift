import Foundation

/// A history row to insert into `BillingTransaction` (insert-if-absent on `transactionKey`).
///
/// Key rules:
/// - Charges (a purchase/renewal transaction or order): Apple `APPLE:{originalTransactionId}:{transactionId}`;
///   Google `GOOGLE:{purchaseToken}:{lineItem.latestSuccessfulOrderId}` (when an older answer lacks it, the
///   order inferred from `latestOrderId` by `GoogleSuccessfulOrder`, so every answer names a charge alike), else
///   `GOOGLE:{purchaseToken}:{lineItem.productId}:{lineItem.expiryTime as canonical UTC RFC 3339}`.
/// - Non-charge events (CANCELED, RESTARTED without a charge, ENTERED_GRACE_PERIOD, ENTERED_ON_HOLD,
///   EXPIRED, PAUSED, REVOKED, REFUNDED, PRICE_CHANGE_*, PRICE_CHANGED, PRODUCT_CHANGED without a charge):
///   `{charge key of the billing period the event happened in}:{EVENT_TYPE}` plus a discriminator where one
///   period can hold several distinct events of that type: price-change events append
///   `:{currency}:{newMicros}`, a downgrade/crossgrade appends `:{autoRenewProductId}`, a Google voided
///   order uses `GOOGLE:{purchaseToken}:{voided orderId}:REFUNDED`.
///   The key is derived from store data only (never a notification UUID or message id), so a webhook,
///   its redelivery, a notification-history recovery and a later re-query of the same event all yield
///   the same key. Consequence: the same event type twice in one period (e.g. auto-renew off → on → off)
///   keeps the first row; the subscription row still holds the latest state.
public struct BillingTransactionRecord: Sendable, Hashable {
    public var transactionKey: String
    public var provider: BillingProvider
    public var eventType: BillingEventType
    public var effectiveAt: Date
    public var expiresAt: Date?
    /// Google order ID (renewals end in `..N`); nil for Apple.
    public var orderId: String?
    /// Charged, refunded or new (price-change) amount, when known. Sign rule: charges ≥ 0, refunds and
    /// chargebacks < 0 (a FAMILY_REVOKE moves no money and carries none).
    public var amount: Money?
    /// Apple storefront (ISO 3166 alpha-3) or Google regionCode (alpha-2).
    public var storefront: String?
    public var isTest: Bool
    /// Set on churn events (EXPIRED, CANCELED, REVOKED, REFUNDED); PRICE_INCREASE churn stays distinguishable.
    public var churnReason: ChurnReason?
    /// The InboundWebhookEvent the row came from, if any.
    public var inboundEventId: String?
    /// The verified store payload as JSON.
    public var rawPayload: Data
    /// Google charges: the kind of promotion code the line item was signed up with (`signupPromotion`).
    public var signupPromotionType: SignupPromotionKind?
    /// Google charges: the vanity promotion code the line item was signed up with.
    public var signupPromotionCode: String?
    /// Apple rows: the transaction's `offerType` as sent (1 introductory, 2 promotional, 3 offer code, 4 win-back);
    /// nil when the transaction names no offer, and on Google rows.
    public var offerType: Int?
    /// Apple rows: the transaction's `offerDiscountType` as sent (`FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`).
    public var offerDiscountType: String?
    /// Charge rows: what was bought and the paid period (nil on non-charge rows).
    public var charge: ChargePeriod?
    /// Refund / revocation rows: kind, refunded charge and the store's reason codes.
    public var refund: RefundDetails?
    /// True for a row the pipeline inferred (e.g. an EXPIRED row for a period that ended without renewal)
    /// rather than one a store state stated.
    public var isDerived: Bool

    /// Creates a record.
    public init(transactionKey: String, provider: BillingProvider, eventType: BillingEventType, effectiveAt: Date,
                expiresAt: Date? = nil, orderId: String? = nil, amount: Money? = nil, storefront: String? = nil,
                isTest: Bool = false, churnReason: ChurnReason? = nil, inboundEventId: String? = nil,
                rawPayload: Data = Data(), signupPromotionType: SignupPromotionKind? = nil,
                signupPromotionCode: String? = nil, charge: ChargePeriod? = nil, refund: RefundDetails? = nil,
                isDerived: Bool = false, offerType: Int? = nil, offerDiscountType: String? = nil) {
        self.transactionKey = transactionKey
        self.provider = provider
        self.eventType = eventType
        self.effectiveAt = effectiveAt
        self.expiresAt = expiresAt
        self.orderId = orderId
        self.amount = amount
        self.storefront = storefront
        self.isTest = isTest
        self.churnReason = churnReason
        self.inboundEventId = inboundEventId
        self.rawPayload = rawPayload
        self.signupPromotionType = signupPromotionType
        self.signupPromotionCode = signupPromotionCode
        self.charge = charge
        self.refund = refund
        self.isDerived = isDerived
        self.offerType = offerType
        self.offerDiscountType = offerDiscountType
    }
}

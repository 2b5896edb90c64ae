/// One charge or refund as a store report sees it: the unit every report renderer consumes.
struct ReportEntry: Sendable, Hashable {
    enum Kind: String, Sendable { case charge, refund }

    var kind: Kind
    /// APPLE or GOOGLE.
    var provider: String
    var subscriptionId: String
    /// The billing_transaction key of the row this entry comes from (for a refund the DB never saw: the charge's key + `:REFUNDED`).
    var transactionKey: String
    /// Google order ID (`..N` for renewals); nil for Apple.
    var orderId: String?
    /// Index into the catalogue's plans.
    var plan: Int
    /// ISO 3166 alpha-2 country of sale.
    var country: String
    var currency: String
    /// What the customer paid (positive, also for refunds: the refunded amount).
    var amountMicros: Int64
    /// When the store books it (UTC epoch ms).
    var atMs: Int64
    /// The original purchase instant (the charge itself for charges).
    var purchaseAtMs: Int64
    var isTest: Bool
    /// A refund the store made but the database missed through an injected projection fault.
    var storeOnly = false
    /// Google: a refund of part of the charge (`amountMicros` is the part); the earnings file says `Partial`.
    var isPartialRefund = false

    /// Apple: a free period redeemed with an offer code (a charge of 0 that is not the introductory trial): a
    /// Financial Report `S` row with Promo Code `CR` and 0.00 amounts.
    var isOfferCode = false

    /// Apple: a purchase that started a free period, a trial or an offer code (no proceeds).
    var isFree: Bool { amountMicros == 0 }
    /// Whether the Financial Report carries the entry: every paid charge and refund, and offer-code redemptions.
    var isInFinancialReport: Bool { isApple && (!isFree || isOfferCode) }
    var isApple: Bool { provider == "APPLE" }
}

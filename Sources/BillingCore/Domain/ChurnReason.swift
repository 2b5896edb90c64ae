/// Why a subscription stopped renewing or lost access; keeps price-change churn distinguishable.
public enum ChurnReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The subscriber turned auto-renew off or cancelled.
    case voluntary = "VOLUNTARY"
    /// Billing retry ran out (Apple BILLING_RETRY / expirationIntent 2, Google system cancel).
    case billingFailure = "BILLING_FAILURE"
    /// The subscriber did not consent to a price increase (Apple EXPIRED·PRICE_INCREASE /
    /// expirationIntent 3, Google cancellation while an opt-in increase was outstanding).
    case priceIncreaseNotConsented = "PRICE_INCREASE_NOT_CONSENTED"
    /// The product was no longer for sale.
    case productNotForSale = "PRODUCT_NOT_FOR_SALE"
    /// Replaced by another subscription (Google replacementCancellation).
    case replaced = "REPLACED"
    /// Canceled by the developer.
    case developer = "DEVELOPER"
    /// Refunded or charged back.
    case refund = "REFUND"
    /// Access revoked without a refund (Family Sharing removed).
    case revoked = "REVOKED"
    /// The store gave another or no reason.
    case other = "OTHER"
}

/// How a price change reaches existing subscribers (SQL enum `PriceChangeMode`).
public enum PriceChangeMode: String, Sendable, Hashable, Codable, CaseIterable {
    case priceDecrease = "PRICE_DECREASE"
    /// An increase the subscriber must consent to (Apple above threshold, Google opt-in).
    case priceIncrease = "PRICE_INCREASE"
    case optOutPriceIncrease = "OPT_OUT_PRICE_INCREASE"
}

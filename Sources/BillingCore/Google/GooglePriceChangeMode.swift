/// A `priceChangeDetails.priceChangeMode`.
public enum GooglePriceChangeMode: String, Sendable, Hashable, CaseIterable {
    case unspecified = "PRICE_CHANGE_MODE_UNSPECIFIED"
    case priceDecrease = "PRICE_DECREASE"
    case priceIncrease = "PRICE_INCREASE"
    case optOutPriceIncrease = "OPT_OUT_PRICE_INCREASE"

    /// The schema's mode, nil for UNSPECIFIED.
    public var mode: PriceChangeMode? {
        switch self {
        case .unspecified: return nil
        case .priceDecrease: return .priceDecrease
        case .priceIncrease: return .priceIncrease
        case .optOutPriceIncrease: return .optOutPriceIncrease
        }
    }
}

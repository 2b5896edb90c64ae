/// A renewal info's `expirationIntent`.
public enum AppleExpirationIntent: Int, Sendable, Hashable, CaseIterable {
    case customerCanceled = 1
    case billingError = 2
    case didNotConsentToPriceIncrease = 3
    case productNotAvailable = 4
    case other = 5

    /// The churn reason this intent stands for.
    public var churnReason: ChurnReason {
        switch self {
        case .customerCanceled: return .voluntary
        case .billingError: return .billingFailure
        case .didNotConsentToPriceIncrease: return .priceIncreaseNotConsented
        case .productNotAvailable: return .productNotForSale
        case .other: return .other
        }
    }
}

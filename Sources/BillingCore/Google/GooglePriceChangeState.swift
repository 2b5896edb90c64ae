/// A `priceChangeDetails.priceChangeState`.
public enum GooglePriceChangeState: String, Sendable, Hashable, CaseIterable {
    case unspecified = "PRICE_CHANGE_STATE_UNSPECIFIED"
    case outstanding = "OUTSTANDING"
    case confirmed = "CONFIRMED"
    case applied = "APPLIED"
    case canceled = "CANCELED"

    /// The schema's state: OUTSTANDING → PENDING, CONFIRMED → ACCEPTED; nil for UNSPECIFIED.
    public var state: PriceChangeState? {
        switch self {
        case .unspecified: return nil
        case .outstanding: return .pending
        case .confirmed: return .accepted
        case .applied: return .applied
        case .canceled: return .canceled
        }
    }
}

/// A `priceStepUpConsentDetails.state`.
public enum GoogleConsentState: String, Sendable, Hashable, CaseIterable {
    case unspecified = "CONSENT_STATE_UNSPECIFIED"
    case pending = "PENDING"
    case confirmed = "CONFIRMED"
    case completed = "COMPLETED"

    /// The schema's state: PENDING → PENDING, CONFIRMED → ACCEPTED, COMPLETED → APPLIED.
    public var state: PriceChangeState? {
        switch self {
        case .unspecified: return nil
        case .pending: return .pending
        case .confirmed: return .accepted
        case .completed: return .applied
        }
    }
}

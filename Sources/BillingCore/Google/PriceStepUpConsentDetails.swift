/// `autoRenewingPlan.priceStepUpConsentDetails`: a price step-up needing consent (KR).
public struct PriceStepUpConsentDetails: Sendable, Equatable, Decodable {
    public var consentDeadlineTime: RFC3339Timestamp?
    public var newPrice: GoogleMoney?
    /// Raw `state`; see `stateValue`.
    public var rawState: String?

    enum CodingKeys: String, CodingKey { case consentDeadlineTime, newPrice, rawState = "state" }

    /// The typed state, nil when absent or unknown.
    public var stateValue: GoogleConsentState? { rawState.flatMap(GoogleConsentState.init(rawValue:)) }
}

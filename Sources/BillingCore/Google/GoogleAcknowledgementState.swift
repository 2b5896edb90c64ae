/// A SubscriptionPurchaseV2 `acknowledgementState`.
public enum GoogleAcknowledgementState: String, Sendable, Hashable, CaseIterable {
    case unspecified = "ACKNOWLEDGEMENT_STATE_UNSPECIFIED"
    case pending = "ACKNOWLEDGEMENT_STATE_PENDING"
    case acknowledged = "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"
}

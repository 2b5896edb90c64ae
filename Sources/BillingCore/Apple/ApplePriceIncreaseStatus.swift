/// A renewal info's `priceIncreaseStatus`.
public enum ApplePriceIncreaseStatus: Int, Sendable, Hashable, CaseIterable {
    case notResponded = 0
    case consentedOrNotified = 1
}

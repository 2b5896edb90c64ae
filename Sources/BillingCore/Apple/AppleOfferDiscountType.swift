/// A transaction's `offerDiscountType`.
public enum AppleOfferDiscountType: String, Sendable, Hashable, CaseIterable {
    case freeTrial = "FREE_TRIAL"
    case payAsYouGo = "PAY_AS_YOU_GO"
    case payUpFront = "PAY_UP_FRONT"
    case oneTime = "ONE_TIME"
}

/// A transaction's or renewal's `offerType`.
public enum AppleOfferType: Int, Sendable, Hashable, CaseIterable {
    case introductory = 1
    case promotional = 2
    case offerCode = 3
    case winBack = 4
}

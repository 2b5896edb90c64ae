/// A line item's `offerDetails`: which base plan and offer it was bought with.
public struct OfferDetails: Sendable, Equatable, Decodable {
    public var basePlanId: String?
    public var offerId: String?
    public var offerTags: [String]?
}

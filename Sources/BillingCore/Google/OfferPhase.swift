/// A line item's `offerPhase`: exactly one of the phases is present.
public struct OfferPhase: Sendable, Equatable, Decodable {
    public var freeTrial: PresenceMarker?
    public var introductoryPrice: PresenceMarker?
    public var basePrice: PresenceMarker?
    public var prorationPeriod: PresenceMarker?
}

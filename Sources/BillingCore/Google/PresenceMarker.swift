/// An object whose presence is the information (`testPurchase: {}`, `offerPhase.freeTrial: {}`).
///
/// Decodes from any JSON object and ignores its content.
public struct PresenceMarker: Sendable, Equatable, Decodable {
    /// Creates a marker.
    public init() {}

    /// Accepts any JSON value.
    public init(from decoder: any Decoder) throws {}
}

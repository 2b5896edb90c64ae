/// The `purchases.subscriptionsv2.get` resource: Google's truth about one purchase token.
public struct SubscriptionPurchaseV2: Sendable, Equatable, Decodable {
    public var kind: String?
    public var regionCode: String?
    /// Absent for pending purchases.
    public var startTime: RFC3339Timestamp?
    /// Raw `subscriptionState`; see `subscriptionStateValue`.
    public var rawSubscriptionState: String?
    /// Deprecated by Google; never used for transaction keys.
    public var latestOrderId: String?
    public var linkedPurchaseToken: String?
    public var pausedStateContext: PausedStateContext?
    public var canceledStateContext: CanceledStateContext?
    /// Present (as `{}`) only for test purchases.
    public var testPurchase: PresenceMarker?
    /// Raw `acknowledgementState`; see `acknowledgementStateValue`.
    public var rawAcknowledgementState: String?
    public var externalAccountIdentifiers: ExternalAccountIdentifiers?
    public var etag: String?
    public var lineItems: [SubscriptionPurchaseLineItem]?

    enum CodingKeys: String, CodingKey {
        case kind, regionCode, startTime, rawSubscriptionState = "subscriptionState", latestOrderId
        case linkedPurchaseToken, pausedStateContext, canceledStateContext, testPurchase
        case rawAcknowledgementState = "acknowledgementState", externalAccountIdentifiers, etag, lineItems
    }

    /// The typed state, nil when absent or unknown.
    public var subscriptionStateValue: GoogleSubscriptionState? { rawSubscriptionState.flatMap(GoogleSubscriptionState.init(rawValue:)) }
    /// The typed acknowledgement state, nil when absent or unknown.
    public var acknowledgementStateValue: GoogleAcknowledgementState? {
        rawAcknowledgementState.flatMap(GoogleAcknowledgementState.init(rawValue:))
    }
    /// True when `testPurchase` is present.
    public var isTestPurchase: Bool { testPurchase != nil }
    /// The line items, empty when absent.
    public var items: [SubscriptionPurchaseLineItem] { lineItems ?? [] }
}

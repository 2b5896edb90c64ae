/// An RTDN `subscriptionNotification`.
public struct SubscriptionNotification: Sendable, Equatable, Decodable {
    public var version: String?
    /// Raw `notificationType`; see `notificationTypeValue`.
    public var rawNotificationType: Int?
    public var purchaseToken: String?
    /// Deprecated by Google; kept when sent.
    public var subscriptionId: String?

    enum CodingKeys: String, CodingKey {
        case version, rawNotificationType = "notificationType", purchaseToken, subscriptionId
    }

    /// Creates a notification.
    public init(notificationType: Int, purchaseToken: String) {
        self.version = "1.0"
        self.rawNotificationType = notificationType
        self.purchaseToken = purchaseToken
    }

    /// Decodes, accepting `notificationType` as a number or a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        rawNotificationType = try container.decodeLenientIntIfPresent(forKey: .rawNotificationType)
        purchaseToken = try container.decodeIfPresent(String.self, forKey: .purchaseToken)
        subscriptionId = try container.decodeIfPresent(String.self, forKey: .subscriptionId)
    }

    /// The typed type, nil when absent or unknown.
    public var notificationTypeValue: GoogleNotificationType? { rawNotificationType.flatMap(GoogleNotificationType.init(rawValue:)) }
}

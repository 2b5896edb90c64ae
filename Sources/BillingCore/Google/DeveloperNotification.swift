import Foundation

/// The decoded RTDN payload (`DeveloperNotification`); `eventTimeMillis` is an int64 string.
public struct DeveloperNotification: Sendable, Equatable, Decodable {
    public var version: String?
    public var packageName: String?
    /// Milliseconds since 1970 as a decimal string (a JSON number is accepted too).
    public var eventTimeMillis: String?
    public var subscriptionNotification: SubscriptionNotification?
    public var voidedPurchaseNotification: VoidedPurchaseNotification?
    public var oneTimeProductNotification: PresenceMarker?
    public var testNotification: PresenceMarker?

    enum CodingKeys: String, CodingKey {
        case version, packageName, eventTimeMillis, subscriptionNotification
        case voidedPurchaseNotification, oneTimeProductNotification, testNotification
    }

    /// Creates a subscription notification.
    public init(packageName: String, eventTimeMillis: Int64, subscriptionNotification: SubscriptionNotification) {
        self.version = "1.0"
        self.packageName = packageName
        self.eventTimeMillis = String(eventTimeMillis)
        self.subscriptionNotification = subscriptionNotification
    }

    /// Decodes, accepting `eventTimeMillis` as a string or a number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        packageName = try container.decodeIfPresent(String.self, forKey: .packageName)
        eventTimeMillis = try container.decodeLenientInt64IfPresent(forKey: .eventTimeMillis).map { String($0) }
        subscriptionNotification = try container.decodeIfPresent(SubscriptionNotification.self, forKey: .subscriptionNotification)
        voidedPurchaseNotification = try container.decodeIfPresent(VoidedPurchaseNotification.self, forKey: .voidedPurchaseNotification)
        oneTimeProductNotification = try container.decodeIfPresent(PresenceMarker.self, forKey: .oneTimeProductNotification)
        testNotification = try container.decodeIfPresent(PresenceMarker.self, forKey: .testNotification)
    }

    /// The event instant, nil when `eventTimeMillis` is absent.
    public var eventTime: Date? {
        guard let text = eventTimeMillis, let millis = Money.parseInt64(text) else { return nil }
        return Date(timeIntervalSince1970: Double(millis) / 1_000)
    }
}

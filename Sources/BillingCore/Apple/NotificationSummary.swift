/// The `summary` object some notifications (RENEWAL_EXTENSION · SUMMARY) carry instead of `data`.
public struct NotificationSummary: Sendable, Equatable, Decodable {
    public var requestIdentifier: String?
    /// Raw `environment`.
    public var environment: String?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var productId: String?
    public var storefrontCountryCodes: [String]?
    public var failedCount: Int64?
    public var succeededCount: Int64?
}

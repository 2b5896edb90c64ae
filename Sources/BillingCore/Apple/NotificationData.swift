/// The `data` object of an App Store Server Notification V2 payload.
public struct NotificationData: Sendable, Equatable, Decodable {
    /// Raw `environment`; see `environmentValue`.
    public var rawEnvironment: String?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var bundleVersion: String?
    /// The JWS of the transaction (decoded and verified elsewhere).
    public var signedTransactionInfo: String?
    /// The JWS of the renewal info (decoded and verified elsewhere).
    public var signedRenewalInfo: String?
    /// Raw `status` (1 active … 5 revoked); see `statusValue`.
    public var rawStatus: Int?
    /// Raw `consumptionRequestReason` of a `CONSUMPTION_REQUEST` (e.g. "UNINTENDED_PURCHASE").
    public var consumptionRequestReason: String?

    enum CodingKeys: String, CodingKey {
        case rawEnvironment = "environment", appAppleId, bundleId, bundleVersion
        case signedTransactionInfo, signedRenewalInfo, rawStatus = "status", consumptionRequestReason
    }

    /// Creates notification data with every field nil.
    public init() {}

    /// The typed `environment`, nil when absent or unknown.
    public var environmentValue: AppleEnvironment? { rawEnvironment.map(AppleEnvironment.init(rawValue:)) }
    /// The typed `status`, nil when absent or unknown.
    public var statusValue: AppleSubscriptionStatus? { rawStatus.flatMap(AppleSubscriptionStatus.init(rawValue:)) }
}

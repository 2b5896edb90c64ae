/// One `lastTransactions` entry of Get All Subscription Statuses, JWS parts still encoded.
public struct LastTransactionsItem: Sendable, Equatable, Decodable {
    /// Raw `status` (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
    public var rawStatus: Int?
    public var originalTransactionId: String?
    public var signedTransactionInfo: String?
    public var signedRenewalInfo: String?

    enum CodingKeys: String, CodingKey {
        case rawStatus = "status", originalTransactionId, signedTransactionInfo, signedRenewalInfo
    }

    /// The typed `status`, nil when absent or unknown.
    public var statusValue: AppleSubscriptionStatus? { rawStatus.flatMap(AppleSubscriptionStatus.init(rawValue:)) }
}

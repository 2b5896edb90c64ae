/// A `lastTransactions` entry whose JWS parts were verified and decoded by the caller.
///
/// JSON form (fixtures, replay): `{"status", "originalTransactionId", "transactionInfo", "renewalInfo"}`.
public struct DecodedLastTransactionsItem: Sendable, Equatable, Decodable {
    /// Raw `status` (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
    public var rawStatus: Int?
    public var originalTransactionId: String?
    /// The decoded `signedTransactionInfo`.
    public var transactionInfo: JWSTransactionDecodedPayload
    /// The decoded `signedRenewalInfo`.
    public var renewalInfo: JWSRenewalInfoDecodedPayload?

    enum CodingKeys: String, CodingKey {
        case rawStatus = "status", originalTransactionId, transactionInfo, renewalInfo
    }

    /// Pairs an entry with its decoded JWS parts.
    public init(item: LastTransactionsItem, transactionInfo: JWSTransactionDecodedPayload,
                renewalInfo: JWSRenewalInfoDecodedPayload?) {
        self.rawStatus = item.rawStatus
        self.originalTransactionId = item.originalTransactionId
        self.transactionInfo = transactionInfo
        self.renewalInfo = renewalInfo
    }

    /// The typed `status`, nil when absent or unknown.
    public var statusValue: AppleSubscriptionStatus? { rawStatus.flatMap(AppleSubscriptionStatus.init(rawValue:)) }
}

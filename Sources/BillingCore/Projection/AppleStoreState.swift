import Foundation

/// Verified Apple store truth: a notification and/or a status entry, with decoded transaction and renewal info.
public struct AppleStoreState: Sendable, Equatable {
    /// The notification that triggered this projection; nil for a plain re-query.
    public var notification: ResponseBodyV2DecodedPayload?
    /// The decoded `signedTransactionInfo` (required: never project from partial data).
    public var transaction: JWSTransactionDecodedPayload
    /// The decoded `signedRenewalInfo`.
    public var renewalInfo: JWSRenewalInfoDecodedPayload?
    /// Raw subscription status (1 active … 5 revoked) from the status entry or `data.status`.
    public var rawStatus: Int?
    /// The verified payload as JSON, copied into each history row.
    public var rawPayload: Data

    /// State from a notification whose JWS parts the caller verified and decoded.
    public init(notification: ResponseBodyV2DecodedPayload?, transaction: JWSTransactionDecodedPayload,
                renewalInfo: JWSRenewalInfoDecodedPayload?, rawPayload: Data = Data()) {
        self.notification = notification
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.rawStatus = notification?.data?.rawStatus
        self.rawPayload = rawPayload
    }

    /// State from a Get All Subscription Statuses entry (re-query), optionally with the notification being replayed.
    public init(statusEntry: DecodedLastTransactionsItem, notification: ResponseBodyV2DecodedPayload? = nil,
                rawPayload: Data = Data()) {
        self.notification = notification
        self.transaction = statusEntry.transactionInfo
        self.renewalInfo = statusEntry.renewalInfo
        self.rawStatus = statusEntry.rawStatus ?? notification?.data?.rawStatus
        self.rawPayload = rawPayload
    }

    /// The typed subscription status, nil when absent or unknown.
    public var statusValue: AppleSubscriptionStatus? { rawStatus.flatMap(AppleSubscriptionStatus.init(rawValue:)) }
}
